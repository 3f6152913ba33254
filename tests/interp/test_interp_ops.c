/* tests/interp/test_interp_ops.c — the interpreter's meaning of each op
 * family: wraparound, shifts, division edges and traps, comparisons, i1,
 * bit ops, overflow predicates, floats, conversions (saturation), i128, f80. */
#include "helpers.h"

#include <float.h>
#include <math.h>

#define I1 KIT_CG_I1
#define I8 KIT_CG_I8
#define I16 KIT_CG_I16
#define I32 KIT_CG_I32
#define I64 KIT_CG_I64
#define I128 KIT_CG_I128

static void test_wraparound(void **st) {
  (void)st;
  assert_int_equal(op_i(KIT_CG_OP_ADD, I8, 200, 100), 44);
  assert_int_equal(op_i(KIT_CG_OP_ADD, I32, 0xffffffffu, 1), 0);
  assert_int_equal(op_i(KIT_CG_OP_SUB, I64, 0, 1), UINT64_MAX);
  assert_int_equal(op_i(KIT_CG_OP_SUB, I16, 0, 1), 0xffff);
  assert_int_equal(op_i(KIT_CG_OP_MUL, I16, 300, 300), (300 * 300) & 0xffff);
  assert_int_equal(op_i(KIT_CG_OP_MUL, I64, 1ull << 63, 2), 0);
  assert_int_equal(op_i(KIT_CG_OP_NEG, I8, 1, 0), 0xff);
  assert_int_equal(op_i(KIT_CG_OP_NOT, I32, 0, 0), 0xffffffffu);
  /* arguments wider than the type are cut to it */
  assert_int_equal(op_i(KIT_CG_OP_ADD, I8, 0x1ff, 1), 0);
}

static void test_shifts(void **st) {
  (void)st;
  assert_int_equal(op_i(KIT_CG_OP_SHL, I32, 1, 33), 2); /* amount modulo width */
  assert_int_equal(op_i(KIT_CG_OP_SHL, I32, 1, 31), 0x80000000u);
  assert_int_equal(op_i(KIT_CG_OP_SHL, I8, 0x81, 1), 0x02);
  assert_int_equal(op_i(KIT_CG_OP_LSHR, I8, 0x80, 9), 0x40);
  assert_int_equal(op_i(KIT_CG_OP_ASHR, I16, 0x8000, 17), 0xc000);
  assert_int_equal(op_i(KIT_CG_OP_ASHR, I64, 1ull << 63, 63), UINT64_MAX);
  assert_int_equal(op_i(KIT_CG_OP_LSHR, I64, 1ull << 63, 64), 1ull << 63);
  assert_int_equal(op_i(KIT_CG_OP_SHL, I1, 1, 1), 1); /* i1: amount mod 1 = 0 */
  KitCgScalar r;
  assert_int_equal(run_op(KIT_CG_OP_SHL, 0, I128, Q(1), Q(130), &r), 0);
  assert_true(r.i128 == 4);
  assert_int_equal(run_op(KIT_CG_OP_ASHR, 0, I128, Q((unsigned __int128)1 << 127), Q(127), &r), 0);
  assert_true(r.i128 == ~(unsigned __int128)0);
}

static void test_division(void **st) {
  (void)st;
  assert_int_equal(op_i(KIT_CG_OP_SDIV, I32, (uint32_t)-7, 2), (uint32_t)-3);
  assert_int_equal(op_i(KIT_CG_OP_SREM, I32, (uint32_t)-7, 2), (uint32_t)-1);
  assert_int_equal(op_i(KIT_CG_OP_UDIV, I32, (uint32_t)-7, 2), 0x7ffffffcu);
  assert_int_equal(op_i(KIT_CG_OP_UREM, I8, 255, 10), 5);
  assert_int_equal(op_i(KIT_CG_OP_SDIV, I8, 0x80, 2), 0xc0);
  assert_int_equal(op_i(KIT_CG_OP_SREM, I64, (uint64_t)INT64_MIN, 3), (uint64_t)(INT64_MIN % 3));
  KitCgScalar r;
  assert_int_not_equal(run_op(KIT_CG_OP_SDIV, 0, I32, I(5), I(0), &r), 0);
  assert_non_null(strstr(errbuf, "division by zero"));
  assert_non_null(strstr(errbuf, "@f"));
  assert_int_not_equal(run_op(KIT_CG_OP_UREM, 0, I64, I(5), I(0), &r), 0);
  assert_int_not_equal(run_op(KIT_CG_OP_SDIV, 0, I32, I(0x80000000u), I(0xffffffffu), &r), 0);
  assert_non_null(strstr(errbuf, "MIN / -1"));
  assert_int_not_equal(run_op(KIT_CG_OP_SREM, 0, I8, I(0x80), I(0xff), &r), 0);
  assert_int_not_equal(run_op(KIT_CG_OP_SDIV, 0, I64, I((uint64_t)INT64_MIN), I(UINT64_MAX), &r), 0);
  /* MIN / 1 is fine */
  assert_int_equal(run_op(KIT_CG_OP_SDIV, 0, I64, I((uint64_t)INT64_MIN), I(1), &r), 0);
  assert_int_equal(r.i, (uint64_t)INT64_MIN);
  /* i128 */
  __int128 big = (__int128)1 << 100;
  assert_int_equal(run_op(KIT_CG_OP_SDIV, 0, I128, Q((unsigned __int128)-big), Q(3), &r), 0);
  assert_true((__int128)r.i128 == -big / 3);
  assert_int_not_equal(run_op(KIT_CG_OP_UDIV, 0, I128, Q(1), Q(0), &r), 0);
  assert_int_not_equal(run_op(KIT_CG_OP_SDIV, 0, I128, Q((unsigned __int128)1 << 127), Q(~(unsigned __int128)0), &r), 0);
}

static void test_icmp(void **st) {
  (void)st;
  assert_int_equal(cmp_i(KIT_CG_SLT, I8, 0x80, 1), 1);
  assert_int_equal(cmp_i(KIT_CG_ULT, I8, 0x80, 1), 0);
  assert_int_equal(cmp_i(KIT_CG_SGE, I32, 5, 5), 1);
  assert_int_equal(cmp_i(KIT_CG_SGT, I64, (uint64_t)-1, 0), 0);
  assert_int_equal(cmp_i(KIT_CG_UGT, I64, (uint64_t)-1, 0), 1);
  assert_int_equal(cmp_i(KIT_CG_NE, I16, 0x10000, 0), 0); /* cut to 16 bits */
  assert_int_equal(cmp_i(KIT_CG_SLE, I16, 0xffff, 0), 1);
  assert_int_equal(cmp_i(KIT_CG_ULE, I16, 0xffff, 0), 0);
  assert_int_equal(cmp_i(KIT_CG_SLT, I1, 1, 0), 1); /* i1 1 is -1 signed */
  KitCgScalar r;
  assert_int_equal(run_op(KIT_CG_OP_ICMP, KIT_CG_SLT, I128, Q((unsigned __int128)1 << 127), Q(1), &r), 0);
  assert_int_equal(r.i, 1);
  assert_int_equal(run_op(KIT_CG_OP_ICMP, KIT_CG_UGT, I128, Q((unsigned __int128)1 << 127), Q(1), &r), 0);
  assert_int_equal(r.i, 1);
}

static void test_i1_logic(void **st) {
  (void)st;
  assert_int_equal(op_i(KIT_CG_OP_AND, I1, 1, 1), 1);
  assert_int_equal(op_i(KIT_CG_OP_OR, I1, 0, 1), 1);
  assert_int_equal(op_i(KIT_CG_OP_XOR, I1, 1, 1), 0);
  assert_int_equal(op_i(KIT_CG_OP_ADD, I1, 1, 1), 0);
  assert_int_equal(op_i(KIT_CG_OP_NOT, I1, 1, 0), 0);
  assert_int_equal(op_i(KIT_CG_OP_NOT, I1, 0, 0), 1);
  KitCgScalar r;
  assert_int_equal(run_conv(KIT_CG_OP_SEXT, KIT_CG_I1, KIT_CG_I32, I(1), &r), 0);
  assert_int_equal(r.i, 0xffffffffu);
  assert_int_equal(run_conv(KIT_CG_OP_ZEXT, KIT_CG_I1, KIT_CG_I64, I(1), &r), 0);
  assert_int_equal(r.i, 1);
  assert_int_equal(run_conv(KIT_CG_OP_TRUNC, KIT_CG_I32, KIT_CG_I1, I(6), &r), 0);
  assert_int_equal(r.i, 0);
}

static void test_minmax_overflow_bits(void **st) {
  (void)st;
  assert_int_equal(op_i(KIT_CG_OP_SMIN, I8, 0x80, 1), 0x80);
  assert_int_equal(op_i(KIT_CG_OP_UMIN, I8, 0x80, 1), 1);
  assert_int_equal(op_i(KIT_CG_OP_SMAX, I32, 0xffffffffu, 0), 0);
  assert_int_equal(op_i(KIT_CG_OP_UMAX, I32, 0xffffffffu, 0), 0xffffffffu);
  assert_int_equal(op_i(KIT_CG_OP_SADDO, I8, 100, 27), 0);
  assert_int_equal(op_i(KIT_CG_OP_SADDO, I8, 100, 28), 1);
  assert_int_equal(op_i(KIT_CG_OP_UADDO, I8, 200, 56), 1);
  assert_int_equal(op_i(KIT_CG_OP_UADDO, I64, UINT64_MAX, 1), 1);
  assert_int_equal(op_i(KIT_CG_OP_SADDO, I64, INT64_MAX, 1), 1);
  assert_int_equal(op_i(KIT_CG_OP_SSUBO, I32, 0x80000000u, 1), 1);
  assert_int_equal(op_i(KIT_CG_OP_USUBO, I32, 1, 2), 1);
  assert_int_equal(op_i(KIT_CG_OP_SMULO, I16, 256, 128), 1);
  assert_int_equal(op_i(KIT_CG_OP_SMULO, I16, 0xffff, 0x8000), 1); /* -1 * MIN */
  assert_int_equal(op_i(KIT_CG_OP_UMULO, I64, 1ull << 32, 1ull << 32), 1);
  assert_int_equal(op_i(KIT_CG_OP_UMULO, I64, 1ull << 31, 1ull << 32), 0);
  assert_int_equal(op_i(KIT_CG_OP_CLZ, I32, 0, 0), 32);
  assert_int_equal(op_i(KIT_CG_OP_CLZ, I16, 1, 0), 15);
  assert_int_equal(op_i(KIT_CG_OP_CTZ, I64, 0, 0), 64);
  assert_int_equal(op_i(KIT_CG_OP_CTZ, I8, 0x80, 0), 7);
  assert_int_equal(op_i(KIT_CG_OP_POPCNT, I64, UINT64_MAX, 0), 64);
  assert_int_equal(op_i(KIT_CG_OP_BSWAP, I16, 0xabcd, 0), 0xcdab);
  assert_int_equal(op_i(KIT_CG_OP_BSWAP, I32, 0x11223344, 0), 0x44332211);
  KitCgScalar r;
  assert_int_equal(run_op(KIT_CG_OP_CLZ, 0, I128, Q(1), Q(0), &r), 0);
  assert_true(r.i128 == 127);
  assert_int_equal(run_op(KIT_CG_OP_UMULO, 0, I128, Q((unsigned __int128)1 << 64), Q((unsigned __int128)1 << 64), &r), 0);
  assert_int_equal(r.i, 1);
}

static double fop(KitCgOp op, double x, double y) {
  KitCgScalar r;
  assert_int_equal(run_op(op, 0, KIT_CG_F64, D(x), D(y), &r), 0);
  return r.f64;
}

static void test_floats(void **st) {
  (void)st;
  assert_true(fop(KIT_CG_OP_FADD, 0.1, 0.2) == 0.1 + 0.2);
  assert_true(fop(KIT_CG_OP_FDIV, 1.0, 0.0) == INFINITY);
  assert_true(fop(KIT_CG_OP_FREM, 7.5, 2.0) == 1.5);
  assert_true(fop(KIT_CG_OP_FMIN, NAN, 3.0) == 3.0); /* minNum ignores a NaN */
  assert_true(fop(KIT_CG_OP_FMAX, 3.0, NAN) == 3.0);
  assert_true(fop(KIT_CG_OP_FMIN, -1.0, 2.0) == -1.0);
  assert_true(fop(KIT_CG_OP_FSQRT, 9.0, 0) == 3.0);
  assert_true(fop(KIT_CG_OP_FNEG, 0.0, 0) == 0.0 && signbit(fop(KIT_CG_OP_FNEG, 0.0, 0)));
  assert_true(fop(KIT_CG_OP_FABS, -2.5, 0) == 2.5);
  assert_true(fop(KIT_CG_OP_FCOPYSIGN, 2.0, -0.0) == -2.0);
  KitCgScalar r;
  assert_int_equal(run_op(KIT_CG_OP_FMUL, 0, KIT_CG_F32, F(1.5f), F(1.5f), &r), 0);
  assert_true(r.f32 == 2.25f);
  assert_int_equal(run_op(KIT_CG_OP_FADD, 0, KIT_CG_F32, F(16777216.0f), F(1.0f), &r), 0);
  assert_true(r.f32 == 16777216.0f); /* rounds in f32, not in double */
  assert_int_equal(run_op(KIT_CG_OP_FCMP, KIT_CG_FUNO, KIT_CG_F64, D(NAN), D(1), &r), 0);
  assert_int_equal(r.i, 1);
  assert_int_equal(run_op(KIT_CG_OP_FCMP, KIT_CG_FOLT, KIT_CG_F64, D(NAN), D(1), &r), 0);
  assert_int_equal(r.i, 0);
  assert_int_equal(run_op(KIT_CG_OP_FCMP, KIT_CG_FULT, KIT_CG_F64, D(NAN), D(1), &r), 0);
  assert_int_equal(r.i, 1);
  assert_int_equal(run_op(KIT_CG_OP_FCMP, KIT_CG_FONE, KIT_CG_F32, F(1), F(2), &r), 0);
  assert_int_equal(r.i, 1);
  assert_int_equal(run_op(KIT_CG_OP_FCMP, KIT_CG_FUEQ, KIT_CG_F32, F(1), F(2), &r), 0);
  assert_int_equal(r.i, 0);
}

static void test_fma(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgType ps[3] = {KIT_CG_F64, KIT_CG_F64, KIT_CG_F64};
  KitCgFunc *f = kit_cg_func_declare(m, "f", KIT_CG_F64, ps, 3, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_block_new(m, f);
  KitCgVal a[3] = {1, 2, 3};
  kit_cg_ret(&b, kit_cg_emit(&b, KIT_CG_OP_FMA, KIT_CG_F64, a, 3)->id);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  double x = 1.0 + 0x1p-30, y = 1.0 - 0x1p-30, z = -1.0;
  KitCgScalar args[3] = {D(x), D(y), D(z)}, r[2];
  assert_int_equal(kit_interp_call(ip, f, args, 3, r), 0);
  assert_true(r[0].f64 == fma(x, y, z));
  assert_true(r[0].f64 != x * y + z); /* one rounding, not two */
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

static void test_fp_int_conversions(void **st) {
  (void)st;
  KitCgScalar r;
  assert_int_equal(run_conv(KIT_CG_OP_FPTOSI, KIT_CG_F64, I32, D(1e20), &r), 0);
  assert_int_equal(r.i, 0x7fffffff);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOSI, KIT_CG_F64, I32, D(-1e20), &r), 0);
  assert_int_equal(r.i, 0x80000000u);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOSI, KIT_CG_F64, I32, D(NAN), &r), 0);
  assert_int_equal(r.i, 0);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOSI, KIT_CG_F64, I32, D(-3.99), &r), 0);
  assert_int_equal(r.i, (uint32_t)-3);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOSI, KIT_CG_F64, I64, D(1e300), &r), 0);
  assert_int_equal(r.i, (uint64_t)INT64_MAX);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOSI, KIT_CG_F64, I64, D(-9223372036854775808.0), &r), 0);
  assert_int_equal(r.i, (uint64_t)INT64_MIN);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOUI, KIT_CG_F64, I8, D(300.0), &r), 0);
  assert_int_equal(r.i, 255);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOUI, KIT_CG_F64, I32, D(-5.0), &r), 0);
  assert_int_equal(r.i, 0);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOUI, KIT_CG_F32, I64, F(1.8446744e19f), &r), 0);
  assert_int_equal(r.i, UINT64_MAX);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOUI, KIT_CG_F64, I64, D(NAN), &r), 0);
  assert_int_equal(r.i, 0);
  assert_int_equal(run_conv(KIT_CG_OP_FPTOSI, KIT_CG_F80, I128, L(-1e40L), &r), 0);
  assert_true((__int128)r.i128 == (__int128)((unsigned __int128)1 << 127));
  assert_int_equal(run_conv(KIT_CG_OP_SITOFP, I32, KIT_CG_F64, I(0xffffffffu), &r), 0);
  assert_true(r.f64 == -1.0);
  assert_int_equal(run_conv(KIT_CG_OP_UITOFP, I32, KIT_CG_F64, I(0xffffffffu), &r), 0);
  assert_true(r.f64 == 4294967295.0);
  assert_int_equal(run_conv(KIT_CG_OP_UITOFP, I64, KIT_CG_F32, I(UINT64_MAX), &r), 0);
  assert_true(r.f32 == 18446744073709551616.0f);
  assert_int_equal(run_conv(KIT_CG_OP_SITOFP, I64, KIT_CG_F80, I((uint64_t)INT64_MIN + 1), &r), 0);
  assert_true(r.f80 == (long double)(INT64_MIN + 1)); /* exact in f80 */
  assert_int_equal(run_conv(KIT_CG_OP_FPTRUNC, KIT_CG_F64, KIT_CG_F32, D(1e300), &r), 0);
  assert_true(isinf(r.f32));
  assert_int_equal(run_conv(KIT_CG_OP_FPEXT, KIT_CG_F32, KIT_CG_F64, F(0.1f), &r), 0);
  assert_true(r.f64 == (double)0.1f);
}

static void test_int_conversions(void **st) {
  (void)st;
  KitCgScalar r;
  assert_int_equal(run_conv(KIT_CG_OP_TRUNC, I64, I8, I(0x1234), &r), 0);
  assert_int_equal(r.i, 0x34);
  assert_int_equal(run_conv(KIT_CG_OP_SEXT, I8, I64, I(0x80), &r), 0);
  assert_int_equal(r.i, 0xffffffffffffff80ull);
  assert_int_equal(run_conv(KIT_CG_OP_SEXT, I16, I32, I(0x7fff), &r), 0);
  assert_int_equal(r.i, 0x7fff);
  assert_int_equal(run_conv(KIT_CG_OP_ZEXT, I8, I32, I(0x80), &r), 0);
  assert_int_equal(r.i, 0x80);
  assert_int_equal(run_conv(KIT_CG_OP_SEXT, I64, I128, I(UINT64_MAX), &r), 0);
  assert_true(r.i128 == ~(unsigned __int128)0);
  assert_int_equal(run_conv(KIT_CG_OP_ZEXT, I64, I128, I(UINT64_MAX), &r), 0);
  assert_true(r.i128 == UINT64_MAX);
  assert_int_equal(run_conv(KIT_CG_OP_TRUNC, I128, I32, Q(((unsigned __int128)5 << 64) | 0x1ffffffffull), &r), 0);
  assert_int_equal(r.i, 0xffffffffu);
  assert_int_equal(run_conv(KIT_CG_OP_BITCAST, KIT_CG_F32, I32, F(1.0f), &r), 0);
  assert_int_equal(r.i, 0x3f800000);
  assert_int_equal(run_conv(KIT_CG_OP_BITCAST, I64, KIT_CG_F64, I(0x4000000000000000ull), &r), 0);
  assert_true(r.f64 == 2.0);
  assert_int_equal(run_conv(KIT_CG_OP_PTRTOINT, KIT_CG_PTR, I32, I(0x123456789ull), &r), 0);
  assert_int_equal(r.i, 0x23456789);
}

static void test_f80(void **st) {
  (void)st;
  KitCgScalar r;
  long double third = 1.0L / 3.0L;
  assert_int_equal(run_op(KIT_CG_OP_FDIV, 0, KIT_CG_F80, L(1.0L), L(3.0L), &r), 0);
  assert_true(r.f80 == third);
  assert_true((double)r.f80 == 1.0 / 3.0);
  assert_true(r.f80 != (long double)(1.0 / 3.0)); /* really 64-bit mantissa */
  assert_int_equal(run_op(KIT_CG_OP_FMUL, 0, KIT_CG_F80, L(third), L(3.0L), &r), 0);
  assert_true(r.f80 == third * 3.0L);
  assert_int_equal(run_op(KIT_CG_OP_FADD, 0, KIT_CG_F80, L(1.0L), L(LDBL_EPSILON), &r), 0);
  assert_true(r.f80 > 1.0L);
  assert_int_equal(run_op(KIT_CG_OP_FCMP, KIT_CG_FOGT, KIT_CG_F80, L(1.0L + LDBL_EPSILON), L(1.0L), &r), 0);
  assert_int_equal(r.i, 1);
  assert_int_equal(run_conv(KIT_CG_OP_FPTRUNC, KIT_CG_F80, KIT_CG_F64, L(third), &r), 0);
  assert_true(r.f64 == (double)third);

  /* an f80 constant survives the prologue and a store/load round trip */
  KitCgModule *m = kit_cg_module_new("t");
  KitCgFunc *f = kit_cg_func_declare(m, "f", KIT_CG_F80, NULL, 0, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_block_new(m, f);
  uint32_t obj = kit_cg_stack_new(m, f, 16, 16, 0);
  KitCgVal p = kit_cg_stackaddr(&b, obj);
  kit_cg_store(&b, kit_cg_f80const(&b, third), p, 16, KIT_CG_PROGRAM);
  KitCgVal v = kit_cg_load(&b, KIT_CG_F80, p, 16, KIT_CG_PROGRAM);
  kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_FADD, v, kit_cg_fconst(&b, KIT_CG_F80, 1.0)));
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  KitCgScalar ret[2];
  assert_int_equal(kit_interp_call(ip, f, NULL, 0, ret), 0);
  assert_true(ret[0].f80 == third + 1.0L);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

static void test_select_and_traps(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgType ps[3] = {KIT_CG_I1, KIT_CG_F64, KIT_CG_F64};
  KitCgFunc *f = kit_cg_func_declare(m, "sel", KIT_CG_F64, ps, 3, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_block_new(m, f);
  kit_cg_ret(&b, kit_cg_select(&b, 1, 2, 3));
  KitCgFunc *g = kit_cg_func_declare(m, "boom", KIT_CG_VOID, NULL, 0, false);
  kit_cg_builder_init(&b, m, g);
  kit_cg_block_new(m, g);
  kit_cg_emit(&b, KIT_CG_OP_TRAP, KIT_CG_VOID, NULL, 0);
  KitCgFunc *h = kit_cg_func_declare(m, "nowhere", KIT_CG_VOID, NULL, 0, false);
  kit_cg_builder_init(&b, m, h);
  kit_cg_block_new(m, h);
  b.loc = (KitCgLoc){.pc = 0x10074};
  kit_cg_unreachable(&b);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  KitCgScalar a[3] = {I(1), D(1.5), D(2.5)}, r[2];
  assert_int_equal(kit_interp_call(ip, f, a, 3, r), 0);
  assert_true(r[0].f64 == 1.5);
  a[0] = I(0);
  assert_int_equal(kit_interp_call(ip, f, a, 3, r), 0);
  assert_true(r[0].f64 == 2.5);
  assert_int_not_equal(kit_interp_call(ip, g, NULL, 0, r), 0);
  assert_non_null(strstr(errbuf, "@boom"));
  assert_int_not_equal(kit_interp_call(ip, h, NULL, 0, r), 0);
  assert_non_null(strstr(errbuf, "unreachable"));
  assert_non_null(strstr(errbuf, "0x10074"));
  /* the interpreter is still usable after a trap */
  a[0] = I(1);
  assert_int_equal(kit_interp_call(ip, f, a, 3, r), 0);
  assert_true(r[0].f64 == 1.5);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wraparound),     cmocka_unit_test(test_shifts),
      cmocka_unit_test(test_division),       cmocka_unit_test(test_icmp),
      cmocka_unit_test(test_i1_logic),       cmocka_unit_test(test_minmax_overflow_bits),
      cmocka_unit_test(test_floats),         cmocka_unit_test(test_fma),
      cmocka_unit_test(test_fp_int_conversions), cmocka_unit_test(test_int_conversions),
      cmocka_unit_test(test_f80),            cmocka_unit_test(test_select_and_traps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
