/* unit_depot.c — cmocka tests for the stack depot: deduplication, distinct
 * ids, round trip of frames, the empty trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "san_core.h"

static void test_dedup(void **state) {
  (void)state;
  uintptr_t a[3] = {0x1000, 0x2000, 0x3000};
  uintptr_t b[3] = {0x1000, 0x2000, 0x3001};
  uint32_t ia = kit_san_depot_put(a, 3);
  uint32_t ia2 = kit_san_depot_put(a, 3);
  uint32_t ib = kit_san_depot_put(b, 3);
  uint32_t ic = kit_san_depot_put(a, 2);
  assert_int_not_equal(ia, 0);
  assert_int_equal(ia, ia2);
  assert_int_not_equal(ia, ib);
  assert_int_not_equal(ia, ic);
  const uintptr_t *f;
  assert_int_equal(kit_san_depot_get(ib, &f), 3);
  assert_int_equal(f[2], 0x3001);
  assert_int_equal(kit_san_depot_get(ic, &f), 2);
  assert_int_equal(f[1], 0x2000);
}

static void test_empty_and_bad(void **state) {
  (void)state;
  const uintptr_t *f;
  assert_int_equal(kit_san_depot_put(NULL, 0), 0);
  assert_int_equal(kit_san_depot_get(0, &f), 0);
  assert_null(f);
  assert_int_equal(kit_san_depot_get(0xffffff, &f), 0);
}

static void test_many(void **state) {
  (void)state;
  size_t before = kit_san_depot_count();
  for (uintptr_t i = 0; i < 20000; i++) {
    uintptr_t t[2] = {i, i * 7};
    uint32_t id = kit_san_depot_put(t, 2);
    const uintptr_t *f;
    assert_int_equal(kit_san_depot_get(id, &f), 2);
    assert_int_equal(f[0], i);
  }
  assert_int_equal(kit_san_depot_count(), before + 20000);
  uintptr_t t[2] = {123, 123 * 7};
  kit_san_depot_put(t, 2);
  assert_int_equal(kit_san_depot_count(), before + 20000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dedup),
      cmocka_unit_test(test_empty_and_bad),
      cmocka_unit_test(test_many),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
