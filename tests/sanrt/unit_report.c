/* unit_report.c — the core's report writer driven the way the emulator will
 * drive it: relocated shadow, a test page provider, and frame source and
 * symbolizer stubs; output captured through the platform's write hook. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "san_core.h"

#define ARENA (8u << 20)
static uint8_t arena[ARENA] __attribute__((aligned(4096)));
static uint8_t shadow_buf[ARENA / 8];
static size_t arena_used;
static char out[1 << 16];
static size_t out_len;

static uintptr_t take(void *ctx, size_t size) {
  (void)ctx;
  size = (size + 4095) & ~4095UL;
  if (arena_used + size > ARENA / 2)
    return 0;
  uintptr_t p = (uintptr_t)arena + arena_used;
  arena_used += size;
  return p;
}
static void give(void *ctx, uintptr_t a, size_t n) {
  (void)ctx;
  (void)a;
  (void)n;
}
static void capture(const char *buf, size_t n) {
  if (out_len + n < sizeof out) {
    memcpy(out + out_len, buf, n);
    out_len += n;
    out[out_len] = 0;
  }
}
static int fake_pid(void) { return 4242; }
static __attribute__((noreturn)) void no_die(int code, bool abort_now) {
  (void)code;
  (void)abort_now;
  fail_msg("a non-fatal report tried to end the process");
  __builtin_unreachable();
}
/* A guest-like call stack: the pc, then two fixed callers. */
static size_t frames(void *ctx, uintptr_t pc, uintptr_t bp, uintptr_t *o, size_t max) {
  (void)ctx;
  (void)bp;
  uintptr_t f[3] = {pc, 0x10200, 0x10300};
  size_t n = max < 3 ? max : 3;
  memcpy(o, f, n * sizeof *o);
  return n;
}
static bool symbolize(void *ctx, uintptr_t pc, KitSanSymbol *s) {
  (void)ctx;
  snprintf(s->func, sizeof s->func, "fn_%lx", (unsigned long)(pc >> 8));
  snprintf(s->file, sizeof s->file, "/src/guest.c");
  s->line = (int)(pc & 0xff);
  s->col = 3;
  snprintf(s->module, sizeof s->module, "/bin/guest");
  s->module_off = pc;
  return true;
}

static int setup(void **state) {
  (void)state;
  kit_san_shadow_base = (uintptr_t)shadow_buf - ((uintptr_t)arena >> 3);
  kit_san_options_defaults(&kit_san_opts);
  kit_san_opts.halt_on_error = false;
  static const KitSanPlatform plat = {capture, fake_pid, no_die, NULL};
  static const KitSanPageProvider prov = {take, give, NULL, 0};
  static const KitSanFrameSource fs = {frames, NULL};
  static const KitSanSymbolizer sym = {symbolize, NULL};
  kit_san_core_init(&plat, &prov, &fs, &sym);
  return 0;
}

static bool has_line(const char *line) {
  for (const char *p = out; (p = strstr(p, line)); p++)
    if ((p == out || p[-1] == '\n') && (p[strlen(line)] == '\n'))
      return true;
  return false;
}

#define ASSERT_LINE(l)                                                         \
  do {                                                                         \
    if (!has_line(l))                                                          \
      fail_msg("missing line: %s\n---- report ----\n%s", l, out);              \
  } while (0)

static void test_heap_use_after_free(void **state) {
  (void)state;
  out_len = 0;
  uintptr_t p = kit_san_alloc(10, 8, kit_san_stack_id(0x10111, 0), false);
  assert_int_equal(kit_san_free(p, kit_san_stack_id(0x10122, 0)), KIT_FREE_OK);
  kit_san_report_access(0x10134, 0, 0, p + 3, 4, true, false);
  ASSERT_LINE("=================================================================");
  char l[256];
  snprintf(l, sizeof l, "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x%012lx "
           "at pc 0x000000010134 bp 0x000000000000 sp 0x000000000000", (unsigned long)(p + 3));
  ASSERT_LINE(l);
  snprintf(l, sizeof l, "WRITE of size 4 at 0x%012lx thread T0", (unsigned long)(p + 3));
  ASSERT_LINE(l);
  ASSERT_LINE("    #0 0x000000010133 in fn_101 /src/guest.c:51:3");
  ASSERT_LINE("    #1 0x000000010200 in fn_102 /src/guest.c:0:3");
  snprintf(l, sizeof l, "0x%012lx is located 3 bytes inside of 10-byte region [0x%012lx,0x%012lx)",
           (unsigned long)(p + 3), (unsigned long)p, (unsigned long)(p + 10));
  ASSERT_LINE(l);
  ASSERT_LINE("freed by thread T0 here:");
  ASSERT_LINE("    #0 0x000000010122 in fn_101 /src/guest.c:34:3");
  ASSERT_LINE("previously allocated by thread T0 here:");
  ASSERT_LINE("    #0 0x000000010111 in fn_101 /src/guest.c:17:3");
  ASSERT_LINE("SUMMARY: AddressSanitizer: heap-use-after-free /src/guest.c:51:3 in fn_101");
  ASSERT_LINE("  Freed heap region:       fd");
  assert_null(strstr(out, "ABORTING"));
}

static void test_stack_frame_description(void **state) {
  (void)state;
  out_len = 0;
  uintptr_t frame = (uintptr_t)arena + ARENA / 2 + 4096;
  uint64_t *w = (uint64_t *)frame;
  w[0] = KIT_SAN_FRAME_MAGIC;
  w[1] = (uintptr_t) "2 32 16 5 buf:5 64 4 3 x:9";
  w[2] = 0x10400;
  __asan_set_shadow_f1(frame, 4);
  __asan_set_shadow_00(frame + 32, 2);
  __asan_set_shadow_f2(frame + 48, 2);
  *kit_san_shadow(frame + 64) = 4;
  __asan_set_shadow_f3(frame + 72, 3);
  kit_san_report_access(0x10456, 0, 0, frame + 50, 1, false, false);
  ASSERT_LINE("  This frame has 2 object(s):");
  char l[256];
  snprintf(l, sizeof l, "Address 0x%012lx is located in stack of thread T0 at offset 50 in frame",
           (unsigned long)(frame + 50));
  ASSERT_LINE(l);
  ASSERT_LINE("    #0 0x000000010400 in fn_104 /src/guest.c:0");
  ASSERT_LINE("    [32, 48) 'buf' (line 5) <== Memory access at offset 50 overflows this variable");
  ASSERT_LINE("    [64, 68) 'x' (line 9) <== Memory access at offset 50 underflows this variable");
  assert_non_null(strstr(out, "ERROR: AddressSanitizer: stack-buffer-overflow on address"));
  ASSERT_LINE("SUMMARY: AddressSanitizer: stack-buffer-overflow /src/guest.c:85:3 in fn_104");
}

static void test_global_description(void **state) {
  (void)state;
  out_len = 0;
  uintptr_t g = (uintptr_t)arena + ARENA / 2 + 65536;
  static KitSanSourceLocation loc = {"/src/guest.c", 3, 5};
  KitSanGlobal desc = {g, 40, 64, "table", "/src/guest.c", 0, &loc, 0};
  kit_san_globals_register(&desc, 1);
  assert_int_equal(*kit_san_shadow(g + 40), KIT_SAN_GLOBAL_RZ);
  kit_san_report_access(0x10501, 0, 0, g + 44, 4, false, false);
  char l[256];
  snprintf(l, sizeof l, "0x%012lx is located 4 bytes after global variable 'table' defined in "
           "'/src/guest.c:3' (0x%012lx) of size 40", (unsigned long)(g + 44), (unsigned long)g);
  ASSERT_LINE(l);
  assert_non_null(strstr(out, "global-buffer-overflow"));
  kit_san_globals_unregister(&desc, 1);
  assert_int_equal(*kit_san_shadow(g + 40), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_heap_use_after_free),
      cmocka_unit_test(test_stack_frame_description),
      cmocka_unit_test(test_global_description),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
