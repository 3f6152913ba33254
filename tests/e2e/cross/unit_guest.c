/* unit_guest.c — cmocka tests of the runtime's guest glue (sanitizer-rt/guest)
 * without an emulator: a fake guest window (a host range at host_delta) and
 * shadow, then the shadow call stack, the malloc family and the string
 * functions on guest addresses, the shared symbolizer on a module registered
 * at a made-up bias, and the shared LSan marker reading guest memory. */
#define _GNU_SOURCE
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "guest.h"

#define WINDOW (1ull << 32)

static uint8_t *window;
static uintptr_t next_page = 0x10000000;

static uintptr_t fake_map(void *ctx, size_t size) {
  (void)ctx;
  uintptr_t a = next_page;
  next_page += (size + 4095) & ~4095ul;
  return a;
}
static void fake_unmap(void *ctx, uintptr_t addr, size_t size) {
  (void)ctx;
  madvise(window + addr, size, MADV_DONTNEED);
}
static bool fake_accessible(void *ctx, uintptr_t addr, size_t n, bool write) {
  (void)ctx, (void)write;
  return addr < WINDOW && n <= WINDOW - addr;
}

static int setup(void **state) {
  (void)state;
  window = mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  uint8_t *shadow = mmap(NULL, WINDOW >> 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (window == MAP_FAILED || shadow == MAP_FAILED) return -1;
  KitGuestEnv env = {(uintptr_t)window, fake_map, fake_unmap, fake_accessible, NULL};
  kit_guest_init(&env, (uintptr_t)shadow);
  return 0;
}

size_t kit_guest_unwind(void *ctx, uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max);

static void test_frames(void **state) {
  (void)state;
  kit_guest_frames_call(0x1004, 1000);
  kit_guest_frames_call(0x2008, 900);
  kit_guest_frames_call(0x3002, 800);
  uintptr_t f[8];
  assert_int_equal(kit_guest_unwind(NULL, 0x4000, 0, f, 8), 4);
  assert_int_equal(f[0], 0x4000);
  assert_int_equal(f[1], 0x3001); /* return addresses minus one, innermost first */
  assert_int_equal(f[3], 0x1003);
  kit_guest_frames_ret(0x2008); /* a longjmp-style return past one frame */
  assert_int_equal(kit_guest_frames_depth(), 1);
  kit_guest_frames_ret(0x9999); /* no such frame: nothing changes */
  assert_int_equal(kit_guest_frames_depth(), 1);
  kit_guest_frames_unwind_to(1000); /* a call made at the outer frame's sp */
  assert_int_equal(kit_guest_frames_depth(), 0);
}

static uint64_t call(KitGuestFn fn, uint64_t a0, uint64_t a1, uint64_t a2) {
  uint64_t a[4] = {a0, a1, a2, 0};
  return kit_guest_call(fn, 0x5000, 0x6000, a);
}

static void test_heap(void **state) {
  (void)state;
  uint64_t p = call(KIT_GFN_MALLOC, 10, 0, 0);
  assert_true(p >= 0x10000000 && p < WINDOW);
  assert_int_equal(kit_san_region_bad(p, 10), 0);
  assert_int_equal(kit_san_region_bad(p, 11), p + 10);
  assert_int_equal(kit_san_region_bad(p - 1, 1), p - 1);
  assert_int_equal(window[p], 0xbe); /* malloc_fill_byte */
  assert_int_equal(call(KIT_GFN_MALLOC_USABLE_SIZE, p, 0, 0), 10);
  call(KIT_GFN_FREE, p, 0, 0);
  assert_int_equal(*kit_san_shadow(p), KIT_SAN_FREED);
  uint64_t c = call(KIT_GFN_CALLOC, 4, 8, 0);
  assert_int_equal(window[c + 31], 0);
  uint64_t r = call(KIT_GFN_REALLOC, c, 100, 0);
  assert_int_equal(kit_san_region_bad(r, 100), 0);
  assert_int_equal(*kit_san_shadow(c), KIT_SAN_FREED);
  uint64_t m = call(KIT_GFN_MEMALIGN, 256, 40, 0);
  assert_int_equal(m & 255, 0);
  call(KIT_GFN_FREE, r, 0, 0);
  call(KIT_GFN_FREE, m, 0, 0);
}

static void test_strings(void **state) {
  (void)state;
  uint64_t s = call(KIT_GFN_MALLOC, 6, 0, 0), d = call(KIT_GFN_MALLOC, 12, 0, 0);
  memcpy(window + s, "hello", 6);
  assert_int_equal(call(KIT_GFN_STRLEN, s, 0, 0), 5);
  assert_int_equal(call(KIT_GFN_STRCPY, d, s, 0), d);
  assert_int_equal(call(KIT_GFN_STRCAT, d, s, 0), d);
  assert_string_equal((char *)window + d, "hellohello");
  assert_int_equal(call(KIT_GFN_STRCHR, d, 'o', 0), d + 4);
  assert_int_equal(call(KIT_GFN_STRRCHR, d, 'o', 0), d + 9);
  assert_int_equal(call(KIT_GFN_STRCMP, d, s, 0) != 0, 1);
  assert_int_equal(call(KIT_GFN_STRNCMP, d, s, 5), 0);
  assert_int_equal(call(KIT_GFN_MEMSET, d, 'x', 12), d);
  assert_int_equal(window[d + 11], 'x');
  uint64_t t = call(KIT_GFN_STRDUP, s, 0, 0);
  assert_string_equal((char *)window + t, "hello");
  assert_int_equal(kit_san_region_bad(t, 7), t + 6);
  assert_int_equal(kit_san_reports, 0);
}

static int first_module(struct dl_phdr_info *info, size_t sz, void *bias) {
  (void)sz;
  *(uintptr_t *)bias = info->dlpi_addr;
  return 1; /* the executable comes first */
}

/* This test program's own ELF file plays a guest module loaded at 0x40000000. */
static void test_symbols(void **state) {
  (void)state;
  char exe[512];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  assert_true(n > 0);
  exe[n] = 0;
  uintptr_t host_bias = 0;
  dl_iterate_phdr(first_module, &host_bias);
  uintptr_t rel = (uintptr_t)test_frames - host_bias, bias = 0x40000000;
  kit_guest_sym_add_module(exe, bias, bias, bias + rel + 0x100000);
  KitSanSymbol s;
  assert_true(kit_san_symbolize(bias + rel + 4, &s));
  assert_string_equal(s.func, "test_frames");
  assert_string_equal(s.module, exe);
  assert_int_equal(s.module_off, rel + 4);
  assert_false(kit_san_symbolize(bias - 1, &s)); /* in no module */
  /* an intercepted function prints under the runtime's name, without a line */
  kit_guest_sym_set_name(bias + rel, "__interceptor_malloc");
  assert_true(kit_san_symbolize(bias + rel, &s));
  assert_string_equal(s.func, "__interceptor_malloc");
  assert_string_equal(s.file, "");
  /* another file mapped over the range replaces the module */
  kit_guest_sym_add_module("/nonexistent/libother.so", bias + 0x10, bias + 0x10, bias + rel + 0x1000);
  assert_true(kit_san_symbolize(bias + rel + 4, &s));
  assert_string_equal(s.module, "/nonexistent/libother.so");
  assert_int_equal(s.module_off, rel + 4 - 0x10);
  assert_string_equal(s.func, "");
  assert_false(kit_san_symbolize(bias + 8, &s)); /* the old module's range is gone */
}

/* A root in guest data points to A, A to C; B (unreachable) points to D: B is
 * a direct leak, D an indirect one; A and C are live. */
static void test_leaks(void **state) {
  (void)state;
  KitGuestRange root = {0x1000, 0x2000};
  int before = kit_guest_lsan_check(&root, 1, NULL, 0); /* what earlier tests left */
  uint64_t a = call(KIT_GFN_MALLOC, 16, 0, 0), b = call(KIT_GFN_MALLOC, 16, 0, 0);
  uint64_t c = call(KIT_GFN_MALLOC, 24, 0, 0), d = call(KIT_GFN_MALLOC, 24, 0, 0);
  memcpy(window + 0x1008, &a, 8);
  memcpy(window + a + 8, &c, 8); /* an interior word of A */
  memcpy(window + b, &d, 8);
  assert_int_equal(kit_guest_lsan_check(&root, 1, NULL, 0), before + 2);
  /* B held in a register: nothing of the four leaks */
  uint64_t regs[2] = {0, b + 3};
  assert_int_equal(kit_guest_lsan_check(&root, 1, regs, 2), before);
  memset(window + 0x1008, 0, 8); /* A and C unreachable too */
  assert_int_equal(kit_guest_lsan_check(&root, 1, NULL, 0), before + 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_frames),
      cmocka_unit_test(test_heap),
      cmocka_unit_test(test_strings),
      cmocka_unit_test(test_symbols),
      cmocka_unit_test(test_leaks),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
