/* tests/interp/helpers.h — small builders shared by the interpreter tests:
 * one-op functions, a quiet error stream, scalar constructors. */
#ifndef KIT_TEST_INTERP_HELPERS_H
#define KIT_TEST_INTERP_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kit/cg_exec.h"

static inline KitCgScalar I(uint64_t v) {
  KitCgScalar s;
  memset(&s, 0, sizeof s);
  s.i = v;
  return s;
}
static inline KitCgScalar D(double v) {
  KitCgScalar s;
  memset(&s, 0, sizeof s);
  s.f64 = v;
  return s;
}
static inline KitCgScalar F(float v) {
  KitCgScalar s;
  memset(&s, 0, sizeof s);
  s.f32 = v;
  return s;
}
static inline KitCgScalar L(long double v) {
  KitCgScalar s;
  memset(&s, 0, sizeof s);
  s.f80 = v;
  return s;
}
static inline KitCgScalar Q(unsigned __int128 v) {
  KitCgScalar s;
  memset(&s, 0, sizeof s);
  s.i128 = v;
  return s;
}

/* messages from expected traps go here, so they can be checked */
static char errbuf[4096];
static FILE *errf;
static inline FILE *errstream(void) {
  if (errf) fclose(errf);
  memset(errbuf, 0, sizeof errbuf);
  errf = fmemopen(errbuf, sizeof errbuf - 1, "w");
  setvbuf(errf, NULL, _IONBF, 0);
  return errf;
}

/* every module a test builds must pass the verifier before it runs */
static inline KitInterp *new_interp(KitCgModule *m, KitCgResolver r, void *user, FILE *err) {
  assert_int_equal(kit_cg_verify(m, stderr), 0);
  return kit_interp_new(m, r, user, err);
}

static inline KitCgType result_of(KitCgOp op, KitCgType t) {
  unsigned fl = kit_cg_op_info[op].flags;
  if (fl & KIT_CGO_CMP) return KIT_CG_I1;
  if (op >= KIT_CG_OP_SADDO && op <= KIT_CG_OP_UMULO) return KIT_CG_I1;
  return t;
}

/* Builds f(x: t, y: t) = op(x, y) (pred for comparisons; unary ops ignore y),
 * runs it, returns the trap status; result in *out. */
static inline int run_op(KitCgOp op, KitCgPred pred, KitCgType t, KitCgScalar x, KitCgScalar y, KitCgScalar *out) {
  KitCgModule *m = kit_cg_module_new("t");
  KitCgType ps[2] = {t, t};
  KitCgType rt = result_of(op, t);
  KitCgFunc *f = kit_cg_func_declare(m, "f", rt, ps, 2, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_block_new(m, f);
  KitCgVal r;
  if (kit_cg_op_info[op].flags & KIT_CGO_CMP)
    r = kit_cg_cmp(&b, pred, 1, 2);
  else if (kit_cg_op_info[op].nargs == 1)
    r = kit_cg_unop(&b, op, 1);
  else
    r = kit_cg_binop(&b, op, 1, 2);
  kit_cg_ret(&b, r);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  assert_non_null(ip);
  KitCgScalar args[2] = {x, y}, ret[2];
  memset(ret, 0, sizeof ret);
  int rc = kit_interp_call(ip, f, args, 2, ret);
  *out = ret[0];
  kit_interp_free(ip);
  kit_cg_module_free(m);
  return rc;
}

static inline uint64_t op_i(KitCgOp op, KitCgType t, uint64_t x, uint64_t y) {
  KitCgScalar r;
  assert_int_equal(run_op(op, 0, t, I(x), I(y), &r), 0);
  return r.i;
}

static inline uint64_t cmp_i(KitCgPred p, KitCgType t, uint64_t x, uint64_t y) {
  KitCgScalar r;
  assert_int_equal(run_op(KIT_CG_OP_ICMP, p, t, I(x), I(y), &r), 0);
  return r.i;
}

/* f(x: from) = conv(x) -> to */
static inline int run_conv(KitCgOp op, KitCgType from, KitCgType to, KitCgScalar x, KitCgScalar *out) {
  KitCgModule *m = kit_cg_module_new("t");
  KitCgFunc *f = kit_cg_func_declare(m, "f", to, &from, 1, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_block_new(m, f);
  kit_cg_ret(&b, kit_cg_conv(&b, op, to, 1));
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  assert_non_null(ip);
  KitCgScalar ret[2];
  memset(ret, 0, sizeof ret);
  int rc = kit_interp_call(ip, f, &x, 1, ret);
  *out = ret[0];
  kit_interp_free(ip);
  kit_cg_module_free(m);
  return rc;
}

#endif
