/* init.c — native start-up: the shared options/output start-up (core/startup.c)
 * with the program's weak __asan_default_options, the fixed x86-64 shadow
 * reservation, the core wired to mmap pages, the host unwinder and symbolizer,
 * signal handlers, and the hooks that run at exit. */
#include "native.h"
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* x86-64 layout of the reference (kLowShadow, kShadowGap, kHighShadow). */
#define LOW_SHADOW_BEG 0x00007fff8000ULL
#define LOW_SHADOW_END 0x00008fff6fffULL
#define GAP_BEG 0x00008fff7000ULL
#define GAP_END 0x02008fff6fffULL
#define HIGH_SHADOW_BEG 0x02008fff7000ULL
#define HIGH_SHADOW_END 0x10007fff7fffULL

static int state; /* 0 none, 1 initializing, 2 ready */

__attribute__((weak)) const char *__asan_default_options(void) { return ""; }

uintptr_t kit_native_here(void) { return (uintptr_t)__builtin_return_address(0); }

static bool reserve(uintptr_t beg, uintptr_t end, int prot) {
  size_t size = end - beg + 1;
  void *p = mmap((void *)beg, size, prot,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  return p == (void *)beg;
}

static void at_exit(void) {
  if (kit_san_opts.detect_leaks && kit_san_opts.leak_check_at_exit)
    kit_native_lsan_at_exit();
}

void kit_native_init(void) {
  if (state)
    return;
  state = 1;
  /* stdio is the program's: a report ends it without flushing, as the reference's */
  const KitSanPlatform *plat = kit_san_startup(__asan_default_options(), kit_native_tid, false);
  __asan_option_detect_stack_use_after_return = kit_san_opts.detect_stack_use_after_return;
  if (!reserve(LOW_SHADOW_BEG, LOW_SHADOW_END, PROT_READ | PROT_WRITE) ||
      !reserve(HIGH_SHADOW_BEG, HIGH_SHADOW_END, PROT_READ | PROT_WRITE) ||
      !reserve(GAP_BEG, GAP_END, PROT_NONE)) {
    static const char msg[] = "==kit-asan==ERROR: could not reserve the shadow memory; "
                              "is ASLR or ulimit -v in the way?\n";
    kit_san_out_write(msg, sizeof msg - 1);
    _exit(1);
  }
  static const KitSanFrameSource frames = {kit_native_unwind, NULL};
  static const KitSanSymbolizer sym = {kit_native_symbolize, NULL};
  kit_san_core_init(plat, &kit_native_pages, &frames, &sym);
  kit_san_core_set_fake_pages(&kit_native_pages);
  state = 2;
  kit_native_signals_install();
  atexit(at_exit);
}

bool kit_native_ready(void) { return state == 2; }

void __asan_init(void) { kit_native_init(); }

/* Before a noreturn call (longjmp, exit paths) the frames being skipped leave
 * their redzones behind; clear the shadow of the stack below the caller. */
void __asan_handle_no_return(void) {
  if (!kit_native_ready())
    return;
  /* the frames a longjmp (or any noreturn call) skips lie between here and the
   * top of the stack, their redzones still poisoned: clear from a page below
   * this frame up to the stack top, as AddressSanitizer does (live callers
   * lose their redzones until they return; a wrong report is worse) */
  uintptr_t lo, hi, sp = (uintptr_t)__builtin_frame_address(0);
  kit_native_stack_bounds(&lo, &hi);
  if (!hi || sp < lo || sp >= hi)
    return;
  uintptr_t bottom = (sp - 4096) & ~4095UL;
  if (bottom < lo)
    bottom = lo & ~7UL;
  if (hi - bottom > (64UL << 20))
    return;
  kit_san_shadow_set(bottom, (hi - bottom + 7) & ~7UL, 0);
}

__attribute__((noinline)) void __sanitizer_print_stack_trace(void) {
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(KIT_HERE_PC() - 1, KIT_HERE_BP(), frames, KIT_SAN_MAX_FRAMES);
  kit_san_print_stack(frames, n);
}

__attribute__((constructor(101))) static void ctor(void) { kit_native_init(); }
