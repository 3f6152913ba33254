/* msan_guest.h — MemorySanitizer's guest glue (kit-emu --sanitize=memory):
 * the shadow of guest memory (one shadow byte per guest byte, a set bit an
 * uninitialized bit), the malloc family and string functions run for the
 * guest with their shadow effects (new memory poisoned, calloc clean,
 * realloc's kept part moved, free poisons, copies copy the shadow), what
 * system calls write (unpoisoned) and read (checked), MSAN_OPTIONS and the
 * report, in the compiled runtime's text. Plain C: the emulator hands guest
 * memory, frames and symbols over through the guest glue (guest.h). */
#ifndef KIT_SAN_MSAN_GUEST_H
#define KIT_SAN_MSAN_GUEST_H

#include "guest.h"

/* after kit_guest_init: shadow_host is the shadow byte of guest address 0,
 * window the guest addresses it covers; MSAN_OPTIONS read here. Without
 * recover (kit-emu's --sanitize-recover=memory) every report ends the guest,
 * as a non-recover build's __msan_warning_noreturn does. */
void kit_msan_guest_init(uint8_t *shadow_host, uint64_t window, bool recover);
void kit_msan_guest_poison(uintptr_t a, size_t n);
void kit_msan_guest_unpoison(uintptr_t a, size_t n);
/* offset of the first uninitialized byte of guest [a, a+n), or -1 */
long kit_msan_guest_first_poisoned(uintptr_t a, size_t n);

/* A use of uninitialized bits at guest pc (frames from the guest shadow call
 * stack). Returns when halt_on_error=0; else ends the process. what (or
 * NULL): the "Uninitialized bytes in WHAT at offset ..." line first. */
void kit_msan_guest_report(uintptr_t pc, const char *what, long off, uintptr_t a, size_t n);

/* Origins (kit-emu --sanitize-memory-track-origins): origin_host is the
 * origin of guest address 0 (4 bytes per 4-byte granule, a mapping of the
 * window's size); the malloc family gives new and freed memory the origin of
 * its guest stack, copies move origins with shadows. A report with the
 * value's origin prints "Uninitialized value was created by a heap
 * allocation" and the allocation's stack after its own. */
void kit_msan_guest_set_origins(uint8_t *origin_host);
void kit_msan_guest_report_origin(uintptr_t pc, uint32_t origin);

/* fn (the guest glue's malloc family and string functions) with MSan's
 * shadow effects and checks (a report's frame #0 is the entry). */
uint64_t kit_msan_guest_call(KitGuestFn fn, uintptr_t entry, uintptr_t caller, const uint64_t a[4]);
/* the name a replaced function prints as in frame #0 */
const char *kit_msan_guest_frame_name(KitGuestFn fn);

/* System calls (Linux's generic numbers: riscv64, aarch64): how many
 * register arguments the call reads (their shadows are checked; -1: not
 * known, none checked), the memory it reads checked at entry (a report, as
 * memcheck's "Syscall param write(buf) points to uninitialised byte(s)"),
 * the memory it wrote unpoisoned at its return. */
int kit_msan_guest_syscall_nargs(uint64_t nr);
const char *kit_msan_guest_syscall_name(uint64_t nr);
void kit_msan_guest_syscall_enter(uint64_t nr, const uint64_t args[6], uintptr_t pc);
void kit_msan_guest_syscall_ret(uint64_t nr, const uint64_t args[6], int64_t ret);

/* a stack pointer moving from old to new: a new frame's bytes are uninitialized */
void kit_msan_guest_sp(uint64_t old, uint64_t new_sp);
/* ... moved by the guest instruction at pc: with origins, the frame's bytes
 * were "created in the stack frame" of pc's function */
void kit_msan_guest_sp_at(uint64_t old, uint64_t new_sp, uint64_t pc);
/* at exit: "MemorySanitizer: N warnings reported." with recover; the exit status to use */
int kit_msan_guest_exit_status(int status);
bool kit_msan_guest_halt_on_error(void);

#endif
