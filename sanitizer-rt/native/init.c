/* init.c — native start-up: options (weak __asan_default_options, ASAN_OPTIONS,
 * LSAN_OPTIONS), the fixed x86-64 shadow reservation, output (stderr or
 * log_path.PID), exit behaviour, and the hooks that run at exit. */
#include "native.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
static int out_fd = 2;

__attribute__((weak)) const char *__asan_default_options(void) { return ""; }

uintptr_t kit_native_here(void) { return (uintptr_t)__builtin_return_address(0); }

static void out_write(const char *buf, size_t n) {
  while (n) {
    ssize_t k = write(out_fd, buf, n);
    if (k <= 0)
      return;
    buf += k;
    n -= (size_t)k;
  }
}

static int get_pid(void) { return (int)getpid(); }

static __attribute__((noreturn)) void die(int code, bool abort_now) {
  if (abort_now) {
    signal(SIGABRT, SIG_DFL);
    abort();
  }
  _exit(code);
}

static char unknown[8][64];
static int nunknown;

/* Like the reference, unknown flags are only listed at verbosity >= 1. */
static void warn_flag(const char *name, const char *tool) {
  if (!strcmp(tool, "LeakSanitizer") || nunknown >= 8)
    return;
  snprintf(unknown[nunknown++], sizeof unknown[0], "%s", name);
}

static void print_unknown(void) {
  if (!nunknown || kit_san_opts.verbosity < 1)
    return;
  char buf[128];
  int n = snprintf(buf, sizeof buf, "WARNING: found %d unrecognized flag(s):\n", nunknown);
  out_write(buf, (size_t)n);
  for (int i = 0; i < nunknown; i++) {
    n = snprintf(buf, sizeof buf, "    %s\n", unknown[i]);
    out_write(buf, (size_t)n);
  }
}

static bool reserve(uintptr_t beg, uintptr_t end, int prot) {
  size_t size = end - beg + 1;
  void *p = mmap((void *)beg, size, prot,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  return p == (void *)beg;
}

static void open_log(void) {
  if (!kit_san_opts.log_path[0])
    return;
  if (!strcmp(kit_san_opts.log_path, "stderr"))
    return;
  if (!strcmp(kit_san_opts.log_path, "stdout")) {
    out_fd = 1;
    return;
  }
  char path[600];
  snprintf(path, sizeof path, "%s.%d", kit_san_opts.log_path, (int)getpid());
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0)
    out_fd = fd;
}

static void at_exit(void) {
  if (kit_san_opts.detect_leaks && kit_san_opts.leak_check_at_exit)
    kit_native_lsan_at_exit();
}

void kit_native_init(void) {
  if (state)
    return;
  state = 1;
  kit_san_options_defaults(&kit_san_opts);
  kit_san_options_parse(&kit_san_opts, __asan_default_options(), warn_flag, "AddressSanitizer");
  kit_san_options_parse(&kit_san_opts, getenv("ASAN_OPTIONS"), warn_flag, "AddressSanitizer");
  kit_san_options_parse(&kit_san_opts, getenv("LSAN_OPTIONS"), warn_flag, "LeakSanitizer");
  open_log();
  print_unknown();
  __asan_option_detect_stack_use_after_return = kit_san_opts.detect_stack_use_after_return;
  if (!reserve(LOW_SHADOW_BEG, LOW_SHADOW_END, PROT_READ | PROT_WRITE) ||
      !reserve(HIGH_SHADOW_BEG, HIGH_SHADOW_END, PROT_READ | PROT_WRITE) ||
      !reserve(GAP_BEG, GAP_END, PROT_NONE)) {
    static const char msg[] = "==kit-asan==ERROR: could not reserve the shadow memory; "
                              "is ASLR or ulimit -v in the way?\n";
    out_write(msg, sizeof msg - 1);
    _exit(1);
  }
  static const KitSanPlatform plat = {out_write, get_pid, die, kit_native_tid};
  static const KitSanFrameSource frames = {kit_native_unwind, NULL};
  static const KitSanSymbolizer sym = {kit_native_symbolize, NULL};
  kit_san_core_init(&plat, &kit_native_pages, &frames, &sym);
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
  uintptr_t lo, hi, sp = (uintptr_t)__builtin_frame_address(0);
  kit_native_stack_bounds(&lo, &hi);
  if (!hi || sp < lo || sp >= hi || hi - sp > (64UL << 20))
    return;
  sp &= ~7UL;
  kit_san_shadow_set(lo & ~7UL, sp - (lo & ~7UL), 0);
}

__attribute__((noinline)) void __sanitizer_print_stack_trace(void) {
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(KIT_HERE_PC() - 1, KIT_HERE_BP(), frames, KIT_SAN_MAX_FRAMES);
  kit_san_print_stack(frames, n);
}

__attribute__((constructor(101))) static void ctor(void) { kit_native_init(); }
