/* emu/tools/asan/asan.h — kit-emu's AddressSanitizer (--sanitize=address) and
 * block coverage (--sanitize=coverage), a built-in tool on the public tool
 * API: what asan.c (install, shadow, the pass over lifted blocks, report entry
 * points, replaced functions), elf.c (guest ELF modules and the libc
 * functions the runtime replaces) and cov.c share. */
#ifndef KIT_EMU_ASAN_H
#define KIT_EMU_ASAN_H

#include "guest.h"
#include "kit/emu_tool.h"

/* Turns the sanitizers on for this emulator (before kit_emu_run). address:
 * shadow, runtime, hooks, the ASan pass; recover: bad accesses report and
 * continue when halt_on_error=0 (kitcc's -fsanitize-recover=address).
 * coverage: block counts of the executable written at exit for kit-cov.
 * Returns 0, or -1 with a message on err. */
int kit_emu_san_install(KitEmu *emu, bool address, bool recover, bool coverage, FILE *err);

/* cov.c: count the blocks of [lo, hi) (the executable); write at exit */
void kit_emu_cov_init(KitEmu *emu, uint64_t lo, uint64_t hi);
void kit_emu_cov_install(KitEmuTool *tool);
void kit_emu_cov_write(KitEmu *emu);

/* elf.c: register an ELF file mapped at bias (its symbols, DWARF and the
 * libc functions to replace); the executable, its interpreter, libraries. */
void kit_emu_san_add_elf(KitEmu *emu, const char *path, uint64_t bias, bool is_interp);
/* asan.c: have the block at pc run the runtime's fn instead of the guest's */
void kit_emu_san_replace(uint64_t pc, KitGuestFn fn);
/* pc lies in the dynamic linker */
bool kit_emu_san_in_interp(uint64_t pc);
/* the executable's load range (set by its kit_emu_san_add_elf) */
void kit_emu_san_exe_range(uint64_t *lo, uint64_t *hi);
/* writable PT_LOAD ranges of the registered modules (LSan roots); returns count */
size_t kit_emu_san_data_ranges(KitGuestRange *out, size_t max);
/* the PT_TLS sizes of the registered modules, summed (each padded to its alignment) */
uint64_t kit_emu_san_tls_bytes(void);

#endif
