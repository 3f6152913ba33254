/* guest.h — the runtime's guest glue (kit-emu): the three core interfaces over a
 * guest program (pages in the guest window, frames from a guest shadow call
 * stack, symbols from the guest's ELF files), and the checked malloc family,
 * string functions, reports and LeakSanitizer working on guest addresses. Plain
 * C: the emulator supplies guest memory through KitGuestEnv and never needs
 * to be known here. */
#ifndef KIT_SAN_GUEST_H
#define KIT_SAN_GUEST_H

#include "san_core.h"

/* What the emulator provides. All addresses are guest addresses; the host
 * pointer of guest address a is a + host_delta. */
typedef struct KitGuestEnv {
  uintptr_t host_delta;
  uintptr_t (*map)(void *ctx, size_t size);          /* anon RW pages in the guest window; 0 on failure */
  void (*unmap)(void *ctx, uintptr_t addr, size_t size);
  bool (*accessible)(void *ctx, uintptr_t addr, size_t n, bool write); /* mapped with that access */
  void *ctx;
} KitGuestEnv;

/* Options (ASAN_OPTIONS, LSAN_OPTIONS), output, the core with guest pages,
 * guest frames and the guest symbolizer. shadow_host is the host address of
 * the shadow byte of guest address 0. */
void kit_guest_init(const KitGuestEnv *env, uintptr_t shadow_host);
bool kit_guest_ready(void);
/* guest memory for the string functions and LSan */
bool kit_guest_accessible(uintptr_t addr, size_t n, bool write);
uintptr_t kit_guest_delta(void);

/* ---- threads: each guest thread runs on its own host thread ---- */
/* this host thread runs guest thread T<tid> (0 for the first) */
void kit_guest_thread_begin(int tid);
/* the guest stack here, frame #0 at pc, in the depot (for "Thread T1 created by T0 here:") */
uint32_t kit_guest_stack_here(uintptr_t pc);

/* ---- shadow call stack (frames) ---- */
void kit_guest_frames_call(uintptr_t ret_addr, uintptr_t sp);
/* A return to ret_addr: pops through the matching frame (longjmp-safe). */
void kit_guest_frames_ret(uintptr_t ret_addr);
/* Before a call made at sp: drops frames recorded at or below sp (left by longjmp). */
void kit_guest_frames_unwind_to(uintptr_t sp);
size_t kit_guest_frames_depth(void);

/* ---- symbols ---- */
/* A loaded ELF module of the guest: its file, load bias and address range. */
void kit_guest_sym_add_module(const char *path, uintptr_t bias, uintptr_t lo, uintptr_t hi);
/* The runtime name an intercepted guest function prints as in frame #0
 * (__interceptor_malloc, __asan_memcpy, ...), as in compiled mode. */
void kit_guest_sym_set_name(uintptr_t addr, const char *name);
bool kit_guest_symbolize(void *ctx, uintptr_t pc, KitSanSymbol *out);

/* ---- reports from instrumented guest code ---- */
void kit_guest_report_access(uintptr_t guest_pc, uintptr_t bp, uintptr_t sp, uintptr_t addr, size_t size,
                             bool write, bool fatal);
/* a checked range access (sizes without an inline check): reports the first bad byte */
void kit_guest_check_range(uintptr_t guest_pc, uintptr_t bp, uintptr_t sp, uintptr_t addr, size_t size,
                           bool write, bool fatal);
/* a guest fault the guest does not handle: the SEGV report (does not return) */
__attribute__((noreturn)) void kit_guest_report_segv(uintptr_t guest_pc, uintptr_t bp, uintptr_t sp,
                                                     uintptr_t addr, bool write);

/* ---- intercepted functions: entry is the guest function's address (frame #0),
 * a[] the argument registers; the result goes back to the guest's a0 ---- */
typedef enum KitGuestFn {
  KIT_GFN_NONE,
  KIT_GFN_MALLOC, KIT_GFN_FREE, KIT_GFN_CALLOC, KIT_GFN_REALLOC, KIT_GFN_REALLOCARRAY, KIT_GFN_MEMALIGN,
  KIT_GFN_POSIX_MEMALIGN, KIT_GFN_ALIGNED_ALLOC, KIT_GFN_VALLOC, KIT_GFN_PVALLOC, KIT_GFN_MALLOC_USABLE_SIZE,
  KIT_GFN_MEMCPY, KIT_GFN_MEMMOVE, KIT_GFN_MEMSET, KIT_GFN_MEMCMP, KIT_GFN_BCMP, KIT_GFN_MEMCHR,
  KIT_GFN_MEMRCHR, KIT_GFN_STRLEN, KIT_GFN_STRNLEN, KIT_GFN_STRCPY, KIT_GFN_STPCPY, KIT_GFN_STRNCPY,
  KIT_GFN_STRCAT, KIT_GFN_STRNCAT, KIT_GFN_STRCMP, KIT_GFN_STRNCMP, KIT_GFN_STRCASECMP, KIT_GFN_STRCHR,
  KIT_GFN_STRCHRNUL, KIT_GFN_RAWMEMCHR, KIT_GFN_STRRCHR, KIT_GFN_STRSTR, KIT_GFN_STRDUP, KIT_GFN_STRNDUP,
  KIT_GFN_MEMPCPY, KIT_GFN_STRSPN, KIT_GFN_STRCSPN, KIT_GFN_STRPBRK, KIT_GFN_STRTOK,
  KIT_GFN_STRNCASECMP,
  KIT_GFN_COUNT
} KitGuestFn;
/* the libc name of fn, and the name frame #0 prints */
const char *kit_guest_fn_libc_name(KitGuestFn fn);
const char *kit_guest_fn_frame_name(KitGuestFn fn);
/* Runs fn; caller is the guest return address (for LSan's ld.so rule).
 * Returns the value for a0. */
uint64_t kit_guest_call(KitGuestFn fn, uintptr_t entry, uintptr_t caller, const uint64_t a[4]);
/* Allocations whose caller lies in [lo, hi) (the dynamic linker, a static
 * libc's TLS allocation) are not leaks; up to 16 ranges. */
void kit_guest_lsan_ignore_callers(uintptr_t lo, uintptr_t hi);

/* ---- LeakSanitizer at guest exit ---- */
typedef struct KitGuestRange {
  uintptr_t beg, end;
} KitGuestRange;
/* Scans the roots (data/bss, stack, registers as a range of host words, ...),
 * prints the leak report; returns the number of leaked allocations. */
int kit_guest_lsan_check(const KitGuestRange *roots, size_t nroots, const uint64_t *regs, size_t nregs);

#endif
