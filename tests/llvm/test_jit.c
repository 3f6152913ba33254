/* tests/llvm/test_jit.c — the LLVM backend through the JIT: modules built
 * with the builder, jitted, called through kit_jit_call or their host
 * address, results checked against what CG defines (docs/cg.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>

#include "kit/cg_exec.h"

static KitCgModule *M;
static KitCgFunc *F;
static KitCgBuilder B;

static KitCgFunc *begin(const char *name, KitCgType ret, const KitCgType *ps, uint32_t n) {
  F = kit_cg_func_declare(M, name, ret, ps, n, false);
  kit_cg_builder_init(&B, M, F);
  kit_cg_builder_at(&B, kit_cg_block_new(M, F));
  return F;
}

static KitJit *jit_of(int opt) {
  KitJit *j = kit_jit_new(opt, NULL, NULL, stderr);
  assert_non_null(j);
  assert_int_equal(kit_jit_add(j, M, stderr), 0);
  return j;
}

static int setup(void **st) {
  (void)st;
  M = kit_cg_module_new("t");
  return 0;
}
static int teardown(void **st) {
  (void)st;
  kit_cg_module_free(M);
  return 0;
}

/* f(a, b) = op(a, b) over type t, jitted at opt level `opt` */
static uint64_t binop(int opt, KitCgOp op, KitCgType t, uint64_t a, uint64_t b, uint16_t flags) {
  KitCgModule *save = M;
  M = kit_cg_module_new("bin");
  KitCgType ps[2] = {t, t};
  begin("f", t, ps, 2);
  KitCgVal r = kit_cg_binop(&B, op, kit_cg_param(F, 0), kit_cg_param(F, 1));
  kit_cg_def(F, r)->flags |= flags;
  F->ret[0] = (uint8_t)kit_cg_val_type(F, r); /* i1 for the overflow predicates */
  kit_cg_ret(&B, r);
  KitJit *j = jit_of(opt);
  KitCgScalar args[2] = {{.i = a}, {.i = b}}, ret[2];
  assert_int_equal(kit_jit_call(j, M, F, args, 2, ret), 0);
  kit_jit_free(j);
  kit_cg_module_free(M);
  M = save;
  unsigned bits = kit_cg_type_bits(t);
  return bits >= 64 ? ret[0].i : ret[0].i & ((1ull << bits) - 1);
}

static void test_int_arith(void **st) {
  (void)st;
  for (int opt = 0; opt <= 2; opt += 2) {
    assert_int_equal(binop(opt, KIT_CG_OP_ADD, KIT_CG_I32, 0xffffffff, 2, 0), 1);
    assert_int_equal(binop(opt, KIT_CG_OP_SUB, KIT_CG_I8, 1, 2, 0), 0xff);
    assert_int_equal(binop(opt, KIT_CG_OP_MUL, KIT_CG_I64, 1ull << 40, 1ull << 30, 0), 0);
    assert_int_equal(binop(opt, KIT_CG_OP_SDIV, KIT_CG_I32, (uint32_t)-7, 2, 0), (uint32_t)-3);
    assert_int_equal(binop(opt, KIT_CG_OP_UDIV, KIT_CG_I32, (uint32_t)-7, 2, 0), 0x7ffffffc);
    assert_int_equal(binop(opt, KIT_CG_OP_SREM, KIT_CG_I16, (uint16_t)-7, 2, 0), 0xffff);
    assert_int_equal(binop(opt, KIT_CG_OP_SMIN, KIT_CG_I32, (uint32_t)-1, 5, 0), 0xffffffff);
    assert_int_equal(binop(opt, KIT_CG_OP_UMIN, KIT_CG_I32, (uint32_t)-1, 5, 0), 5);
    assert_int_equal(binop(opt, KIT_CG_OP_SMAX, KIT_CG_I64, (uint64_t)-1, 5, 0), 5);
    assert_int_equal(binop(opt, KIT_CG_OP_UMAX, KIT_CG_I8, 0x80, 5, 0), 0x80);
  }
}

static void test_shifts_modulo_width(void **st) {
  (void)st;
  for (int opt = 0; opt <= 2; opt += 2) {
    assert_int_equal(binop(opt, KIT_CG_OP_SHL, KIT_CG_I32, 1, 33, 0), 2);
    assert_int_equal(binop(opt, KIT_CG_OP_LSHR, KIT_CG_I64, 1ull << 63, 64 + 63, 0), 1);
    assert_int_equal(binop(opt, KIT_CG_OP_ASHR, KIT_CG_I16, 0x8000, 16 + 15, 0), 0xffff);
    assert_int_equal(binop(opt, KIT_CG_OP_SHL, KIT_CG_I8, 1, 7, KIT_CG_F_SHIFT_INRANGE), 0x80);
  }
}

static void test_overflow_ops(void **st) {
  (void)st;
  assert_int_equal(binop(0, KIT_CG_OP_SADDO, KIT_CG_I32, 0x7fffffff, 1, 0), 1);
  assert_int_equal(binop(0, KIT_CG_OP_SADDO, KIT_CG_I32, 0x7ffffffe, 1, 0), 0);
  assert_int_equal(binop(2, KIT_CG_OP_UADDO, KIT_CG_I8, 0xff, 1, 0), 1);
  assert_int_equal(binop(0, KIT_CG_OP_USUBO, KIT_CG_I64, 0, 1, 0), 1);
  assert_int_equal(binop(0, KIT_CG_OP_SSUBO, KIT_CG_I16, 0x8000, 1, 0), 1);
  assert_int_equal(binop(2, KIT_CG_OP_SMULO, KIT_CG_I32, 0x10000, 0x8000, 0), 1);
  assert_int_equal(binop(0, KIT_CG_OP_UMULO, KIT_CG_I32, 0x10000, 0xffff, 0), 0);
}

static uint64_t unop(int opt, KitCgOp op, KitCgType t, uint64_t a) {
  KitCgModule *save = M;
  M = kit_cg_module_new("un");
  begin("f", t, &t, 1);
  kit_cg_ret(&B, kit_cg_unop(&B, op, kit_cg_param(F, 0)));
  KitJit *j = jit_of(opt);
  KitCgScalar args[1] = {{.i = a}}, ret[2];
  assert_int_equal(kit_jit_call(j, M, F, args, 1, ret), 0);
  kit_jit_free(j);
  kit_cg_module_free(M);
  M = save;
  unsigned bits = kit_cg_type_bits(t);
  return bits >= 64 ? ret[0].i : ret[0].i & ((1ull << bits) - 1);
}

static void test_bit_ops(void **st) {
  (void)st;
  for (int opt = 0; opt <= 2; opt += 2) {
    assert_int_equal(unop(opt, KIT_CG_OP_CLZ, KIT_CG_I32, 0), 32);
    assert_int_equal(unop(opt, KIT_CG_OP_CTZ, KIT_CG_I64, 0), 64);
    assert_int_equal(unop(opt, KIT_CG_OP_CLZ, KIT_CG_I16, 1), 15);
    assert_int_equal(unop(opt, KIT_CG_OP_CTZ, KIT_CG_I32, 8), 3);
    assert_int_equal(unop(opt, KIT_CG_OP_POPCNT, KIT_CG_I64, 0xf0f0), 8);
    assert_int_equal(unop(opt, KIT_CG_OP_BSWAP, KIT_CG_I32, 0x11223344), 0x44332211);
    assert_int_equal(unop(opt, KIT_CG_OP_BSWAP, KIT_CG_I8, 0x12), 0x12);
    assert_int_equal(unop(opt, KIT_CG_OP_NEG, KIT_CG_I32, 5), (uint32_t)-5);
    assert_int_equal(unop(opt, KIT_CG_OP_NOT, KIT_CG_I8, 0x0f), 0xf0);
  }
}

/* conv(x) from type `from` to `to` */
static KitCgScalar conv(int opt, KitCgOp op, KitCgType from, KitCgType to, KitCgScalar a) {
  KitCgModule *save = M;
  M = kit_cg_module_new("conv");
  begin("f", to, &from, 1);
  kit_cg_ret(&B, kit_cg_conv(&B, op, to, kit_cg_param(F, 0)));
  KitJit *j = jit_of(opt);
  KitCgScalar ret[2];
  assert_int_equal(kit_jit_call(j, M, F, &a, 1, ret), 0);
  kit_jit_free(j);
  kit_cg_module_free(M);
  M = save;
  return ret[0];
}

static void test_saturating_conversions(void **st) {
  (void)st;
  for (int opt = 0; opt <= 2; opt += 2) {
    assert_int_equal((uint32_t)conv(opt, KIT_CG_OP_FPTOSI, KIT_CG_F64, KIT_CG_I32, (KitCgScalar){.f64 = 1e20}).i,
                     0x7fffffff);
    assert_int_equal((uint32_t)conv(opt, KIT_CG_OP_FPTOSI, KIT_CG_F64, KIT_CG_I32, (KitCgScalar){.f64 = -1e20}).i,
                     0x80000000);
    assert_int_equal((uint32_t)conv(opt, KIT_CG_OP_FPTOSI, KIT_CG_F64, KIT_CG_I32, (KitCgScalar){.f64 = NAN}).i, 0);
    assert_int_equal((uint32_t)conv(opt, KIT_CG_OP_FPTOUI, KIT_CG_F32, KIT_CG_I32, (KitCgScalar){.f32 = -3.0f}).i, 0);
    assert_int_equal((uint8_t)conv(opt, KIT_CG_OP_FPTOUI, KIT_CG_F64, KIT_CG_I8, (KitCgScalar){.f64 = 300}).i, 255);
    assert_int_equal(conv(opt, KIT_CG_OP_FPTOSI, KIT_CG_F64, KIT_CG_I64, (KitCgScalar){.f64 = -2.75}).i,
                     (uint64_t)-2);
    assert_true(conv(opt, KIT_CG_OP_SITOFP, KIT_CG_I32, KIT_CG_F64, (KitCgScalar){.i = (uint32_t)-3}).f64 == -3.0);
    assert_true(conv(opt, KIT_CG_OP_UITOFP, KIT_CG_I32, KIT_CG_F64, (KitCgScalar){.i = 0xffffffffu}).f64 ==
                4294967295.0);
    assert_int_equal(conv(opt, KIT_CG_OP_SEXT, KIT_CG_I8, KIT_CG_I64, (KitCgScalar){.i = 0x80}).i, (uint64_t)-128);
    assert_int_equal(conv(opt, KIT_CG_OP_ZEXT, KIT_CG_I8, KIT_CG_I64, (KitCgScalar){.i = 0x80}).i, 0x80);
    assert_int_equal(conv(opt, KIT_CG_OP_TRUNC, KIT_CG_I64, KIT_CG_I16, (KitCgScalar){.i = 0x12345}).i & 0xffff,
                     0x2345);
    assert_int_equal(conv(opt, KIT_CG_OP_BITCAST, KIT_CG_F64, KIT_CG_I64, (KitCgScalar){.f64 = 1.0}).i,
                     0x3ff0000000000000ull);
  }
}

static void test_float_ops(void **st) {
  (void)st;
  KitCgType ps[3] = {KIT_CG_F64, KIT_CG_F64, KIT_CG_F64};
  begin("fops", KIT_CG_F64, ps, 3);
  KitCgVal a = kit_cg_param(F, 0), b = kit_cg_param(F, 1), c = kit_cg_param(F, 2);
  KitCgVal fa[3] = {a, b, c};
  KitCgVal fma = kit_cg_emit(&B, KIT_CG_OP_FMA, KIT_CG_F64, fa, 3)->id;        /* a*b+c */
  KitCgVal mn = kit_cg_binop(&B, KIT_CG_OP_FMIN, fma, kit_cg_fconst(&B, KIT_CG_F64, NAN)); /* ignores NaN */
  KitCgVal sq = kit_cg_unop(&B, KIT_CG_OP_FSQRT, mn);
  KitCgVal ab = kit_cg_unop(&B, KIT_CG_OP_FABS, kit_cg_unop(&B, KIT_CG_OP_FNEG, sq));
  KitCgVal cs = kit_cg_binop(&B, KIT_CG_OP_FCOPYSIGN, ab, kit_cg_fconst(&B, KIT_CG_F64, -0.0));
  kit_cg_ret(&B, cs);
  KitJit *j = jit_of(2);
  KitCgScalar args[3] = {{.f64 = 3}, {.f64 = 4}, {.f64 = 4}}, ret[2];
  assert_int_equal(kit_jit_call(j, M, F, args, 3, ret), 0);
  assert_true(ret[0].f64 == -4.0);
  kit_jit_free(j);
}

static void test_i128(void **st) {
  (void)st;
  KitCgType ps[2] = {KIT_CG_I128, KIT_CG_I128};
  begin("mul128", KIT_CG_I128, ps, 2);
  KitCgVal p = kit_cg_binop(&B, KIT_CG_OP_MUL, kit_cg_param(F, 0), kit_cg_param(F, 1));
  p = kit_cg_binop(&B, KIT_CG_OP_ADD, p, kit_cg_i128const(&B, 1, 1)); /* + 2^64 + 1 */
  kit_cg_ret(&B, kit_cg_binop(&B, KIT_CG_OP_LSHR, p, kit_cg_iconst(&B, KIT_CG_I128, 128 + 4))); /* >> 4 */
  KitJit *j = jit_of(2);
  unsigned __int128 x = ((unsigned __int128)1 << 100) + 3, y = 5;
  KitCgScalar args[2] = {{.i128 = x}, {.i128 = y}}, ret[2];
  assert_int_equal(kit_jit_call(j, M, F, args, 2, ret), 0);
  unsigned __int128 want = (x * y + ((unsigned __int128)1 << 64) + 1) >> 4;
  assert_true(ret[0].i128 == want);
  kit_jit_free(j);
}

static void test_f80(void **st) {
  (void)st;
  KitCgType ps[2] = {KIT_CG_F80, KIT_CG_F80};
  begin("ld", KIT_CG_F80, ps, 2);
  KitCgVal s = kit_cg_binop(&B, KIT_CG_OP_FMUL, kit_cg_param(F, 0), kit_cg_param(F, 1));
  s = kit_cg_binop(&B, KIT_CG_OP_FADD, s, kit_cg_f80const(&B, 1.0L / 3.0L));
  kit_cg_ret(&B, s);
  KitJit *j = jit_of(0);
  KitCgScalar args[2] = {{.f80 = 1e300L}, {.f80 = 1e300L}}, ret[2];
  assert_int_equal(kit_jit_call(j, M, F, args, 2, ret), 0);
  assert_true(ret[0].f80 == 1e300L * 1e300L + 1.0L / 3.0L); /* beyond double range */
  kit_jit_free(j);
}

static void test_two_results(void **st) {
  (void)st;
  KitCgType ps[2] = {KIT_CG_I64, KIT_CG_F64};
  KitCgFunc *pair = begin("pair", KIT_CG_I64, ps, 2);
  pair->ret[1] = KIT_CG_F64;
  KitCgVal rv[2] = {kit_cg_binop(&B, KIT_CG_OP_ADD, kit_cg_param(F, 0), kit_cg_iconst(&B, KIT_CG_I64, 1)),
                    kit_cg_binop(&B, KIT_CG_OP_FMUL, kit_cg_param(F, 1), kit_cg_fconst(&B, KIT_CG_F64, 2))};
  kit_cg_emit(&B, KIT_CG_OP_RET, KIT_CG_VOID, rv, 2);
  /* caller: SECOND of a two-result call */
  begin("use", KIT_CG_F64, ps, 2);
  KitCgVal args[2] = {kit_cg_param(F, 0), kit_cg_param(F, 1)};
  KitCgInst *c = kit_cg_emit(&B, KIT_CG_OP_CALL, KIT_CG_I64, args, 2);
  c->aux = pair->sym;
  c->type2 = KIT_CG_F64;
  KitCgVal first = c->id;
  KitCgVal second = kit_cg_emit(&B, KIT_CG_OP_SECOND, KIT_CG_F64, &first, 1)->id;
  KitCgVal fi = kit_cg_conv(&B, KIT_CG_OP_SITOFP, KIT_CG_F64, first);
  kit_cg_ret(&B, kit_cg_binop(&B, KIT_CG_OP_FADD, fi, second));
  KitJit *j = jit_of(0);
  KitCgScalar a[2] = {{.i = 41}, {.f64 = 1.5}}, ret[2];
  assert_int_equal(kit_jit_call(j, M, pair, a, 2, ret), 0);
  assert_int_equal(ret[0].i, 42);
  assert_true(ret[1].f64 == 3.0);
  assert_int_equal(kit_jit_call(j, M, F, a, 2, ret), 0);
  assert_true(ret[0].f64 == 45.0);
  /* the host view: a C struct {long, double} */
  struct { long a; double b; } (*fp)(long, double) = kit_jit_lookup(j, "pair");
  assert_non_null(fp);
  assert_int_equal(fp(9, 0.25).a, 10);
  assert_true(fp(9, 0.25).b == 0.5);
  kit_jit_free(j);
}

static void test_memory_and_control(void **st) {
  (void)st;
  /* sum(p, n): loop over i32 array with phis, memset/memcpy via stack copy */
  KitCgType ps[2] = {KIT_CG_PTR, KIT_CG_I64};
  begin("sum", KIT_CG_I32, ps, 2);
  KitCgVal p = kit_cg_param(F, 0), n = kit_cg_param(F, 1);
  uint32_t buf = kit_cg_stack_new(M, F, 64, 16, 0);
  KitCgVal bp = kit_cg_stackaddr(&B, buf);
  KitCgVal four = kit_cg_iconst(&B, KIT_CG_I64, 4);
  kit_cg_memop(&B, KIT_CG_OP_MEMSET, bp, kit_cg_iconst(&B, KIT_CG_I8, 0), kit_cg_iconst(&B, KIT_CG_I64, 64),
               KIT_CG_PROGRAM);
  kit_cg_memop(&B, KIT_CG_OP_MEMCPY, bp, p, kit_cg_binop(&B, KIT_CG_OP_MUL, n, four), KIT_CG_PROGRAM);
  KitCgVal zero64 = kit_cg_iconst(&B, KIT_CG_I64, 0), zero32 = kit_cg_iconst(&B, KIT_CG_I32, 0);
  KitCgBlkId head = kit_cg_block_new(M, F), body = kit_cg_block_new(M, F), done = kit_cg_block_new(M, F);
  kit_cg_br(&B, head);
  kit_cg_builder_at(&B, head);
  KitCgInst *pi = kit_cg_phi(&B, KIT_CG_I64);
  KitCgVal i = pi->id;
  KitCgInst *ps_ = kit_cg_phi(&B, KIT_CG_I32);
  KitCgVal s = ps_->id;
  KitCgVal lt = kit_cg_cmp(&B, KIT_CG_ULT, i, n);
  kit_cg_condbr(&B, lt, body, done);
  kit_cg_builder_at(&B, body);
  KitCgVal addr = kit_cg_ptradd(&B, bp, kit_cg_binop(&B, KIT_CG_OP_MUL, i, four));
  KitCgVal v = kit_cg_load(&B, KIT_CG_I32, addr, 4, KIT_CG_PROGRAM);
  KitCgVal s2 = kit_cg_binop(&B, KIT_CG_OP_ADD, s, v);
  KitCgVal i2 = kit_cg_binop(&B, KIT_CG_OP_ADD, i, kit_cg_iconst(&B, KIT_CG_I64, 1));
  kit_cg_br(&B, head);
  kit_cg_phi_add(M, pi, zero64, 0);
  kit_cg_phi_add(M, pi, i2, body);
  kit_cg_phi_add(M, ps_, zero32, 0);
  kit_cg_phi_add(M, ps_, s2, body);
  kit_cg_builder_at(&B, done);
  /* switch on the sum: 10 -> 100, 3 -> 30, default sum */
  KitCgBlkId c10 = kit_cg_block_new(M, F), c3 = kit_cg_block_new(M, F), dflt = kit_cg_block_new(M, F);
  int64_t cases[2] = {10, 3};
  KitCgBlkId tg[2] = {c10, c3};
  kit_cg_switch(&B, s, dflt, cases, tg, 2);
  kit_cg_builder_at(&B, c10);
  kit_cg_ret(&B, kit_cg_iconst(&B, KIT_CG_I32, 100));
  kit_cg_builder_at(&B, c3);
  kit_cg_ret(&B, kit_cg_iconst(&B, KIT_CG_I32, 30));
  kit_cg_builder_at(&B, dflt);
  kit_cg_ret(&B, s);
  for (int opt = 0; opt <= 3; opt += 3) {
    KitJit *j = jit_of(opt);
    int32_t (*fn)(const int32_t *, int64_t) = kit_jit_lookup(j, "sum");
    assert_non_null(fn);
    int32_t arr[4] = {1, 2, 3, 4};
    assert_int_equal(fn(arr, 4), 100);
    assert_int_equal(fn(arr, 2), 30);
    assert_int_equal(fn(arr, 1), 1);
    kit_jit_free(j);
  }
}

static void test_atomics(void **st) {
  (void)st;
  KitCgType pt = KIT_CG_PTR;
  begin("atom", KIT_CG_I64, &pt, 1);
  KitCgVal p = kit_cg_param(F, 0);
  KitCgVal five = kit_cg_iconst(&B, KIT_CG_I64, 5);
  KitCgVal a2[2] = {p, five};
  KitCgInst *rmw = kit_cg_emit(&B, KIT_CG_OP_ARMW, KIT_CG_I64, a2, 2); /* old = *p; *p += 5 */
  rmw->aux = KIT_CG_RMW_ADD;
  rmw->pred = KIT_CG_SEQCST;
  KitCgVal cur = kit_cg_emit(&B, KIT_CG_OP_ALOAD, KIT_CG_I64, &p, 1)->id;
  kit_cg_def(F, cur)->pred = KIT_CG_ACQUIRE;
  KitCgVal nv = kit_cg_iconst(&B, KIT_CG_I64, 100);
  KitCgVal a3[3] = {p, cur, nv};
  KitCgInst *cx = kit_cg_emit(&B, KIT_CG_OP_ACMPXCHG, KIT_CG_I64, a3, 3); /* succeeds: *p = 100 */
  cx->pred = KIT_CG_ACQREL;
  KitCgVal cxold = cx->id;
  KitCgInst *fe = kit_cg_emit(&B, KIT_CG_OP_FENCE, KIT_CG_VOID, NULL, 0);
  fe->pred = KIT_CG_SEQCST;
  KitCgVal a4[2] = {p, kit_cg_iconst(&B, KIT_CG_I64, 1)};
  KitCgInst *mx = kit_cg_emit(&B, KIT_CG_OP_ARMW, KIT_CG_I64, a4, 2);
  mx->aux = KIT_CG_RMW_UMIN; /* *p = min(100, 1) */
  mx->pred = KIT_CG_RELAXED;
  KitCgVal sum = kit_cg_binop(&B, KIT_CG_OP_ADD, rmw->id, cxold);
  sum = kit_cg_binop(&B, KIT_CG_OP_ADD, sum, mx->id);
  KitCgVal st2[2] = {sum, p};
  KitCgInst *as = kit_cg_emit(&B, KIT_CG_OP_ASTORE, KIT_CG_VOID, st2, 2);
  as->pred = KIT_CG_RELEASE;
  kit_cg_ret(&B, cxold);
  KitJit *j = jit_of(2);
  int64_t (*fn)(int64_t *) = kit_jit_lookup(j, "atom");
  int64_t x = 10;
  assert_int_equal(fn(&x), 15);
  assert_int_equal(x, 10 + 15 + 100); /* old values: 10, 15, 100 */
  kit_jit_free(j);
}

/* long double and ints through va.arg: vsum(n, ...) adds n (tag, value) pairs */
static void test_varargs(void **st) {
  (void)st;
  KitCgType pt = KIT_CG_I32;
  F = kit_cg_func_declare(M, "vsum", KIT_CG_F80, &pt, 1, true);
  kit_cg_builder_init(&B, M, F);
  kit_cg_builder_at(&B, kit_cg_block_new(M, F));
  uint32_t ap_obj = kit_cg_stack_new(M, F, 24, 8, 0);
  KitCgVal ap = kit_cg_stackaddr(&B, ap_obj);
  kit_cg_emit(&B, KIT_CG_OP_VASTART, KIT_CG_VOID, &ap, 1);
  /* fixed shape: i32, i64, ptr(->i32), f64, f80, f64 (mixes register and stack areas) */
  KitCgVal a = kit_cg_conv(&B, KIT_CG_OP_SITOFP, KIT_CG_F80, kit_cg_emit(&B, KIT_CG_OP_VAARG, KIT_CG_I32, &ap, 1)->id);
  KitCgVal bq = kit_cg_conv(&B, KIT_CG_OP_SITOFP, KIT_CG_F80, kit_cg_emit(&B, KIT_CG_OP_VAARG, KIT_CG_I64, &ap, 1)->id);
  KitCgVal pp = kit_cg_emit(&B, KIT_CG_OP_VAARG, KIT_CG_PTR, &ap, 1)->id;
  KitCgVal c = kit_cg_conv(&B, KIT_CG_OP_SITOFP, KIT_CG_F80, kit_cg_load(&B, KIT_CG_I32, pp, 4, KIT_CG_PROGRAM));
  KitCgVal d = kit_cg_conv(&B, KIT_CG_OP_FPEXT, KIT_CG_F80, kit_cg_emit(&B, KIT_CG_OP_VAARG, KIT_CG_F64, &ap, 1)->id);
  KitCgVal e = kit_cg_emit(&B, KIT_CG_OP_VAARG, KIT_CG_F80, &ap, 1)->id;
  KitCgVal g = kit_cg_conv(&B, KIT_CG_OP_FPEXT, KIT_CG_F80, kit_cg_emit(&B, KIT_CG_OP_VAARG, KIT_CG_F64, &ap, 1)->id);
  kit_cg_emit(&B, KIT_CG_OP_VAEND, KIT_CG_VOID, &ap, 1);
  KitCgVal s = kit_cg_binop(&B, KIT_CG_OP_FADD, a, bq);
  s = kit_cg_binop(&B, KIT_CG_OP_FADD, s, c);
  s = kit_cg_binop(&B, KIT_CG_OP_FADD, s, d);
  s = kit_cg_binop(&B, KIT_CG_OP_FADD, s, e);
  s = kit_cg_binop(&B, KIT_CG_OP_FADD, s, g);
  kit_cg_ret(&B, s);
  for (int opt = 0; opt <= 2; opt += 2) {
    KitJit *j = jit_of(opt);
    long double (*fn)(int, ...) = kit_jit_lookup(j, "vsum");
    assert_non_null(fn);
    int three = 3;
    long double r = fn(6, -1, 1000000000000LL, &three, 0.5, 1e-4000L, 0.25);
    assert_true(r == (long double)(-1 + 1000000000000LL + 3) + 0.5L + 1e-4000L + 0.25L);
    /* enough doubles first to push later ones onto the stack */
    r = fn(6, 1, 2LL, &three, 4.0, 5.0L, 6.0);
    assert_true(r == 21.0L);
    kit_jit_free(j);
  }
}

static int64_t host_cb(int64_t x) { return x * 3; }
static int64_t host_data = 1000;
static void *resolver(void *user, const char *name) {
  (void)user;
  if (strcmp(name, "host_data") == 0) return &host_data;
  return strcmp(name, "cb") == 0 ? (void *)host_cb : NULL;
}

/* globals: initializer with relocations (pointer and 4-byte), constant data,
 * an alias, externals through the resolver then the process (strlen) */
static void test_globals_relocs(void **st) {
  (void)st;
  KitCgGlobal *str = kit_cg_global_new(M, "str", 6, 1);
  kit_cg_global_set_init(M, str, "hello", 6);
  str->is_const = true;
  KitCgGlobal *tab = kit_cg_global_new(M, "tab", 24, 8);
  uint8_t init[24] = {0};
  init[16] = 7;
  kit_cg_global_set_init(M, tab, init, 24);
  kit_cg_global_add_reloc(M, tab, 0, str->sym, 1, 8); /* &str[1] */
  kit_cg_global_add_reloc(M, tab, 8, tab->sym, 16, 8); /* self-reference: &tab + 16 */
  KitCgSym al = kit_cg_alias_new(M, "tab_alias", tab->sym);
  KitCgType i64 = KIT_CG_I64, pt = KIT_CG_PTR;
  KitCgFunc *cb = kit_cg_func_declare(M, "cb", KIT_CG_I64, &i64, 1, false);
  KitCgFunc *sl = kit_cg_func_declare(M, "strlen", KIT_CG_I64, &pt, 1, false);
  begin("g", KIT_CG_I64, NULL, 0);
  KitCgVal t = kit_cg_symaddr(&B, al, 0);
  KitCgVal p1 = kit_cg_load(&B, KIT_CG_PTR, t, 8, KIT_CG_PROGRAM);               /* "ello" */
  KitCgVal len = kit_cg_call(&B, sl->sym, KIT_CG_I64, &p1, 1);                  /* 4 */
  KitCgVal p2 = kit_cg_load(&B, KIT_CG_PTR, kit_cg_symaddr(&B, tab->sym, 8), 8, KIT_CG_PROGRAM);
  KitCgVal seven = kit_cg_load(&B, KIT_CG_I64, p2, 8, KIT_CG_PROGRAM);          /* 7 */
  KitCgVal x = kit_cg_binop(&B, KIT_CG_OP_MUL, len, seven);                     /* 28 */
  KitCgVal r = kit_cg_call(&B, cb->sym, KIT_CG_I64, &x, 1);                     /* 84 */
  KitCgGlobal *hd = kit_cg_global_declare(M, "host_data");                      /* via the resolver */
  r = kit_cg_binop(&B, KIT_CG_OP_ADD, r, kit_cg_load(&B, KIT_CG_I64, kit_cg_symaddr(&B, hd->sym, 0), 8, KIT_CG_PROGRAM));
  kit_cg_ret(&B, r);
  /* a TLS counter (emulated TLS: this thread's copy, made from the image) */
  KitCgGlobal *tls = kit_cg_global_new(M, "tls_counter", 8, 8);
  tls->is_tls = true;
  uint64_t five = 5;
  kit_cg_global_set_init(M, tls, &five, 8);
  KitCgFunc *g = F;
  begin("bump", KIT_CG_I64, NULL, 0);
  KitCgVal tp = kit_cg_symaddr(&B, tls->sym, 0);
  KitCgVal nv = kit_cg_binop(&B, KIT_CG_OP_ADD, kit_cg_load(&B, KIT_CG_I64, tp, 0, KIT_CG_PROGRAM),
                             kit_cg_iconst(&B, KIT_CG_I64, 1));
  kit_cg_store(&B, nv, tp, 0, KIT_CG_PROGRAM);
  kit_cg_ret(&B, nv);
  KitJit *j = kit_jit_new(1, resolver, NULL, stderr);
  assert_non_null(j);
  assert_int_equal(kit_jit_add(j, M, stderr), 0);
  KitCgScalar ret[2];
  assert_int_equal(kit_jit_call(j, M, g, NULL, 0, ret), 0);
  assert_int_equal(ret[0].i, 1084);
  assert_int_equal(kit_jit_call(j, M, F, NULL, 0, ret), 0);
  assert_int_equal(ret[0].i, 6);
  assert_int_equal(kit_jit_call(j, M, F, NULL, 0, ret), 0);
  assert_int_equal(ret[0].i, 7);
  const char *s = kit_jit_lookup(j, "str");
  assert_non_null(s);
  assert_string_equal(s, "hello");
  kit_jit_free(j);
}

typedef int64_t (*BumpFn)(void);
static void *bump_thread(void *fn) {
  BumpFn bump = (BumpFn)(uintptr_t)fn;
  int64_t a = bump(), b = bump();
  return (void *)(uintptr_t)(a * 100 + b);
}

/* Emulated TLS: a TLS global defined by one module and used through an
 * extern TLS declaration by another is per thread; a weak declaration nothing
 * defines is null; the fast code generator option compiles and runs. */
static void test_tls_weak_fastcg(void **st) {
  (void)st;
  KitCgGlobal *tv = kit_cg_global_new(M, "tv", 8, 8);
  tv->is_tls = true;
  uint64_t five = 5;
  kit_cg_global_set_init(M, tv, &five, 8);
  begin("tv_addr", KIT_CG_PTR, NULL, 0);
  kit_cg_ret(&B, kit_cg_symaddr(&B, tv->sym, 0));
  KitCgFunc *nope = kit_cg_func_declare(M, "kit_test_no_such_function", KIT_CG_I32, NULL, 0, false);
  kit_cg_func_set_linkage(M, nope, KIT_CG_LINK_WEAK);
  KitCgFunc *isnull = begin("nope_is_null", KIT_CG_I64, NULL, 0);
  KitCgVal c = kit_cg_cmp(&B, KIT_CG_EQ, kit_cg_symaddr(&B, nope->sym, 0),
                          kit_cg_conv(&B, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, kit_cg_iconst(&B, KIT_CG_I64, 0)));
  kit_cg_ret(&B, kit_cg_conv(&B, KIT_CG_OP_ZEXT, KIT_CG_I64, c));

  KitCgModule *m2 = kit_cg_module_new("user");
  KitCgGlobal *ext = kit_cg_global_declare(m2, "tv");
  ext->is_tls = true;
  KitCgFunc *bump = kit_cg_func_declare(m2, "tv_bump", KIT_CG_I64, NULL, 0, false);
  KitCgBuilder b2;
  kit_cg_builder_init(&b2, m2, bump);
  kit_cg_builder_at(&b2, kit_cg_block_new(m2, bump));
  KitCgVal p = kit_cg_symaddr(&b2, ext->sym, 0);
  KitCgVal nv = kit_cg_binop(&b2, KIT_CG_OP_ADD, kit_cg_load(&b2, KIT_CG_I64, p, 8, KIT_CG_PROGRAM),
                             kit_cg_iconst(&b2, KIT_CG_I64, 1));
  kit_cg_store(&b2, nv, p, 8, KIT_CG_PROGRAM);
  kit_cg_ret(&b2, nv);

  for (int fast = 0; fast < 2; fast++) {
    KitJit *j = kit_jit_new(fast ? 2 | KIT_JIT_FAST_CODEGEN : 0, NULL, NULL, stderr);
    assert_non_null(j);
    assert_int_equal(kit_jit_add(j, M, stderr), 0);
    assert_int_equal(kit_jit_add(j, m2, stderr), 0);
    BumpFn bumpf = (BumpFn)(uintptr_t)kit_jit_lookup(j, "tv_bump");
    void *(*addr)(void) = (void *(*)(void))(uintptr_t)kit_jit_lookup(j, "tv_addr");
    assert_non_null(bumpf);
    assert_non_null(addr);
    assert_int_equal(bumpf(), 6);
    assert_int_equal(bumpf(), 7);
    pthread_t t;
    void *res;
    assert_int_equal(pthread_create(&t, NULL, bump_thread, (void *)(uintptr_t)bumpf), 0);
    assert_int_equal(pthread_join(t, &res), 0);
    assert_int_equal((uintptr_t)res, 607); /* the thread's own copy starts at 5 */
    assert_int_equal(bumpf(), 8);
    assert_int_equal(*(int64_t *)addr(), 8);
    assert_int_equal(*(int64_t *)kit_jit_lookup(j, "tv"), 5); /* the image stays as it was */
    KitCgScalar ret[2];
    assert_int_equal(kit_jit_call(j, M, isnull, NULL, 0, ret), 0);
    assert_int_equal(ret[0].i, 1);
    kit_jit_free(j);
  }
  kit_cg_module_free(m2);
}

typedef struct S3 { long a, b, c; } S3;
static S3 host_combine(S3 x, long k, signed char t, S3 y) {
  return (S3){x.a * k + y.a, x.b + y.b * t, x.c - y.c};
}

/* Call-site ABI attributes (argattrs) on an indirect call from jitted code to
 * a function the C compiler built (no declaration to take them from): an
 * sret return, two byval structs, a signext i8; the result must equal the
 * direct C call's. */
static void test_indirect_call_argattrs(void **st) {
  (void)st;
  static const char text[] =
      "module \"aa\"\n"
      "func @apply(ptr, i64) -> i64 {\n"
      "  stack $0 size 24 align 8\n  stack $1 size 24 align 8\n  stack $2 size 24 align 8\n"
      "b0:\n"
      "  %3 = stackaddr $0\n  %4 = stackaddr $1\n  %5 = stackaddr $2\n"
      "  %6 = const i64 8\n  %7 = const i64 16\n  %8 = const i8 -3\n"
      "  store i64 %2, %4\n  %9 = ptradd %4, %6\n  %10 = const i64 20\n  store i64 %10, %9\n"
      "  %11 = ptradd %4, %7\n  %12 = const i64 300\n  store i64 %12, %11\n"
      "  %13 = const i64 -4\n  store i64 %13, %5\n  %14 = ptradd %5, %6\n  %15 = const i64 50\n"
      "  store i64 %15, %14\n  %16 = ptradd %5, %7\n  %17 = const i64 600\n  store i64 %17, %16\n"
      "  calli void %1(%3 sret, %4 byval(24, 8), %2, %8 signext, %5 byval(24, 8))\n"
      "  %18 = load i64 %3\n  %19 = ptradd %3, %6\n  %20 = load i64 %19\n  %21 = ptradd %3, %7\n"
      "  %22 = load i64 %21\n  %23 = const i64 1000000\n  %24 = mul i64 %18, %23\n"
      "  %25 = const i64 1000\n  %26 = mul i64 %20, %25\n  %27 = add i64 %24, %26\n  %28 = add i64 %27, %22\n"
      "  ret %28\n"
      "}\n";
  KitCgModule *m = kit_cg_parse(text, sizeof text - 1, "aa", stderr);
  assert_non_null(m);
  assert_int_equal(kit_cg_verify(m, stderr), 0);
  S3 r = host_combine((S3){7, 20, 300}, 7, -3, (S3){-4, 50, 600});
  long want = r.a * 1000000 + r.b * 1000 + r.c;
  for (int opt = 0; opt <= 2; opt += 2) {
    KitJit *j = kit_jit_new(opt, NULL, NULL, stderr);
    assert_int_equal(kit_jit_add(j, m, stderr), 0);
    long (*apply)(S3 (*)(S3, long, signed char, S3), long) =
        (long (*)(S3 (*)(S3, long, signed char, S3), long))(uintptr_t)kit_jit_lookup(j, "apply");
    assert_non_null(apply);
    assert_int_equal(apply(host_combine, 7), want);
    kit_jit_free(j);
  }
  kit_cg_module_free(m);
}

static int ctor_log[4], nlog;
static void note(int64_t v) { ctor_log[nlog++ & 3] = (int)v; }
static void *note_resolver(void *user, const char *name) {
  (void)user;
  return strcmp(name, "note") == 0 ? (void *)note : NULL;
}

static void test_ctors_in_priority_order(void **st) {
  (void)st;
  KitCgType i64 = KIT_CG_I64;
  KitCgFunc *nf = kit_cg_func_declare(M, "note", KIT_CG_VOID, &i64, 1, false);
  static const int prio[3] = {300, 101, 200};
  for (int k = 0; k < 3; k++) {
    char name[8];
    snprintf(name, sizeof name, "c%d", k);
    KitCgFunc *c = begin(name, KIT_CG_VOID, NULL, 0);
    kit_cg_func_set_linkage(M, c, KIT_CG_LINK_INTERNAL);
    KitCgVal v = kit_cg_iconst(&B, KIT_CG_I64, (uint64_t)prio[k]);
    kit_cg_call(&B, nf->sym, KIT_CG_VOID, &v, 1);
    kit_cg_ret(&B, 0);
    if (k < 2) kit_cg_add_ctor(M, c->sym, prio[k]);
    else kit_cg_add_dtor(M, c->sym, prio[k]);
  }
  KitJit *j = kit_jit_new(0, note_resolver, NULL, stderr);
  assert_int_equal(kit_jit_add(j, M, stderr), 0);
  nlog = 0;
  assert_int_equal(kit_jit_run_ctors(j, stderr), 0);
  assert_int_equal(nlog, 2);
  assert_int_equal(ctor_log[0], 101);
  assert_int_equal(ctor_log[1], 300);
  assert_int_equal(kit_jit_run_ctors(j, stderr), 0); /* once only */
  assert_int_equal(nlog, 2);
  assert_int_equal(kit_jit_run_dtors(j, stderr), 0);
  assert_int_equal(nlog, 3);
  assert_int_equal(ctor_log[2], 200);
  kit_jit_free(j);
}

static void test_bad_input_is_an_error(void **st) {
  (void)st;
  /* a block without a terminator, a call with the wrong arity */
  KitCgType i64 = KIT_CG_I64;
  KitCgFunc *callee = kit_cg_func_declare(M, "ext", KIT_CG_I64, &i64, 1, false);
  begin("bad", KIT_CG_I64, NULL, 0);
  kit_cg_call(&B, callee->sym, KIT_CG_I64, NULL, 0);
  KitJit *j = kit_jit_new(0, NULL, NULL, NULL);
  assert_int_not_equal(kit_jit_add(j, M, NULL), 0);
  kit_jit_free(j);
  /* ill-typed ops LLVM's builder would crash on: a message each */
  KitCgModule *m3 = kit_cg_module_new("ill");
  KitCgFunc *f3 = kit_cg_func_declare(m3, "ill", KIT_CG_VOID, NULL, 0, false);
  KitCgBuilder b3;
  kit_cg_builder_init(&b3, m3, f3);
  kit_cg_builder_at(&b3, kit_cg_block_new(m3, f3));
  KitCgVal c32 = kit_cg_iconst(&b3, KIT_CG_I32, 1), c64 = kit_cg_iconst(&b3, KIT_CG_I64, 2);
  kit_cg_binop(&b3, KIT_CG_OP_ADD, c32, c64);
  kit_cg_conv(&b3, KIT_CG_OP_ZEXT, KIT_CG_I8, c64);
  kit_cg_load(&b3, KIT_CG_I32, c32, 0, KIT_CG_PROGRAM);
  kit_cg_ret(&b3, 0);
  char buf3[2048] = {0};
  FILE *err3 = fmemopen(buf3, sizeof buf3 - 1, "w");
  KitLlvmOptions o3 = {.target = KIT_TARGET_X86_64_LINUX};
  assert_int_not_equal(kit_llvm_emit(m3, &o3, "/dev/null", false, err3), 0);
  fclose(err3);
  assert_non_null(strstr(buf3, "add: operand types differ"));
  assert_non_null(strstr(buf3, "zext: impossible conversion"));
  assert_non_null(strstr(buf3, "load: operand is not a pointer"));
  kit_cg_module_free(m3);
  /* f80 has no riscv64 lowering: a message, not a crash */
  KitCgModule *m2 = kit_cg_module_new("rv");
  KitCgType f80 = KIT_CG_F80;
  KitCgFunc *f = kit_cg_func_declare(m2, "x", KIT_CG_F80, &f80, 1, false);
  KitCgBuilder b2;
  kit_cg_builder_init(&b2, m2, f);
  kit_cg_builder_at(&b2, kit_cg_block_new(m2, f));
  kit_cg_ret(&b2, kit_cg_param(f, 0));
  KitLlvmOptions o = {.target = KIT_TARGET_RISCV64_LINUX};
  char buf[4096] = {0};
  FILE *err = fmemopen(buf, sizeof buf - 1, "w");
  assert_int_not_equal(kit_llvm_emit(m2, &o, "/dev/null", false, err), 0);
  fclose(err);
  assert_non_null(strstr(buf, "f80"));
  kit_cg_module_free(m2);
}

/* modules added together are linked into one batch: calls across them work,
 * a second definition of a symbol is refused, adding after a lookup works */
static void test_batched_modules(void **st) {
  (void)st;
  KitCgType i64 = KIT_CG_I64;
  KitCgModule *a = kit_cg_module_new("a"), *b = kit_cg_module_new("b"), *c = kit_cg_module_new("c");
  KitCgModule *d = kit_cg_module_new("d");
  KitCgBuilder bb;
  KitCgFunc *inc = kit_cg_func_declare(a, "inc", KIT_CG_I64, &i64, 1, false);
  kit_cg_builder_init(&bb, a, inc);
  kit_cg_builder_at(&bb, kit_cg_block_new(a, inc));
  kit_cg_ret(&bb, kit_cg_binop(&bb, KIT_CG_OP_ADD, kit_cg_param(inc, 0), kit_cg_iconst(&bb, KIT_CG_I64, 1)));
  /* b: twice_inc(x) = inc(inc(x)), inc only declared here */
  KitCgFunc *decl = kit_cg_func_declare(b, "inc", KIT_CG_I64, &i64, 1, false);
  KitCgFunc *tw = kit_cg_func_declare(b, "twice_inc", KIT_CG_I64, &i64, 1, false);
  kit_cg_builder_init(&bb, b, tw);
  kit_cg_builder_at(&bb, kit_cg_block_new(b, tw));
  KitCgVal x = kit_cg_param(tw, 0);
  x = kit_cg_call(&bb, decl->sym, KIT_CG_I64, &x, 1);
  kit_cg_ret(&bb, kit_cg_call(&bb, decl->sym, KIT_CG_I64, &x, 1));
  /* c: a second @inc */
  KitCgFunc *inc2 = kit_cg_func_declare(c, "inc", KIT_CG_I64, &i64, 1, false);
  kit_cg_builder_init(&bb, c, inc2);
  kit_cg_builder_at(&bb, kit_cg_block_new(c, inc2));
  kit_cg_ret(&bb, kit_cg_param(inc2, 0));
  /* d: uses twice_inc after the first batch was compiled */
  KitCgFunc *decl2 = kit_cg_func_declare(d, "twice_inc", KIT_CG_I64, &i64, 1, false);
  KitCgFunc *th = kit_cg_func_declare(d, "thrice_inc", KIT_CG_I64, &i64, 1, false);
  kit_cg_builder_init(&bb, d, th);
  kit_cg_builder_at(&bb, kit_cg_block_new(d, th));
  x = kit_cg_param(th, 0);
  x = kit_cg_call(&bb, decl2->sym, KIT_CG_I64, &x, 1);
  kit_cg_ret(&bb, kit_cg_binop(&bb, KIT_CG_OP_ADD, x, kit_cg_iconst(&bb, KIT_CG_I64, 1)));
  for (int opt = 0; opt <= 2; opt += 2) {
    KitJit *j = kit_jit_new(opt, NULL, NULL, stderr);
    assert_int_equal(kit_jit_add(j, b, stderr), 0); /* user before definer */
    assert_int_equal(kit_jit_add(j, a, stderr), 0);
    char buf[512] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    assert_int_not_equal(kit_jit_add(j, c, err), 0);
    fclose(err);
    assert_non_null(strstr(buf, "inc"));
    int64_t (*f)(int64_t) = kit_jit_lookup(j, "twice_inc");
    assert_non_null(f);
    assert_int_equal(f(40), 42);
    assert_int_equal(kit_jit_add(j, d, stderr), 0);
    int64_t (*g)(int64_t) = kit_jit_lookup(j, "thrice_inc");
    assert_non_null(g);
    assert_int_equal(g(40), 43);
    assert_null(kit_jit_lookup(j, "no_such_symbol"));
    kit_jit_free(j);
  }
  kit_cg_module_free(a);
  kit_cg_module_free(b);
  kit_cg_module_free(c);
  kit_cg_module_free(d);
}

/* frameaddr/retaddr, select, fcmp uno, memmove overlap, volatile, lifetime,
 * va.copy: misc(p, x, ...) returns a bitmask of checks that held */
static void test_misc_ops(void **st) {
  (void)st;
  KitCgType ps[2] = {KIT_CG_PTR, KIT_CG_F64};
  F = kit_cg_func_declare(M, "misc", KIT_CG_I32, ps, 2, true);
  kit_cg_builder_init(&B, M, F);
  kit_cg_builder_at(&B, kit_cg_block_new(M, F));
  KitCgVal p = kit_cg_param(F, 0), x = kit_cg_param(F, 1);
  KitCgVal zero = kit_cg_iconst(&B, KIT_CG_I64, 0);
  KitCgVal bit[6];
  KitCgVal fa = kit_cg_emit(&B, KIT_CG_OP_FRAMEADDR, KIT_CG_PTR, NULL, 0)->id;
  bit[0] = kit_cg_cmp(&B, KIT_CG_NE, kit_cg_conv(&B, KIT_CG_OP_PTRTOINT, KIT_CG_I64, fa), zero);
  KitCgVal ra = kit_cg_emit(&B, KIT_CG_OP_RETADDR, KIT_CG_PTR, NULL, 0)->id;
  bit[1] = kit_cg_cmp(&B, KIT_CG_NE, kit_cg_conv(&B, KIT_CG_OP_PTRTOINT, KIT_CG_I64, ra), zero);
  bit[2] = kit_cg_cmp(&B, KIT_CG_FUNO, x, x); /* x is NaN */
  /* memmove p[0..7] to p[1..8]: "abcdefgh" -> "aabcdefgh" */
  KitCgVal one = kit_cg_iconst(&B, KIT_CG_I64, 1);
  kit_cg_memop(&B, KIT_CG_OP_MEMMOVE, kit_cg_ptradd(&B, p, one), p, kit_cg_iconst(&B, KIT_CG_I64, 8), KIT_CG_PROGRAM);
  KitCgVal c8 = kit_cg_load(&B, KIT_CG_I8, kit_cg_ptradd(&B, p, kit_cg_iconst(&B, KIT_CG_I64, 8)), 1, KIT_CG_PROGRAM);
  kit_cg_def(F, c8)->flags |= KIT_CG_F_VOLATILE;
  bit[3] = kit_cg_cmp(&B, KIT_CG_EQ, c8, kit_cg_iconst(&B, KIT_CG_I8, 'h'));
  /* va.copy, then read the first variadic i32 from the copy */
  uint32_t ap = kit_cg_stack_new(M, F, 24, 8, 0), ap2 = kit_cg_stack_new(M, F, 24, 8, 0);
  KitCgInst *ls = kit_cg_emit(&B, KIT_CG_OP_LIFETIME_START, KIT_CG_VOID, NULL, 0);
  ls->aux = ap2;
  KitCgVal a1 = kit_cg_stackaddr(&B, ap), a2 = kit_cg_stackaddr(&B, ap2);
  kit_cg_emit(&B, KIT_CG_OP_VASTART, KIT_CG_VOID, &a1, 1);
  KitCgVal cp[2] = {a2, a1};
  kit_cg_emit(&B, KIT_CG_OP_VACOPY, KIT_CG_VOID, cp, 2);
  KitCgVal v = kit_cg_emit(&B, KIT_CG_OP_VAARG, KIT_CG_I32, &a2, 1)->id;
  kit_cg_emit(&B, KIT_CG_OP_VAEND, KIT_CG_VOID, &a2, 1);
  kit_cg_emit(&B, KIT_CG_OP_VAEND, KIT_CG_VOID, &a1, 1);
  KitCgInst *le = kit_cg_emit(&B, KIT_CG_OP_LIFETIME_END, KIT_CG_VOID, NULL, 0);
  le->aux = ap2;
  bit[4] = kit_cg_cmp(&B, KIT_CG_EQ, v, kit_cg_iconst(&B, KIT_CG_I32, 77));
  KitCgVal sel = kit_cg_select(&B, bit[4], kit_cg_iconst(&B, KIT_CG_I32, 5), kit_cg_iconst(&B, KIT_CG_I32, 6));
  bit[5] = kit_cg_cmp(&B, KIT_CG_EQ, sel, kit_cg_iconst(&B, KIT_CG_I32, 5));
  KitCgVal mask = kit_cg_iconst(&B, KIT_CG_I32, 0);
  for (int i = 0; i < 6; i++) {
    KitCgVal b = kit_cg_binop(&B, KIT_CG_OP_SHL, kit_cg_conv(&B, KIT_CG_OP_ZEXT, KIT_CG_I32, bit[i]),
                              kit_cg_iconst(&B, KIT_CG_I32, (uint64_t)i));
    mask = kit_cg_binop(&B, KIT_CG_OP_OR, mask, b);
  }
  kit_cg_ret(&B, mask);
  assert_int_equal(kit_cg_verify(M, stderr), 0);
  for (int opt = 0; opt <= 2; opt += 2) {
    KitJit *j = jit_of(opt);
    int (*fn)(char *, double, ...) = kit_jit_lookup(j, "misc");
    char buf[16] = "abcdefgh";
    assert_int_equal(fn(buf, NAN, 77), 0x3f);
    assert_string_equal(buf, "aabcdefgh");
    kit_jit_free(j);
  }
}

/* a chain of 7 modules (an odd count: the pairwise merge has a straggler),
 * chain_k(x) = chain_{k-1}(x) + k, all added before the first lookup */
static void test_many_pending_modules(void **st) {
  (void)st;
  KitCgModule *mods[7];
  KitCgType i64 = KIT_CG_I64;
  KitJit *j = kit_jit_new(0, NULL, NULL, stderr);
  for (int k = 0; k < 7; k++) {
    char name[16], prev[16];
    snprintf(name, sizeof name, "chain_%d", k);
    snprintf(prev, sizeof prev, "chain_%d", k - 1);
    KitCgModule *m = mods[k] = kit_cg_module_new(name);
    KitCgFunc *f = kit_cg_func_declare(m, name, KIT_CG_I64, &i64, 1, false);
    KitCgBuilder b;
    kit_cg_builder_init(&b, m, f);
    kit_cg_builder_at(&b, kit_cg_block_new(m, f));
    KitCgVal x = kit_cg_param(f, 0);
    if (k > 0) x = kit_cg_call(&b, kit_cg_func_declare(m, prev, KIT_CG_I64, &i64, 1, false)->sym, KIT_CG_I64, &x, 1);
    kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_ADD, x, kit_cg_iconst(&b, KIT_CG_I64, (uint64_t)k)));
    assert_int_equal(kit_jit_add(j, m, stderr), 0);
  }
  int64_t (*f)(int64_t) = kit_jit_lookup(j, "chain_6");
  assert_non_null(f);
  assert_int_equal(f(100), 100 + 21);
  kit_jit_free(j);
  for (int k = 0; k < 7; k++) kit_cg_module_free(mods[k]);
}

static void test_print_ir(void **st) {
  (void)st;
  KitCgType ps[2] = {KIT_CG_I32, KIT_CG_I32};
  KitCgFunc *callee = kit_cg_func_declare(M, "callee", KIT_CG_I32, ps, 2, false);
  callee->params[0].attrs = KIT_CG_PA_ZEXT;
  callee->attrs = KIT_CG_FA_COLD | KIT_CG_FA_NOUNWIND;
  begin("f", KIT_CG_I32, ps, 2);
  F->attrs = KIT_CG_FA_NOINLINE;
  KitCgVal r = kit_cg_binop(&B, KIT_CG_OP_SHL, kit_cg_param(F, 0), kit_cg_param(F, 1));
  KitCgVal s2 = kit_cg_binop(&B, KIT_CG_OP_ADD, r, kit_cg_param(F, 1));
  kit_cg_def(F, s2)->flags |= KIT_CG_F_NSW;
  KitCgBlkId t = kit_cg_block_new(M, F), e = kit_cg_block_new(M, F);
  kit_cg_condbr(&B, kit_cg_cmp(&B, KIT_CG_SLT, s2, r), t, e);
  F->blocks[0].insts[F->blocks[0].ninsts - 1].flags |= KIT_CG_F_LIKELY;
  kit_cg_builder_at(&B, t);
  KitCgVal args[2] = {r, s2};
  KitCgVal c = kit_cg_call(&B, callee->sym, KIT_CG_I32, args, 2);
  kit_cg_def(F, c)->flags |= KIT_CG_F_TAIL;
  kit_cg_ret(&B, c);
  kit_cg_builder_at(&B, e);
  kit_cg_emit(&B, KIT_CG_OP_TRAP, KIT_CG_VOID, NULL, 0);
  KitLlvmOptions o = {.target = KIT_TARGET_X86_64_LINUX, .opt_level = 0};
  char *text = NULL;
  size_t n = 0;
  FILE *out = open_memstream(&text, &n);
  assert_int_equal(kit_llvm_print_ir(M, &o, out, stderr), 0);
  fclose(out);
  assert_non_null(strstr(text, "and i32"));             /* amount masked to the width */
  assert_non_null(strstr(text, "\"frame-pointer\"=\"all\""));
  assert_non_null(strstr(text, "x86_64-pc-linux-gnu"));
  assert_non_null(strstr(text, "add nsw i32"));
  assert_non_null(strstr(text, "!\"branch_weights\", i32 2000, i32 1"));
  assert_non_null(strstr(text, "tail call i32 @callee(i32 zeroext"));
  assert_non_null(strstr(text, "declare i32 @callee(i32 zeroext, i32) #"));
  assert_non_null(strstr(text, "call void @llvm.trap()"));
  assert_non_null(strstr(text, "noinline"));
  assert_non_null(strstr(text, "cold"));
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_int_arith, setup, teardown),
      cmocka_unit_test_setup_teardown(test_shifts_modulo_width, setup, teardown),
      cmocka_unit_test_setup_teardown(test_overflow_ops, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bit_ops, setup, teardown),
      cmocka_unit_test_setup_teardown(test_saturating_conversions, setup, teardown),
      cmocka_unit_test_setup_teardown(test_float_ops, setup, teardown),
      cmocka_unit_test_setup_teardown(test_i128, setup, teardown),
      cmocka_unit_test_setup_teardown(test_f80, setup, teardown),
      cmocka_unit_test_setup_teardown(test_two_results, setup, teardown),
      cmocka_unit_test_setup_teardown(test_memory_and_control, setup, teardown),
      cmocka_unit_test_setup_teardown(test_atomics, setup, teardown),
      cmocka_unit_test_setup_teardown(test_varargs, setup, teardown),
      cmocka_unit_test_setup_teardown(test_globals_relocs, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ctors_in_priority_order, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_input_is_an_error, setup, teardown),
      cmocka_unit_test_setup_teardown(test_batched_modules, setup, teardown),
      cmocka_unit_test_setup_teardown(test_misc_ops, setup, teardown),
      cmocka_unit_test_setup_teardown(test_many_pending_modules, setup, teardown),
      cmocka_unit_test_setup_teardown(test_print_ir, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tls_weak_fastcg, setup, teardown),
      cmocka_unit_test_setup_teardown(test_indirect_call_argattrs, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
