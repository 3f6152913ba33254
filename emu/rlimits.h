/* emu/rlimits.h — the guest's resource limits: its stack's size from
 * RLIMIT_STACK, the guest window's size under RLIMIT_AS (0, said on err,
 * when too small), and getrlimit/setrlimit for the guest. */
#ifndef KIT_EMU_RLIMITS_H
#define KIT_EMU_RLIMITS_H

#include "internal.h"

uint64_t kit_emu_stack_size(void);
uint64_t kit_emu_window_size(uint64_t stack, FILE *err);
int64_t kit_emu_rlimit(int res, const uint64_t *want, uint64_t old[2]);

#endif
