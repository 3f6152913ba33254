/* unit_options.c — cmocka tests for ASAN_OPTIONS parsing: defaults, every
 * separator, quoting, value kinds and unknown-flag reporting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "san_core.h"

static int unknown_count;
static char last_unknown[64];
static void warn(const char *name, const char *tool) {
  (void)tool;
  unknown_count++;
  snprintf(last_unknown, sizeof last_unknown, "%s", name);
}

static void test_defaults(void **state) {
  (void)state;
  KitSanOptions o;
  kit_san_options_defaults(&o);
  assert_true(o.halt_on_error);
  assert_true(o.detect_leaks);
  assert_int_equal(o.exitcode, 1);
  assert_int_equal(o.quarantine_size_mb, 256);
  assert_int_equal(o.redzone, 16);
  assert_int_equal(o.max_redzone, 2048);
  assert_int_equal(o.malloc_fill_byte, 0xbe);
  assert_int_equal(o.max_malloc_fill_size, 0x1000);
  assert_true(o.handle_segv);
  assert_true(o.detect_stack_use_after_return); /* clang-16 on Linux */
  assert_string_equal(o.log_path, "");
}

static void test_separators(void **state) {
  (void)state;
  KitSanOptions o;
  kit_san_options_defaults(&o);
  unknown_count = 0;
  kit_san_options_parse(&o, "halt_on_error=0:exitcode=42,detect_leaks=false quarantine_size_mb=7\t"
                            "redzone=64\nlog_path=/tmp/x:malloc_fill_byte=0x11",
                        warn, "AddressSanitizer");
  assert_false(o.halt_on_error);
  assert_int_equal(o.exitcode, 42);
  assert_false(o.detect_leaks);
  assert_int_equal(o.quarantine_size_mb, 7);
  assert_int_equal(o.redzone, 64);
  assert_string_equal(o.log_path, "/tmp/x");
  assert_int_equal(o.malloc_fill_byte, 0x11);
  assert_int_equal(unknown_count, 0);
}

static void test_quotes_and_strings(void **state) {
  (void)state;
  KitSanOptions o;
  kit_san_options_defaults(&o);
  kit_san_options_parse(&o, "strip_path_prefix='/a b/':coverage=1:coverage_dir=\"/cov\"", warn,
                        "AddressSanitizer");
  assert_string_equal(o.strip_path_prefix, "/a b/");
  assert_true(o.coverage);
  assert_string_equal(o.coverage_dir, "/cov");
}

static void test_unknown(void **state) {
  (void)state;
  KitSanOptions o;
  kit_san_options_defaults(&o);
  unknown_count = 0;
  kit_san_options_parse(&o, "bogus_flag=1::exitcode=3", warn, "AddressSanitizer");
  assert_int_equal(unknown_count, 1);
  assert_string_equal(last_unknown, "bogus_flag");
  assert_int_equal(o.exitcode, 3);
  kit_san_options_parse(&o, NULL, warn, "AddressSanitizer");
  kit_san_options_parse(&o, "", warn, "AddressSanitizer");
  assert_int_equal(unknown_count, 1);
}

static void test_later_wins(void **state) {
  (void)state;
  KitSanOptions o;
  kit_san_options_defaults(&o);
  kit_san_options_parse(&o, "exitcode=5", NULL, "AddressSanitizer");
  kit_san_options_parse(&o, "exitcode=9:verbosity=2", NULL, "AddressSanitizer");
  assert_int_equal(o.exitcode, 9);
  assert_int_equal(o.verbosity, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),   cmocka_unit_test(test_separators),
      cmocka_unit_test(test_quotes_and_strings), cmocka_unit_test(test_unknown),
      cmocka_unit_test(test_later_wins),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
