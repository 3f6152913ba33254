/* tests/llvm/test_diff.c — differential test of the two executors: every
 * integer, float and conversion op over a grid of types and edge values,
 * run on the CG interpreter and through the LLVM JIT (opt 0 and 2); results
 * must agree bit for bit (to the result type's width). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "kit/cg_exec.h"

typedef struct Case {
  KitCgFunc *f;
  KitCgOp op;
  KitCgType from, to;
} Case;

static const KitCgOp int_bin[] = {
    KIT_CG_OP_ADD,  KIT_CG_OP_SUB,  KIT_CG_OP_MUL,   KIT_CG_OP_SDIV,  KIT_CG_OP_UDIV,  KIT_CG_OP_SREM,
    KIT_CG_OP_UREM, KIT_CG_OP_AND,  KIT_CG_OP_OR,    KIT_CG_OP_XOR,   KIT_CG_OP_SHL,   KIT_CG_OP_LSHR,
    KIT_CG_OP_ASHR, KIT_CG_OP_SMIN, KIT_CG_OP_SMAX,  KIT_CG_OP_UMIN,  KIT_CG_OP_UMAX,  KIT_CG_OP_SADDO,
    KIT_CG_OP_UADDO, KIT_CG_OP_SSUBO, KIT_CG_OP_USUBO, KIT_CG_OP_SMULO, KIT_CG_OP_UMULO};
static const KitCgOp int_un[] = {KIT_CG_OP_NEG, KIT_CG_OP_NOT,    KIT_CG_OP_BSWAP,
                                 KIT_CG_OP_CLZ, KIT_CG_OP_CTZ,    KIT_CG_OP_POPCNT};
static const KitCgType int_tys[] = {KIT_CG_I8, KIT_CG_I16, KIT_CG_I32, KIT_CG_I64};
static const uint64_t int_vals[] = {0, 1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 0x7f, 0x80, 0xff, 0x7fff, 0x8000,
                                    0x7fffffff, 0x80000000u, 0xffffffffu, 0x123456789abcdef0ull,
                                    0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, (uint64_t)-7};
static const KitCgOp flt_bin[] = {KIT_CG_OP_FADD, KIT_CG_OP_FSUB, KIT_CG_OP_FMUL, KIT_CG_OP_FDIV,
                                  KIT_CG_OP_FMIN, KIT_CG_OP_FMAX, KIT_CG_OP_FCOPYSIGN};
static const double flt_vals[] = {0.0, -0.0, 1.0, -1.5, 0.1, 3e9, -3e9, 1e20, -1e20, 255.9, 65536.5, 1e-310,
                                  INFINITY, -INFINITY, NAN};
static const KitCgOp convs[] = {KIT_CG_OP_FPTOSI, KIT_CG_OP_FPTOUI};

static KitCgModule *M;
static Case cases[4096];
static unsigned ncases;

static uint64_t mask(KitCgType t, uint64_t v) {
  unsigned b = kit_cg_type_bits(t);
  return b >= 64 ? v : v & ((1ull << b) - 1);
}

static void add_case(KitCgOp op, KitCgType from, KitCgType to, unsigned nargs) {
  char name[64];
  snprintf(name, sizeof name, "%s_%s_%s", kit_cg_op_info[op].name, kit_cg_type_name(from), kit_cg_type_name(to));
  KitCgType ps[2] = {from, from};
  KitCgFunc *f = kit_cg_func_declare(M, name, to, ps, nargs, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, M, f);
  kit_cg_builder_at(&b, kit_cg_block_new(M, f));
  KitCgVal r;
  if (kit_cg_op_info[op].flags & KIT_CGO_CONV) r = kit_cg_conv(&b, op, to, kit_cg_param(f, 0));
  else if (nargs == 1) r = kit_cg_unop(&b, op, kit_cg_param(f, 0));
  else r = kit_cg_binop(&b, op, kit_cg_param(f, 0), kit_cg_param(f, 1));
  f->ret[0] = (uint8_t)kit_cg_val_type(f, r);
  kit_cg_ret(&b, r);
  cases[ncases++] = (Case){f, op, from, f->ret[0]};
}

static int setup(void **st) {
  (void)st;
  M = kit_cg_module_new("diff");
  for (size_t t = 0; t < sizeof int_tys / sizeof *int_tys; t++) {
    for (size_t i = 0; i < sizeof int_bin / sizeof *int_bin; i++) add_case(int_bin[i], int_tys[t], int_tys[t], 2);
    for (size_t i = 0; i < sizeof int_un / sizeof *int_un; i++)
      if (int_un[i] != KIT_CG_OP_BSWAP || int_tys[t] != KIT_CG_I8) /* the verifier wants >= 16 bits */
        add_case(int_un[i], int_tys[t], int_tys[t], 1);
  }
  KitCgType ftys[2] = {KIT_CG_F32, KIT_CG_F64};
  for (int t = 0; t < 2; t++) {
    for (size_t i = 0; i < sizeof flt_bin / sizeof *flt_bin; i++) add_case(flt_bin[i], ftys[t], ftys[t], 2);
    add_case(KIT_CG_OP_FSQRT, ftys[t], ftys[t], 1);
    add_case(KIT_CG_OP_FABS, ftys[t], ftys[t], 1);
    for (size_t c = 0; c < sizeof convs / sizeof *convs; c++)
      for (size_t it = 0; it < sizeof int_tys / sizeof *int_tys; it++) add_case(convs[c], ftys[t], int_tys[it], 1);
  }
  for (size_t it = 0; it < sizeof int_tys / sizeof *int_tys; it++) {
    add_case(KIT_CG_OP_SITOFP, int_tys[it], KIT_CG_F64, 1);
    add_case(KIT_CG_OP_UITOFP, int_tys[it], KIT_CG_F32, 1);
  }
  assert_int_equal(kit_cg_verify(M, stderr), 0);
  return 0;
}

static int teardown(void **st) {
  (void)st;
  kit_cg_module_free(M);
  return 0;
}

/* CG leaves these undefined; the executors may differ */
static bool undefined(const Case *c, uint64_t a, uint64_t b) {
  if (c->op != KIT_CG_OP_SDIV && c->op != KIT_CG_OP_SREM && c->op != KIT_CG_OP_UDIV && c->op != KIT_CG_OP_UREM)
    return false;
  unsigned bits = kit_cg_type_bits(c->from);
  uint64_t min = 1ull << (bits - 1);
  if (mask(c->from, b) == 0) return true;
  bool signed_op = c->op == KIT_CG_OP_SDIV || c->op == KIT_CG_OP_SREM;
  return signed_op && mask(c->from, a) == min && mask(c->from, b) == mask(c->from, ~0ull);
}

static uint64_t bits_of(KitCgType t, const KitCgScalar *s) {
  if (t == KIT_CG_F32) {
    uint32_t u;
    memcpy(&u, &s->f32, 4);
    return u;
  }
  if (t == KIT_CG_F64) {
    uint64_t u;
    memcpy(&u, &s->f64, 8);
    return u;
  }
  return mask(t, s->i);
}

static bool is_nan(KitCgType t, const KitCgScalar *s) {
  return (t == KIT_CG_F32 && isnan(s->f32)) || (t == KIT_CG_F64 && isnan(s->f64));
}

static KitCgScalar arg_of(KitCgType t, unsigned i) {
  KitCgScalar s;
  memset(&s, 0, sizeof s);
  unsigned nf = sizeof flt_vals / sizeof *flt_vals;
  if (t == KIT_CG_F32) s.f32 = (float)flt_vals[i % nf];
  else if (t == KIT_CG_F64) s.f64 = flt_vals[i % nf];
  else s.i = mask(t, int_vals[i % (sizeof int_vals / sizeof *int_vals)]);
  return s;
}

static void compare(int opt) {
  KitInterp *ip = kit_interp_new(M, NULL, NULL, stderr);
  assert_non_null(ip);
  KitJit *j = kit_jit_new(opt, NULL, NULL, stderr);
  assert_non_null(j);
  assert_int_equal(kit_jit_add(j, M, stderr), 0);
  unsigned nchecked = 0, nbad = 0;
  for (unsigned k = 0; k < ncases; k++) {
    const Case *c = &cases[k];
    unsigned nargs = c->f->nparams;
    unsigned nvals = kit_cg_type_is_float(c->from) ? sizeof flt_vals / sizeof *flt_vals
                                                    : sizeof int_vals / sizeof *int_vals;
    for (unsigned x = 0; x < nvals; x++)
      for (unsigned y = 0; y < (nargs == 2 ? nvals : 1); y++) {
        KitCgScalar args[2] = {arg_of(c->from, x), arg_of(c->from, y)}, ri[2], rj[2];
        if (undefined(c, args[0].i, args[1].i)) continue;
        memset(ri, 0, sizeof ri);
        memset(rj, 0, sizeof rj);
        assert_int_equal(kit_interp_call(ip, c->f, args, nargs, ri), 0);
        assert_int_equal(kit_jit_call(j, M, c->f, args, nargs, rj), 0);
        nchecked++;
        if (is_nan(c->to, ri) && is_nan(c->to, rj)) continue; /* NaN payloads may differ */
        /* minNum/maxNum of +0 and -0 may return either (IEEE 754-2008, LLVM) */
        if ((c->op == KIT_CG_OP_FMIN || c->op == KIT_CG_OP_FMAX) && kit_cg_type_is_float(c->from) &&
            (c->from == KIT_CG_F32 ? args[0].f32 == 0 && args[1].f32 == 0 : args[0].f64 == 0 && args[1].f64 == 0))
          continue;
        if (bits_of(c->to, ri) != bits_of(c->to, rj)) {
          if (nbad++ < 20)
            fprintf(stderr, "diff: opt %d %s(%#llx, %#llx): interp %#llx, llvm %#llx\n", opt,
                    kit_cg_func_name(M, c->f), (unsigned long long)bits_of(c->from, &args[0]),
                    (unsigned long long)bits_of(c->from, &args[1]), (unsigned long long)bits_of(c->to, ri),
                    (unsigned long long)bits_of(c->to, rj));
        }
      }
  }
  kit_jit_free(j);
  kit_interp_free(ip);
  assert_true(nchecked > 10000);
  assert_int_equal(nbad, 0);
}

static void test_diff_opt0(void **st) {
  (void)st;
  compare(0);
}

static void test_diff_opt2(void **st) {
  (void)st;
  compare(2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_diff_opt0),
      cmocka_unit_test(test_diff_opt2),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
