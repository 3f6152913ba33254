/* tests/interp/test_interp_text.c — interpreter cases written in CG's
 * textual form (docs/cg-text.md): parsed, verified, run: calli to a host
 * pointer, a trap inside a callback made by host code, phi swaps, a select
 * loop, an i128 switch, setjmp/longjmp across interpreted frames. */
#include "helpers.h"

static const char module_text[] =
    "module \"t\"\n"
    "declare @labs(i64) -> i64\n"
    "declare @qsort(ptr, i64, i64, ptr) -> void\n"
    "func @swap(i64) -> i64 {\n"
    "b0:\n"
    "  %2 = const i64 0\n"
    "  %3 = const i64 1\n"
    "  %4 = const i64 2\n"
    "  br b1\n"
    "b1:\n"
    "  %5 = phi i64 [%2, b0], [%8, b1]\n"
    "  %6 = phi i64 [%3, b0], [%7, b1]\n"
    "  %7 = phi i64 [%4, b0], [%6, b1]\n"
    "  %8 = add i64 %5, %3\n"
    "  %9 = icmp ult i64 %8, %1\n"
    "  condbr %9, b1, b2\n"
    "b2:\n"
    "  %10 = const i64 10\n"
    "  %11 = mul i64 %6, %10\n"
    "  %12 = add i64 %11, %7\n"
    "  ret %12\n"
    "}\n"
    "func @habs(i64) -> i64 {\n"
    "b0:\n"
    "  %2 = symaddr @labs\n"
    "  %3 = calli i64 %2(%1)\n"
    "  ret %3\n"
    "}\n"
    "func @badcmp(ptr, ptr) -> i32 {\n"
    "b0:\n"
    "  trap !loc \"cmp.c\" 7:3\n"
    "}\n"
    "func @sortbad(ptr) -> i32 {\n"
    "b0:\n"
    "  %2 = const i64 4\n"
    "  %3 = symaddr @badcmp\n"
    "  call void @qsort(%1, %2, %2, %3)\n"
    "  %4 = const i32 0\n"
    "  ret %4\n"
    "}\n"
    "func @clampsum(i32) -> i32 {\n"
    "b0:\n"
    "  %2 = const i32 0\n"
    "  %3 = const i32 1\n"
    "  %4 = const i32 5\n"
    "  br b1\n"
    "b1:\n"
    "  %5 = phi i32 [%2, b0], [%9, b1]\n"
    "  %6 = phi i32 [%2, b0], [%10, b1]\n"
    "  %7 = icmp sgt i32 %5, %4\n"
    "  %8 = select i32 %7, %4, %5\n"
    "  %9 = add i32 %5, %3\n"
    "  %10 = add i32 %6, %8\n"
    "  %11 = icmp slt i32 %9, %1\n"
    "  condbr %11, b1, b2\n"
    "b2:\n"
    "  ret %10\n"
    "}\n"
    "declare @_setjmp(ptr) -> i32 returns_twice\n"
    "declare @longjmp(ptr, i32) -> void noreturn\n"
    "func @deep(ptr, i32) -> void {\n"
    "b0:\n"
    "  %3 = const i32 0\n"
    "  %4 = icmp eq i32 %2, %3\n"
    "  condbr %4, b1, b2\n"
    "b1:\n"
    "  %5 = const i32 42\n"
    "  call void @longjmp(%1, %5)\n"
    "  unreachable\n"
    "b2:\n"
    "  %6 = const i32 1\n"
    "  %7 = sub i32 %2, %6\n"
    "  call void @deep(%1, %7)\n"
    "  ret\n"
    "}\n"
    "func @sj(i32) -> i32 {\n"
    "  stack $0 size 200 align 16\n"
    "b0:\n"
    "  %2 = stackaddr $0\n"
    "  %3 = call i32 @_setjmp(%2)\n"
    "  %4 = const i32 0\n"
    "  %5 = icmp eq i32 %3, %4\n"
    "  condbr %5, b1, b2\n"
    "b1:\n"
    "  call void @deep(%2, %1)\n"
    "  %6 = const i32 -1\n"
    "  ret %6\n"
    "b2:\n"
    "  ret %3\n"
    "}\n"
    "func @cpu(ptr) -> i64 {\n"
    "b0:\n"
    "  %2 = const i64 8\n"
    "  %3 = ptradd %1, %2\n"
    "  %4 = load i64 %3\n"
    "  %5 = const i64 -4\n"
    "  %6 = ptradd %3, %5\n"
    "  %7 = add i64 %4, %2\n"
    "  %10 = trunc i32 %7\n"
    "  %8 = ptradd %1, %2\n"
    "  store i32 %10, %8\n"
    "  %9 = trunc i32 %4\n"
    "  store i32 %9, %6\n"
    "  ret %7\n"
    "}\n"
    "global @ibtab size 24 align 8 reloc 0 @ibr 0 8 b1 reloc 8 @ibr 0 8 b2 reloc 16 @ibr 0 8 b3\n"
    "func @ibr(i64) -> i32 {\n"
    "b0:\n"
    "  %2 = symaddr @ibtab\n"
    "  %3 = const i64 3\n"
    "  %4 = urem i64 %1, %3\n"
    "  %5 = const i64 8\n"
    "  %6 = mul i64 %4, %5\n"
    "  %7 = ptradd %2, %6\n"
    "  %8 = load ptr %7\n"
    "  %9 = icmp ult i64 %1, %3\n"
    "  %10 = inttoptr ptr %1\n"
    "  %11 = select ptr %9, %8, %10\n"
    "  indirectbr %11 [b1, b2]\n"
    "b1:\n"
    "  %12 = const i32 10\n"
    "  ret %12\n"
    "b2:\n"
    "  %13 = blockaddr b1\n"
    "  %14 = blockaddr b2\n"
    "  %15 = ptrtoint i32 %14\n"
    "  %16 = ptrtoint i32 %13\n"
    "  %17 = sub i32 %15, %16\n"
    "  %18 = const i32 20\n"
    "  %23 = const i32 10\n"
    "  %19 = icmp ne i32 %17, %23\n"
    "  %20 = zext i32 %19\n"
    "  %21 = add i32 %18, %20\n"
    "  ret %21\n"
    "b3:\n"
    "  %22 = const i32 30\n"
    "  ret %22\n"
    "}\n"
    "func @sw128(i128) -> i32 {\n"
    "b0:\n"
    "  switch i128 %1, b3 [5: b1, -1: b2]\n"
    "b1:\n"
    "  %2 = const i32 1\n"
    "  ret %2\n"
    "b2:\n"
    "  %3 = const i32 2\n"
    "  ret %3\n"
    "b3:\n"
    "  %4 = const i32 0\n"
    "  ret %4\n"
    "}\n";

static KitCgModule *M;
static KitInterp *IP;

static int setup(void **st) {
  (void)st;
  M = kit_cg_parse(module_text, sizeof module_text - 1, "t.cg", stderr);
  if (!M || kit_cg_verify(M, stderr)) return -1;
  IP = kit_interp_new(M, NULL, NULL, errstream());
  return IP ? 0 : -1;
}

static int teardown(void **st) {
  (void)st;
  kit_interp_free(IP);
  kit_cg_module_free(M);
  return 0;
}

static KitCgFunc *fn(const char *name) { return kit_cg_func_of(M, kit_cg_sym_find(M, name)); }

static void test_text_phi_swap(void **st) {
  (void)st;
  uint64_t want[] = {12, 21, 12, 21};
  for (int n = 1; n <= 4; n++) {
    KitCgScalar a = I((uint64_t)n), r[2];
    assert_int_equal(kit_interp_call(IP, fn("swap"), &a, 1, r), 0);
    assert_int_equal(r[0].i, want[n - 1]);
  }
}

static void test_text_calli_host(void **st) {
  (void)st;
  KitCgScalar a = I((uint64_t)-12345), r[2];
  assert_int_equal(kit_interp_call(IP, fn("habs"), &a, 1, r), 0);
  assert_int_equal(r[0].i, 12345);
}

static void test_text_trap_in_callback(void **st) {
  (void)st;
  int arr[4] = {3, 1, 2, 0};
  KitCgScalar a = I((uintptr_t)arr), r[2];
  errstream();
  kit_interp_free(IP);
  IP = kit_interp_new(M, NULL, NULL, errf);
  assert_int_not_equal(kit_interp_call(IP, fn("sortbad"), &a, 1, r), 0);
  assert_non_null(strstr(errbuf, "@badcmp at cmp.c:7:3"));
  assert_non_null(strstr(errbuf, "called back from a host function"));
  /* still usable afterwards */
  a = I(2);
  assert_int_equal(kit_interp_call(IP, fn("swap"), &a, 1, r), 0);
  assert_int_equal(r[0].i, 21);
}

static void test_text_select_loop(void **st) {
  (void)st;
  KitCgScalar a = I(10), r[2];
  assert_int_equal(kit_interp_call(IP, fn("clampsum"), &a, 1, r), 0);
  assert_int_equal(r[0].i, 0 + 1 + 2 + 3 + 4 + 5 + 5 + 5 + 5 + 5);
  uint64_t before = kit_interp_ops(IP);
  assert_int_equal(kit_interp_call(IP, fn("clampsum"), &a, 1, r), 0);
  /* 6 ops per iteration (icmp, select, add, add, icmp+condbr) + br + ret */
  assert_int_equal(kit_interp_ops(IP) - before, 10 * 6 + 2);
}

/* i128 switch compares all 128 bits against the sign-extended cases */
static void test_text_switch_i128(void **st) {
  (void)st;
  unsigned __int128 in[] = {5, ~(unsigned __int128)0, ((unsigned __int128)1 << 64) | 5, UINT64_MAX, 0};
  uint64_t want[] = {1, 2, 0, 0, 0};
  for (int i = 0; i < 5; i++) {
    KitCgScalar a = Q(in[i]), r[2];
    assert_int_equal(kit_interp_call(IP, fn("sw128"), &a, 1, r), 0);
    assert_int_equal(r[0].i, want[i]);
  }
}

/* a constant-offset ptradd folded into the load/store that uses it, and
 * one that cannot be (two uses); every CG op still counted once */
static void test_text_fused_address(void **st) {
  (void)st;
  uint32_t cpu[4] = {0, 0, 0x11223344, 0x55667788};
  KitCgScalar a = I((uintptr_t)cpu), r[2];
  uint64_t before = kit_interp_ops(IP);
  assert_int_equal(kit_interp_call(IP, fn("cpu"), &a, 1, r), 0);
  assert_int_equal(r[0].i, 0x5566778811223344ull + 8);
  assert_int_equal(cpu[2], 0x1122334c);
  assert_int_equal(cpu[1], 0x11223344);
  assert_int_equal(kit_interp_ops(IP) - before, 10);
}

/* longjmp from ten interpreted frames down returns to the setjmp call */
static void test_text_setjmp(void **st) {
  (void)st;
  KitCgScalar a = I(10), r[2];
  assert_int_equal(kit_interp_call(IP, fn("sj"), &a, 1, r), 0);
  assert_int_equal(r[0].i, 42);
  /* and the interpreter's frames are back where they were */
  a = I(3);
  assert_int_equal(kit_interp_call(IP, fn("swap"), &a, 1, r), 0);
  assert_int_equal(r[0].i, 12);
}

/* indirectbr reaches the listed blocks through block addresses from a
 * relocated table; an address not in its list (a block whose address is
 * taken but is not a destination, a raw pointer) is reported, not followed */
static void test_text_indirectbr(void **st) {
  (void)st;
  KitCgScalar a = I(0), r[2];
  assert_int_equal(kit_interp_call(IP, fn("ibr"), &a, 1, r), 0);
  assert_int_equal(r[0].i, 10);
  a = I(1);
  assert_int_equal(kit_interp_call(IP, fn("ibr"), &a, 1, r), 0);
  assert_int_equal(r[0].i, 21); /* &&b2 - &&b1 != 10 as well */
  uint64_t bad[] = {2, 7, 0x1000};
  for (int i = 0; i < 3; i++) {
    errstream();
    kit_interp_free(IP);
    IP = kit_interp_new(M, NULL, NULL, errf);
    a = I(bad[i]);
    assert_int_not_equal(kit_interp_call(IP, fn("ibr"), &a, 1, r), 0);
    fflush(errf);
    assert_non_null(strstr(errbuf, "indirectbr to an address that is not one of its destinations"));
  }
  a = I(0);
  assert_int_equal(kit_interp_call(IP, fn("ibr"), &a, 1, r), 0);
  assert_int_equal(r[0].i, 10);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_text_indirectbr),
      cmocka_unit_test(test_text_phi_swap),
      cmocka_unit_test(test_text_calli_host),
      cmocka_unit_test(test_text_trap_in_callback),
      cmocka_unit_test(test_text_select_loop),
      cmocka_unit_test(test_text_switch_i128),
      cmocka_unit_test(test_text_setjmp),
      cmocka_unit_test(test_text_fused_address),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
