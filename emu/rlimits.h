/* emu/rlimits.h — the guest's resource limits: its stack's size from
 * RLIMIT_STACK, the guest window's size under RLIMIT_AS (0, said on err,
 * when too small), and getrlimit/setrlimit for the guest. */
#ifndef KIT_EMU_RLIMITS_H
#define KIT_EMU_RLIMITS_H

#include "internal.h"

uint64_t kit_emu_stack_size(void);
uint64_t kit_emu_window_size(uint64_t stack, FILE *err);
int64_t kit_emu_rlimit(int res, const uint64_t *want, uint64_t old[2]);

/* The emulator's own descriptors (its stderr for tools' output and reports)
 * live in KIT_EMU_RESERVED_FDS numbers below min(soft RLIMIT_NOFILE, 1024),
 * as Valgrind keeps its log fd: the guest's close, dup3 onto them and
 * close_range pass them by, and other calls on them fail with EBADF, so a
 * guest that closes its stderr loses none of the tools' output (docs/emu.md,
 * "Descriptors"). The kernel gives new descriptors around them. keep: fd
 * duplicated there (close-on-exec), the new number, or -1. */
#define KIT_EMU_RESERVED_FDS 8
int kit_emu_fd_keep(int fd);
bool kit_emu_fd_reserved(int64_t fd);
/* [first, last] minus the reserved range, as up to two ranges; how many */
int kit_emu_fd_ranges(uint64_t first, uint64_t last, uint64_t out[2][2]);

#endif
