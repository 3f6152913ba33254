/* unit_quarantine.c — cmocka tests for the byte-bounded FIFO quarantine:
 * eviction order, byte accounting, oversize and zero-budget items, growth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "san_core.h"

static uintptr_t evicted[4096];
static size_t nevicted;
static void ev(uintptr_t item, void *ctx) {
  (void)ctx;
  evicted[nevicted++] = item;
}

static void test_fifo_budget(void **state) {
  (void)state;
  KitSanQuarantine q;
  kit_san_quarantine_init(&q, 100);
  nevicted = 0;
  kit_san_quarantine_push(&q, 1, 40, ev, NULL);
  kit_san_quarantine_push(&q, 2, 40, ev, NULL);
  assert_int_equal(q.bytes, 80);
  assert_int_equal(nevicted, 0);
  kit_san_quarantine_push(&q, 3, 40, ev, NULL); /* 120 > 100: oldest goes */
  assert_int_equal(nevicted, 1);
  assert_int_equal(evicted[0], 1);
  assert_int_equal(q.bytes, 80);
  kit_san_quarantine_push(&q, 4, 90, ev, NULL); /* 170: 2 and 3 go */
  assert_int_equal(nevicted, 3);
  assert_int_equal(evicted[1], 2);
  assert_int_equal(evicted[2], 3);
  assert_int_equal(q.bytes, 90);
  assert_int_equal(q.len, 1);
}

static void test_oversize_and_zero(void **state) {
  (void)state;
  KitSanQuarantine q;
  kit_san_quarantine_init(&q, 10);
  nevicted = 0;
  kit_san_quarantine_push(&q, 7, 11, ev, NULL);
  assert_int_equal(nevicted, 1);
  assert_int_equal(q.bytes, 0);
  kit_san_quarantine_init(&q, 0);
  kit_san_quarantine_push(&q, 8, 1, ev, NULL);
  assert_int_equal(nevicted, 2);
  assert_int_equal(evicted[1], 8);
}

static void test_growth_and_drain(void **state) {
  (void)state;
  KitSanQuarantine q;
  kit_san_quarantine_init(&q, 1 << 30);
  nevicted = 0;
  for (uintptr_t i = 1; i <= 3000; i++)
    kit_san_quarantine_push(&q, i, 16, ev, NULL);
  assert_int_equal(q.len, 3000);
  assert_int_equal(q.bytes, 3000 * 16);
  assert_int_equal(nevicted, 0);
  kit_san_quarantine_drain(&q, ev, NULL);
  assert_int_equal(nevicted, 3000);
  assert_int_equal(q.bytes, 0);
  for (size_t i = 0; i < 3000; i++)
    assert_int_equal(evicted[i], i + 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fifo_budget),
      cmocka_unit_test(test_oversize_and_zero),
      cmocka_unit_test(test_growth_and_drain),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
