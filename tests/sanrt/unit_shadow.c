/* unit_shadow.c — cmocka tests for shadow poisoning with a relocated shadow
 * base (as the emulator will use): partial granules, user poisoning rules,
 * region checks; and the allocator over a test page provider. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "san_core.h"

#define ARENA (16u << 20)
static uint8_t arena[ARENA] __attribute__((aligned(4096)));
static uint8_t shadow_buf[ARENA / 8];
static size_t arena_used;

static uintptr_t take(void *ctx, size_t size) {
  (void)ctx;
  size = (size + 4095) & ~4095UL;
  if (arena_used + size > ARENA)
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

static int setup(void **state) {
  (void)state;
  kit_san_shadow_base = (uintptr_t)shadow_buf - ((uintptr_t)arena >> 3);
  kit_san_options_defaults(&kit_san_opts);
  static const KitSanPageProvider prov = {take, give, NULL, 0};
  kit_san_alloc_init(&prov);
  return 0;
}

static uintptr_t A(size_t off) { return (uintptr_t)arena + ARENA - 4096 + off; }

static void test_shadow_mapping(void **state) {
  (void)state;
  assert_ptr_equal(kit_san_shadow(A(0)), &shadow_buf[(ARENA - 4096) / 8]);
  assert_ptr_equal(kit_san_shadow(A(15)), kit_san_shadow(A(8)));
}

static void test_unpoison_partial(void **state) {
  (void)state;
  kit_san_shadow_set(A(0), 64, 0xfa);
  kit_san_shadow_unpoison(A(0), 13);
  assert_int_equal(*kit_san_shadow(A(0)), 0);
  assert_int_equal(*kit_san_shadow(A(8)), 5);
  assert_int_equal(*kit_san_shadow(A(16)), 0xfa);
  assert_false(kit_san_addr_bad(A(12)));
  assert_true(kit_san_addr_bad(A(13)));
  assert_int_equal(kit_san_region_bad(A(0), 13), 0);
  assert_int_equal(kit_san_region_bad(A(0), 14), A(13));
  assert_int_equal(kit_san_region_bad(A(3), 40), A(13));
}

static void test_user_poison_rules(void **state) {
  (void)state;
  kit_san_shadow_set(A(0), 64, 0);
  /* Poisoning the tail of a granule keeps its head addressable. */
  kit_san_shadow_poison_user(A(5), 20, 0xf7);
  assert_int_equal(*kit_san_shadow(A(0)), 5);
  assert_int_equal(*kit_san_shadow(A(8)), 0xf7);
  assert_int_equal(*kit_san_shadow(A(16)), 0xf7);
  assert_int_equal(*kit_san_shadow(A(24)), 0); /* head of granule 3 stays */
  /* Poisoning only the head of a granule cannot be expressed: nothing changes. */
  kit_san_shadow_poison_user(A(32), 3, 0xf7);
  assert_int_equal(*kit_san_shadow(A(32)), 0);
  kit_san_shadow_unpoison_user(A(0), 19);
  assert_int_equal(*kit_san_shadow(A(0)), 0);
  assert_int_equal(*kit_san_shadow(A(8)), 0);
  assert_int_equal(*kit_san_shadow(A(16)), 3);
  assert_true(kit_san_addr_bad(A(19)));
  __asan_poison_memory_region((void *)A(40), 8);
  assert_true(__asan_address_is_poisoned((void *)A(44)));
  assert_ptr_equal(__asan_region_is_poisoned((void *)A(32), 16), (void *)A(40));
  __asan_unpoison_memory_region((void *)A(40), 8);
  assert_null(__asan_region_is_poisoned((void *)A(32), 16));
}

static void test_allocator(void **state) {
  (void)state;
  uintptr_t p = kit_san_alloc(10, 8, 7, false);
  assert_true(p);
  assert_int_equal(p & 15, 0);
  assert_int_equal(kit_san_region_bad(p, 10), 0);
  assert_int_equal(kit_san_region_bad(p, 11), p + 10);
  assert_int_equal(*kit_san_shadow(p - 8), KIT_SAN_HEAP_LEFT_RZ);
  assert_int_equal(((uint8_t *)p)[9], 0xbe); /* malloc_fill_byte */
  KitSanChunkInfo c;
  assert_true(kit_san_chunk_find(p + 12, &c));
  assert_int_equal(c.user_beg, p);
  assert_int_equal(c.size, 10);
  assert_int_equal(c.alloc_stack, 7);
  assert_int_equal(kit_san_free(p + 1, 8), KIT_FREE_BAD);
  size_t qb = kit_san_alloc_quarantine_bytes();
  assert_int_equal(kit_san_free(p, 9), KIT_FREE_OK);
  assert_true(kit_san_alloc_quarantine_bytes() > qb);
  assert_int_equal(*kit_san_shadow(p), KIT_SAN_FREED);
  assert_int_equal(kit_san_free(p, 9), KIT_FREE_DOUBLE);
  assert_true(kit_san_chunk_find(p, &c));
  assert_int_equal(c.state, KIT_CHUNK_QUARANTINED);
  assert_int_equal(c.free_stack, 9);

  uintptr_t z0 = kit_san_alloc(0, 8, 1, false);
  assert_int_equal(kit_san_alloc_usable_size(z0), 1);
  assert_false(kit_san_addr_bad(z0));
  assert_true(kit_san_addr_bad(z0 + 1));
  uintptr_t z = kit_san_alloc(100, 8, 1, true);
  for (int i = 0; i < 100; i++)
    assert_int_equal(((uint8_t *)z)[i], 0);
  uintptr_t al = kit_san_alloc(24, 256, 1, false);
  assert_int_equal(al & 255, 0);
  assert_true(kit_san_chunk_find(al - 3, &c));
  assert_int_equal(c.user_beg, al);
  assert_int_equal(kit_san_alloc_usable_size(al), 24);
  assert_int_equal(kit_san_free(al, 1), KIT_FREE_OK);
}

static void test_quarantine_reuse(void **state) {
  (void)state;
  kit_san_opts.quarantine_size_mb = 0;
  uintptr_t p = kit_san_alloc(40, 8, 1, false);
  assert_int_equal(kit_san_free(p, 2), KIT_FREE_OK);
  uintptr_t q = kit_san_alloc(40, 8, 1, false);
  assert_int_equal(p, q); /* no quarantine: the block comes straight back */
  kit_san_opts.quarantine_size_mb = 256;
  assert_int_equal(kit_san_free(q, 2), KIT_FREE_OK);
  uintptr_t r = kit_san_alloc(40, 8, 1, false);
  assert_int_not_equal(r, q);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shadow_mapping),   cmocka_unit_test(test_unpoison_partial),
      cmocka_unit_test(test_user_poison_rules), cmocka_unit_test(test_allocator),
      cmocka_unit_test(test_quarantine_reuse),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
