/* init.c — MemorySanitizer start-up and reports: the shadow reserved at fixed
 * addresses (MAP_NORESERVE), MSAN_OPTIONS, the parameter/return TLS the
 * instrumented code passes shadows through, __msan_warning[_noreturn] and the
 * report text clang-16's runtime prints (stack and symbolizer from the shared
 * core and native glue), the shadow helpers and the public __msan_* API. */
#define _GNU_SOURCE
#include "msan_rt.h"
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

__thread uint64_t __msan_param_tls[100];
__thread uint64_t __msan_retval_tls[100];
__thread uint64_t __msan_va_arg_tls[100];
__thread uint32_t __msan_param_origin_tls[200]; /* an origin at each 8-byte slot's offset of __msan_param_tls */
__thread uint32_t __msan_retval_origin_tls;
__thread uint64_t __msan_va_arg_overflow_size_tls;

MsanOptions msan_opts = {.halt_on_error = true, .report_umrs = true, .poison_in_malloc = true,
                         .poison_in_free = true, .exit_code = 1};
static int state; /* 0 none, 1 initializing, 2 ready */
static int warnings;
static int report_lock;
static bool halt_given; /* MSAN_OPTIONS named halt_on_error */
static pthread_t main_thread;
static uintptr_t libc_lo, libc_hi;

/* shadow of [0, 0x0100'0000'0000), [0x5100'0000'0000, 0x6000'0000'0000) and
 * [0x7000'0000'0000, 0x8000'0000'0000): the program's three ranges */
static const uintptr_t shadow_ranges[][2] = {
    {0x500000000000ULL, 0x510000000000ULL},
    {0x010000000000ULL, 0x100000000000ULL},
    {0x200000000000ULL, 0x300000000000ULL},
};
/* their origins (shadow + 0x100000000000), reserved when origins are tracked */
static const uintptr_t origin_ranges[][2] = {
    {0x600000000000ULL, 0x610000000000ULL},
    {0x110000000000ULL, 0x200000000000ULL},
    {0x300000000000ULL, 0x400000000000ULL},
};

/* the kernel's mmap: the program's goes through the interceptor, which would
 * unpoison the shadow's own shadow */
static void *raw_mmap(void *addr, size_t n, int prot, int flags) {
  return (void *)syscall(SYS_mmap, addr, n, prot, flags, -1, 0);
}

static bool reserve(uintptr_t beg, uintptr_t end) {
  void *p = raw_mmap((void *)beg, end - beg, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE);
  return p == (void *)beg;
}

static void msan_option(const char *name, const char *val) {
  bool on = !strcmp(val, "1") || !strcmp(val, "true") || !strcmp(val, "yes");
  if (!strcmp(name, "halt_on_error")) {
    msan_opts.halt_on_error = on;
    halt_given = true;
  }
  else if (!strcmp(name, "exit_code") || !strcmp(name, "exitcode")) msan_opts.exit_code = atoi(val);
  else if (!strcmp(name, "print_stats")) msan_opts.print_stats = on;
  else if (!strcmp(name, "report_umrs")) msan_opts.report_umrs = on;
  else if (!strcmp(name, "poison_in_malloc")) msan_opts.poison_in_malloc = on;
  else if (!strcmp(name, "poison_in_free")) msan_opts.poison_in_free = on;
  else if (!strcmp(name, "poison_heap_with_zeroes")) msan_opts.poison_heap_with_zeroes = on;
}

/* MSAN_OPTIONS: the shared names (symbolize, strip_path_prefix, ...) go to the
 * core's parser, MemorySanitizer's own are read here */
static void parse_options(const char *s) {
  kit_san_options_defaults(&kit_san_opts);
  kit_san_options_parse(&kit_san_opts, s, NULL, "MemorySanitizer");
  while (s && *s) {
    char item[256];
    size_t n = strcspn(s, ": ,\t\n");
    if (n && n < sizeof item) {
      memcpy(item, s, n);
      item[n] = 0;
      char *eq = strchr(item, '=');
      if (eq) {
        *eq = 0;
        msan_option(item, eq + 1);
      }
    }
    s += n;
    if (*s) s++;
  }
}

static int find_libc(struct dl_phdr_info *info, size_t sz, void *data) {
  (void)sz;
  (void)data;
  if (!info->dlpi_name || !strstr(info->dlpi_name, "/libc.so")) return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD) continue;
    uintptr_t b = info->dlpi_addr + ph->p_vaddr;
    if (!libc_lo || b < libc_lo) libc_lo = b;
    if (b + ph->p_memsz > libc_hi) libc_hi = b + ph->p_memsz;
  }
  return 1;
}

bool msan_from_libc(uintptr_t ra) { return ra >= libc_lo && ra < libc_hi; }

static int get_pid(void) { return (int)getpid(); }
static __attribute__((noreturn)) void die(int code, bool abort_now) {
  if (abort_now) abort();
  _exit(code);
}

static void at_exit(void) {
  if (warnings && !msan_opts.halt_on_error) {
    kit_san_printf("MemorySanitizer: %d warnings reported.\n", warnings);
    _exit(msan_opts.exit_code);
  }
}

/* MSAN_OPTIONS from the environment the process started with: from
 * .preinit_array, before libc's own start-up, getenv does not see it yet */
static const char *options_from(char **envp) {
  if (!envp) return getenv("MSAN_OPTIONS");
  for (; *envp; envp++)
    if (!strncmp(*envp, "MSAN_OPTIONS=", 13)) return *envp + 13;
  return NULL;
}

static void init_with(char **envp) {
  if (state) return;
  state = 1;
  parse_options(options_from(envp));
  msan_origin_init();
  for (size_t i = 0; i < 3; i++)
    if (!reserve(shadow_ranges[i][0], shadow_ranges[i][1]) ||
        (msan_origin_level && !reserve(origin_ranges[i][0], origin_ranges[i][1]))) {
      static const char msg[] = "==kit-msan==ERROR: could not reserve the shadow memory; "
                                "is ulimit -v in the way?\n";
      kit_san_out_write(msg, sizeof msg - 1);
      _exit(1);
    }
  main_thread = pthread_self();
  dl_iterate_phdr(find_libc, NULL);
  static const KitSanPlatform plat = {kit_san_out_write, get_pid, die, NULL};
  static const KitSanFrameSource frames = {kit_native_unwind, NULL};
  static const KitSanSymbolizer sym = {kit_native_symbolize, NULL};
  kit_san_core_init(&plat, &kit_native_pages, &frames, &sym);
  atexit(at_exit);
  state = 2;
}

void msan_init(void) { init_with(NULL); }

bool msan_ready(void) { return state == 2; }

/* the native unwinder's bounds for threads other than the main one */
bool kit_native_thread_stack(uintptr_t *lo, uintptr_t *hi) {
  pthread_attr_t a;
  if (!state || pthread_equal(pthread_self(), main_thread) || pthread_getattr_np(pthread_self(), &a)) return false;
  void *base;
  size_t size;
  pthread_attr_getstack(&a, &base, &size);
  pthread_attr_destroy(&a);
  *lo = (uintptr_t)base;
  *hi = (uintptr_t)base + size;
  return true;
}

int kit_native_tid(void) { return 0; }

void *msan_real(const char *name) {
  void *p = dlsym(RTLD_NEXT, name);
  if (!p) {
    kit_san_printf("==%d==ERROR: MemorySanitizer: cannot find libc's %s\n", (int)getpid(), name);
    _exit(1);
  }
  return p;
}

/* ---- shadow ---- */

void msan_poison(const void *p, size_t n) {
  if (n && msan_ready()) memset(msan_shadow(p), 0xff, n);
}

/* Large ranges (a program's mmap of gigabytes) are cleared by mapping fresh
 * zero pages over their shadow's whole pages: nothing gets committed. */
void msan_unpoison(const void *p, size_t n) {
  if (!n || !msan_ready()) return;
  uintptr_t s = (uintptr_t)msan_shadow(p), e = s + n;
  uintptr_t ps = (s + 4095) & ~4095UL, pe = e & ~4095UL;
  if (n < (1UL << 20) || pe <= ps ||
      raw_mmap((void *)ps, pe - ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED) !=
          (void *)ps) {
    memset((void *)s, 0, n);
    return;
  }
  memset((void *)s, 0, ps - s);
  memset((void *)pe, 0, e - pe);
}

/* and the origins: a level-2 chain names the caller (an interceptor, or
 * __msan_memcpy) as frame #0 and the program's stack under it */
__attribute__((noinline)) void msan_copy_shadow(void *dst, const void *src, size_t n) {
  if (!n || !msan_ready()) return;
  memmove(msan_shadow(dst), msan_shadow(src), n);
  if (msan_origin_level) {
    const uintptr_t *caller_fp = *(uintptr_t *const *)__builtin_frame_address(0);
    msan_copy_origin(dst, src, n, (uintptr_t)__builtin_return_address(0) - 1, caller_fp[1] - 1, caller_fp[0]);
  }
}

long msan_first_poisoned(const void *p, size_t n) {
  if (!msan_ready()) return -1;
  const uint8_t *s = msan_shadow(p);
  for (size_t i = 0; i < n; i++)
    if (s[i]) return (long)i;
  return -1;
}

/* ---- reports ---- */

void msan_report_umr(uintptr_t pc, uintptr_t bp, uint32_t origin) {
  kit_san_in_report = true;
  while (__atomic_exchange_n(&report_lock, 1, __ATOMIC_ACQUIRE))
    ;
  warnings++;
  kit_san_printf("==%d==WARNING: MemorySanitizer: use-of-uninitialized-value\n", (int)getpid());
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(pc, bp, frames, KIT_SAN_MAX_FRAMES);
  kit_san_print_stack(frames, n);
  if (origin) msan_describe_origin(origin);
  KitSanSymbol s;
  kit_san_symbolize(pc, &s);
  char loc[1300];
  kit_san_format_location(&s, loc, sizeof loc, true);
  kit_san_printf("SUMMARY: MemorySanitizer: use-of-uninitialized-value %s\n", loc);
  if (msan_opts.halt_on_error) {
    kit_san_printf("Exiting\n");
    _exit(msan_opts.exit_code);
  }
  kit_san_in_report = false;
  __atomic_store_n(&report_lock, 0, __ATOMIC_RELEASE);
}

void msan_check_range(const char *fn, const void *p, size_t n, uintptr_t pc, uintptr_t bp) {
  if (kit_san_in_report) return; /* the symbolizer's libraries calling an interceptor */
  long off = msan_first_poisoned(p, n);
  if (off < 0) return;
  if (msan_opts.report_umrs)
    kit_san_printf("Uninitialized bytes in %s at offset %ld inside [%p, %zu)\n", fn, off, p, n);
  msan_report_umr(pc, bp, msan_origin_of((const char *)p + off));
}

/* what instrumented code calls */
__attribute__((noinline)) void __msan_warning(void) {
  /* -fsanitize-recover=memory: continue unless MSAN_OPTIONS says halt_on_error=1 */
  if (!halt_given) msan_opts.halt_on_error = false;
  msan_report_umr(MSAN_CALLER_PC(), MSAN_CALLER_BP(), 0);
}

__attribute__((noinline, noreturn)) void __msan_warning_noreturn(void) {
  msan_opts.halt_on_error = true;
  msan_report_umr(MSAN_CALLER_PC(), MSAN_CALLER_BP(), 0);
  _exit(msan_opts.exit_code);
}

/* -fsanitize-memory-track-origins: the value's origin */
__attribute__((noinline)) void __msan_warning_with_origin(uint32_t origin) {
  if (!halt_given) msan_opts.halt_on_error = false;
  msan_report_umr(MSAN_CALLER_PC(), MSAN_CALLER_BP(), origin);
}

__attribute__((noinline, noreturn)) void __msan_warning_with_origin_noreturn(uint32_t origin) {
  msan_opts.halt_on_error = true;
  msan_report_umr(MSAN_CALLER_PC(), MSAN_CALLER_BP(), origin);
  _exit(msan_opts.exit_code);
}

void *__msan_memcpy(void *dst, const void *src, size_t n) {
  memcpy(dst, src, n);
  msan_copy_shadow(dst, src, n);
  return dst;
}

void *__msan_memmove(void *dst, const void *src, size_t n) {
  memmove(dst, src, n);
  msan_copy_shadow(dst, src, n);
  return dst;
}

void *__msan_memset(void *dst, int c, size_t n) {
  memset(dst, c, n);
  msan_unpoison(dst, n);
  return dst;
}

/* the public interface (sanitizer/msan_interface.h) */
void __msan_poison(const volatile void *p, size_t n) { msan_poison((const void *)p, n); }
void __msan_unpoison(const volatile void *p, size_t n) { msan_unpoison((const void *)p, n); }
void __msan_unpoison_string(const volatile char *s) { msan_unpoison((const void *)s, strlen((const char *)s) + 1); }
long __msan_test_shadow(const volatile void *p, size_t n) { return msan_first_poisoned((const void *)p, n); }
void __msan_check_mem_is_initialized(const volatile void *p, size_t n) {
  long off = msan_first_poisoned((const void *)p, n);
  if (off < 0) return;
  if (msan_opts.report_umrs)
    kit_san_printf("Uninitialized bytes in __msan_check_mem_is_initialized at offset %ld inside [%p, %zu)\n", off,
                   (const void *)p, n);
  msan_report_umr(MSAN_CALLER_PC(), MSAN_CALLER_BP(), msan_origin_of((const char *)p + off));
}
void __msan_set_keep_going(int on) { msan_opts.halt_on_error = !on; }
int __msan_has_dynamic_component(void) { return 0; }

static void preinit(int argc, char **argv, char **envp) {
  (void)argc;
  (void)argv;
  init_with(envp);
}
__attribute__((section(".preinit_array"), used)) static void (*const preinit_entry)(int, char **, char **) = preinit;
__attribute__((constructor(101))) static void ctor(void) { msan_init(); }
