/* tests/emu/test_aspace.c — unit tests of the guest address space: region
 * splitting and merging, placement, brk, mremap, checked copies, shadow planes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../emu/aspace.h"
#include "kit/emu.h"

#define RW (KIT_EMU_PROT_READ | KIT_EMU_PROT_WRITE)
#define R KIT_EMU_PROT_READ
#define PG KIT_EMU_PAGE

static int nmap, nunmap, nprot;
static void ev(void *u, int kind, uint64_t va, uint64_t len, uint8_t prot) {
  (void)u, (void)va, (void)len, (void)prot;
  if (kind == KIT_EMU_EV_MAP) nmap++;
  if (kind == KIT_EMU_EV_UNMAP) nunmap++;
  if (kind == KIT_EMU_EV_PROTECT) nprot++;
}

static int setup(void **st) {
  static KitEmuAspace as;
  if (kit_aspace_init(&as, KIT_EMU_WINDOW) < 0) return -1;
  as.event = ev;
  nmap = nunmap = nprot = 0;
  *st = &as;
  return 0;
}
static int teardown(void **st) {
  kit_aspace_destroy(*st);
  return 0;
}

static void test_split_merge(void **st) {
  KitEmuAspace *as = *st;
  assert_int_equal(kit_aspace_map(as, 0x10000, 4 * PG, RW, KIT_EMU_MAP_FIXED, -1, 0), 0x10000);
  assert_int_equal(as->nregs, 1);
  memset(kit_aspace_host(as, 0x10000), 0xab, 4 * PG); /* writable on the host */
  assert_int_equal(kit_aspace_protect(as, 0x11000, PG, R), 0);
  assert_int_equal(as->nregs, 3);
  assert_int_equal(as->regs[1].start, 0x11000);
  assert_int_equal(as->regs[1].end, 0x12000);
  assert_int_equal(as->regs[1].prot, R);
  assert_true(kit_aspace_check(as, 0x10000, 4 * PG, R));
  assert_false(kit_aspace_check(as, 0x10000, 4 * PG, RW));
  assert_int_equal(kit_aspace_protect(as, 0x11000, PG, RW), 0);
  assert_int_equal(as->nregs, 1); /* merged back */
  assert_int_equal(kit_aspace_unmap(as, 0x11000, 2 * PG), 0);
  assert_int_equal(as->nregs, 2);
  assert_int_equal(as->regs[0].end, 0x11000);
  assert_int_equal(as->regs[1].start, 0x13000);
  assert_false(kit_aspace_check(as, 0x10000, 2 * PG, R));
  /* a mapping into the hole merges all three */
  assert_int_equal(kit_aspace_map(as, 0x11000, 2 * PG, RW, KIT_EMU_MAP_FIXED, -1, 0), 0x11000);
  assert_int_equal(as->nregs, 1);
  /* fresh anonymous memory is zero; the kept part kept its bytes */
  assert_int_equal(*(uint8_t *)kit_aspace_host(as, 0x11000), 0);
  assert_int_equal(*(uint8_t *)kit_aspace_host(as, 0x13000), 0xab);
  assert_int_equal(kit_aspace_protect(as, 0x40000, PG, R), -ENOMEM);
  assert_true(nmap >= 2 && nunmap >= 1 && nprot == 2);
}

static void test_noreplace_and_placement(void **st) {
  KitEmuAspace *as = *st;
  assert_int_equal(kit_aspace_map(as, 0x10000, PG, RW, KIT_EMU_MAP_FIXED, -1, 0), 0x10000);
  assert_int_equal(kit_aspace_map(as, 0x10000, PG, RW, KIT_EMU_MAP_NOREPLACE, -1, 0), -EEXIST);
  assert_int_equal(kit_aspace_map(as, 0x10001, PG, RW, KIT_EMU_MAP_FIXED, -1, 0), -EINVAL);
  int64_t a = kit_aspace_map(as, 0, 3 * PG, RW, 0, -1, 0);
  int64_t b = kit_aspace_map(as, 0, PG, RW, 0, -1, 0);
  assert_true(a > 0 && b > 0);
  assert_int_equal(a + 3 * PG, as->mmap_top); /* top-down */
  assert_int_equal(b + PG, a);
  /* a free hint is honoured */
  assert_int_equal(kit_aspace_map(as, 0x200000, PG, RW, 0, -1, 0), 0x200000);
  /* a taken hint is not */
  assert_int_not_equal(kit_aspace_map(as, 0x200000, PG, RW, 0, -1, 0), 0x200000);
  assert_int_equal(kit_aspace_map(as, KIT_EMU_WINDOW - PG, 2 * PG, RW, KIT_EMU_MAP_FIXED, -1, 0), -ENOMEM);
  /* odd lengths still give page-aligned placements (the loader asks for such) */
  uint64_t f = kit_aspace_find_free(as, 0x3058, 0);
  assert_true(f > 0 && f % PG == 0);
  assert_true(f + 0x4000 <= (uint64_t)b);
  assert_int_equal(kit_aspace_find_free(as, 0x3058, 0x2aaaaab001), f); /* unaligned hint ignored */
  assert_int_equal(kit_aspace_find_free(as, 0x3058, 0x2aaaaab000), 0x2aaaaab000);
}

static void test_brk(void **st) {
  KitEmuAspace *as = *st;
  kit_aspace_set_brk(as, 0x100000);
  assert_int_equal(kit_aspace_brk(as, 0), 0x100000);
  assert_int_equal(kit_aspace_brk(as, 0x100010), 0x100010);
  assert_true(kit_aspace_check(as, 0x100000, PG, RW));
  assert_int_equal(kit_aspace_brk(as, 0x105000), 0x105000);
  assert_true(kit_aspace_check(as, 0x100000, 5 * PG, RW));
  assert_int_equal(as->nregs, 1);
  *(char *)kit_aspace_host(as, 0x104000) = 7;
  assert_int_equal(kit_aspace_brk(as, 0x102000), 0x102000);
  assert_false(kit_aspace_check(as, 0x102000, 1, R));
  assert_int_equal(kit_aspace_brk(as, 0x105000), 0x105000);
  assert_int_equal(*(char *)kit_aspace_host(as, 0x104000), 0); /* re-grown brk is zero */
  assert_int_equal(kit_aspace_brk(as, 0x1000), 0x105000);     /* below start: unchanged */
  /* something mapped in the way stops the break */
  assert_int_equal(kit_aspace_map(as, 0x107000, PG, R, KIT_EMU_MAP_FIXED, -1, 0), 0x107000);
  assert_int_equal(kit_aspace_brk(as, 0x109000), 0x105000);
}

static void test_mremap(void **st) {
  KitEmuAspace *as = *st;
  int64_t a = kit_aspace_map(as, 0x300000, 2 * PG, RW, KIT_EMU_MAP_FIXED, -1, 0);
  assert_int_equal(a, 0x300000);
  strcpy(kit_aspace_host(as, 0x300000), "keep");
  /* grow in place */
  assert_int_equal(kit_aspace_remap(as, 0x300000, 2 * PG, 4 * PG, 0, 0), 0x300000);
  assert_true(kit_aspace_check(as, 0x300000, 4 * PG, RW));
  /* blocked: no MAYMOVE -> ENOMEM; MAYMOVE -> moves, keeps contents */
  assert_int_equal(kit_aspace_map(as, 0x304000, PG, R, KIT_EMU_MAP_FIXED, -1, 0), 0x304000);
  assert_int_equal(kit_aspace_remap(as, 0x300000, 4 * PG, 8 * PG, 0, 0), -ENOMEM);
  int64_t m = kit_aspace_remap(as, 0x300000, 4 * PG, 8 * PG, 1, 0);
  assert_true(m > 0 && m != 0x300000);
  assert_string_equal(kit_aspace_host(as, (uint64_t)m), "keep");
  assert_false(kit_aspace_check(as, 0x300000, 1, R));
  assert_true(kit_aspace_check(as, (uint64_t)m, 8 * PG, RW));
  /* shrink */
  assert_int_equal(kit_aspace_remap(as, (uint64_t)m, 8 * PG, PG, 0, 0), m);
  assert_false(kit_aspace_check(as, (uint64_t)m + PG, 1, R));
  /* fixed move */
  assert_int_equal(kit_aspace_remap(as, (uint64_t)m, PG, PG, 3, 0x500000), 0x500000);
  assert_string_equal(kit_aspace_host(as, 0x500000), "keep");
  assert_int_equal(kit_aspace_remap(as, 0x900000, PG, PG, 0, 0), -EFAULT);
}

static void test_checked_copies(void **st) {
  KitEmuAspace *as = *st;
  char buf[16];
  kit_aspace_map(as, 0x10000, PG, R, KIT_EMU_MAP_FIXED, -1, 0);
  kit_aspace_map(as, 0x11000, PG, RW, KIT_EMU_MAP_FIXED, -1, 0);
  assert_int_equal(kit_aspace_write(as, 0x10ff0, "x", 1), -EFAULT); /* read-only */
  assert_int_equal(kit_aspace_write(as, 0x11ff8, "0123456789", 10), -EFAULT); /* runs off the end */
  assert_int_equal(kit_aspace_write(as, 0x11000, "hello", 6), 0);
  assert_int_equal(kit_aspace_read(as, 0x11000, buf, 6), 0);
  assert_string_equal(buf, "hello");
  assert_int_equal(kit_aspace_strncpy(as, 0x11000, buf, sizeof buf), 5);
  assert_int_equal(kit_aspace_read(as, 0x12000, buf, 1), -EFAULT);
  assert_int_equal(kit_aspace_read(as, KIT_EMU_WINDOW + 5, buf, 1), -EFAULT);
  assert_int_equal(kit_aspace_read(as, UINT64_MAX - 2, buf, 4), -EFAULT);
  /* code marks: host page read-only, a checked write unmarks and invalidates */
  kit_aspace_mark_code(as, 0x11004);
  assert_true(kit_aspace_is_code(as, 0x11000));
  assert_int_equal(kit_aspace_write(as, 0x11000, "j", 1), 0);
  assert_false(kit_aspace_is_code(as, 0x11000));
}

static void test_planes(void **st) {
  KitEmuAspace *as = *st;
  kit_aspace_map(as, 0x10000, 2 * PG, RW, KIT_EMU_MAP_FIXED, -1, 0);
  int p8 = kit_aspace_plane_add(as, "v", 8), p1 = kit_aspace_plane_add(as, "a", 1);
  assert_true(p8 >= 0 && p1 >= 0);
  assert_int_equal(kit_aspace_plane_add(as, "bad", 3), -1);
  uint8_t *s = kit_aspace_plane_ptr(as, (unsigned)p8, 0x10000);
  s[0] = 1, s[2 * PG - 1] = 2; /* the plane covers the existing mapping */
  uint8_t *s1 = kit_aspace_plane_ptr(as, (unsigned)p1, 0x10000);
  s1[0] = 0xff;
  kit_aspace_unmap(as, 0x10000, 2 * PG);
  kit_aspace_map(as, 0x10000, 2 * PG, RW, KIT_EMU_MAP_FIXED, -1, 0);
  assert_int_equal(s[0], 0); /* dropped and re-zeroed with the mapping */
  assert_int_equal(s[2 * PG - 1], 0);
  assert_int_equal(s1[0], 0);
  /* a new mapping elsewhere has zeroed shadow in both planes */
  int64_t a = kit_aspace_map(as, 0, 64 * PG, RW, 0, -1, 0);
  assert_true(a > 0);
  uint8_t *t = kit_aspace_plane_ptr(as, (unsigned)p8, (uint64_t)a);
  for (int i = 0; i < 64 * (int)PG; i += 511) assert_int_equal(t[i], 0);
  t[5] = 9;
  int64_t m = kit_aspace_remap(as, (uint64_t)a, 64 * PG, 128 * PG, 1, 0);
  assert_true(m > 0);
  if (m != a) assert_int_equal(*kit_aspace_plane_ptr(as, (unsigned)p8, (uint64_t)m + 5), 9); /* moved with the data */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_split_merge, setup, teardown),
      cmocka_unit_test_setup_teardown(test_noreplace_and_placement, setup, teardown),
      cmocka_unit_test_setup_teardown(test_brk, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mremap, setup, teardown),
      cmocka_unit_test_setup_teardown(test_checked_copies, setup, teardown),
      cmocka_unit_test_setup_teardown(test_planes, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
