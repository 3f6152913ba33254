/* frontends/c/lower_complex.c — lowering _Complex values. A complex value
 * travels as the address of its two parts (like a struct); each operation
 * loads the parts, computes them as gcc does (C11 Annex G: a real operand
 * leaves the other part alone; * and / with libgcc's __mul?c3/__div?c3 for
 * NaN and infinity recovery) and stores them into a temporary. */
#include <stdio.h>

#include "lower_expr.h"

typedef struct Cx {
  KitCgVal re, im;
} Cx;

static CType *elem_of(CType *t) { return type_unqual(t)->base; }

static KitCgVal part_addr(Lower *L, KitCgVal addr, CType *t, bool imag) {
  return imag ? kit_cg_ptradd(&L->b, addr, lower_i64(L, elem_of(t)->size)) : addr;
}

static Cx cx_load(Lower *L, KitCgVal addr, CType *t) {
  CType *el = elem_of(t);
  bool vol = (t->quals & Q_VOLATILE) != 0;
  Cx c;
  c.re = lower_load(L, addr, el, vol);
  c.im = lower_load(L, part_addr(L, addr, t, true), el, vol);
  return c;
}

/* a new temporary of complex type t holding c: the value of an operation.
 * Only this function's loads, stores and copies use it, all in bounds, so
 * ASan need not guard it */
static KitCgVal cx_temp(Lower *L, Cx c, CType *t) {
  CType *u = type_unqual(t);
  uint32_t so = kit_cg_stack_new(L->m, L->f, (uint64_t)u->size, (uint32_t)u->align, 0);
  L->f->stack[so].escapes = 0;
  KitCgVal a = kit_cg_stackaddr(&L->b, so);
  lower_store(L, c.re, a, u->base, false);
  lower_store(L, c.im, part_addr(L, a, u, true), u->base, false);
  return a;
}

/* the parts of a complex operand, loaded right after it is evaluated (an
 * lvalue's value is its address, which a later operand may write) */
static Cx cx_operand(Lower *L, CExpr *e) { return cx_load(L, lower_expr(L, e), e->type); }

static KitCgVal zero_of(Lower *L, CType *el) {
  KitCgType ct = abi_cg_type(el);
  return kit_cg_type_is_float(ct) ? kit_cg_fconst(&L->b, ct, 0) : kit_cg_iconst(&L->b, ct, 0);
}

static KitCgVal neg(Lower *L, KitCgVal v, CType *el) {
  if (type_is_float(el)) return kit_cg_unop(&L->b, KIT_CG_OP_FNEG, v);
  return kit_cg_binop(&L->b, KIT_CG_OP_SUB, zero_of(L, el), v);
}

static KitCgVal op(Lower *L, CExprKind k, KitCgVal a, KitCgVal b, CType *el) {
  return lower_arith(L, k, a, b, el, el);
}

/* ---- conversions ----------------------------------------------------------------- */

KitCgVal lower_complex_to_bool(Lower *L, KitCgVal v, CType *t) {
  CType *el = elem_of(t);
  Cx c = cx_load(L, v, t);
  bool f = type_is_float(el);
  KitCgVal z = zero_of(L, el);
  KitCgVal r = kit_cg_cmp(&L->b, f ? KIT_CG_FUNE : KIT_CG_NE, c.re, z);
  KitCgVal i = kit_cg_cmp(&L->b, f ? KIT_CG_FUNE : KIT_CG_NE, c.im, z);
  return kit_cg_binop(&L->b, KIT_CG_OP_OR, r, i);
}

KitCgVal lower_complex_convert(Lower *L, KitCgVal v, CType *from, CType *to) {
  CType *f = type_unqual(from), *t = type_unqual(to);
  if (t->kind == TY_VOID) return 0;
  if (t->kind == TY_BOOL) return kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I8, lower_complex_to_bool(L, v, f));
  if (!type_is_complex(t)) /* the real part (C11 6.3.1.7) */
    return lower_convert(L, lower_load(L, v, f->base, false), f->base, t);
  Cx c;
  if (type_is_complex(f)) {
    if (f->base->kind == t->base->kind) return v;
    c = cx_load(L, v, f);
    c.re = lower_convert(L, c.re, f->base, t->base);
    c.im = lower_convert(L, c.im, f->base, t->base);
  } else {
    c.re = lower_convert(L, v, f, t->base);
    c.im = zero_of(L, t->base);
  }
  return cx_temp(L, c, t);
}

/* ---- arithmetic ------------------------------------------------------------------- */

/* a + b or a - b. a_real/b_real: that operand is a real the usual arithmetic
 * conversions made complex (complex_real_operand); gcc's build_binary_op
 * computes with the real itself (c-typeck.c, under -fsigned-zeros), so z * x
 * is (zr*x, zi*x), x - z is (x-zr, -zi), and a zero part is never touched */
static Cx cx_add(Lower *L, CExprKind k, Cx a, Cx b, bool a_real, bool b_real, CType *el) {
  Cx r;
  r.re = op(L, k, a.re, b.re, el);
  if (b_real) r.im = a.im;
  else if (a_real) r.im = k == EX_SUB ? neg(L, b.im, el) : b.im;
  else r.im = op(L, k, a.im, b.im, el);
  return r;
}

/* libgcc's __mulsc3/__muldc3/__mulxc3 (and __div?c3): (a, b, c, d) -> complex */
static Cx cx_libcall(Lower *L, const char *what, Cx a, Cx b, CType *t) {
  CType *el = elem_of(t);
  char name[16];
  snprintf(name, sizeof name, "__%s%cc3", what, el->kind == TY_FLOAT ? 's' : el->kind == TY_DOUBLE ? 'd' : 'x');
  CParam *params = NULL;
  for (int i = 0; i < 4; i++) {
    CParam *q = c_alloc(sizeof *q);
    q->type = el;
    q->next = params;
    params = q;
  }
  CObj *fn = c_alloc(sizeof *fn);
  fn->name = c_strdup(name);
  fn->type = type_func(type_unqual(t), params, false, false);
  fn->is_function = true;
  fn->storage = SC_EXTERN;
  AbiSig sig;
  abi_classify(fn->type, NULL, 0, &sig);
  KitCgVal args[4] = {a.re, a.im, b.re, b.im};
  KitCgVal tmp = kit_cg_stackaddr(&L->b, kit_cg_stack_new(L->m, L->f, ABI_SPLIT_TEMP, 16, 0));
  KitCgVal r = kit_cg_call(&L->b, lower_obj_sym(L, fn), sig.ret.cg[0], args, 4);
  if (sig.ret.n == 2) last_inst(L)->type2 = (uint8_t)sig.ret.cg[1];
  kit_cg_store(&L->b, r, tmp, 8, KIT_CG_PROGRAM);
  if (sig.ret.n == 2) {
    KitCgVal second = kit_cg_emit(&L->b, KIT_CG_OP_SECOND, sig.ret.cg[1], &r, 1)->id;
    kit_cg_store(&L->b, second, kit_cg_ptradd(&L->b, tmp, lower_i64(L, abi_split_offset(&sig.ret, 1))), 8,
                 KIT_CG_PROGRAM);
  }
  return cx_load(L, tmp, t);
}

/* v is NaN */
static KitCgVal is_nan(Lower *L, KitCgVal v) { return kit_cg_cmp(&L->b, KIT_CG_FUNO, v, v); }

/* the parts of a that block ablk and of b that block bblk branch to the current one with */
static Cx cx_join(Lower *L, Cx a, KitCgBlkId ablk, Cx b, KitCgBlkId bblk, CType *el) {
  KitCgType ct = abi_cg_type(el);
  KitCgInst *pr = kit_cg_phi(&L->b, ct);
  KitCgVal re = pr->id;
  kit_cg_phi_add(L->m, pr, a.re, ablk);
  kit_cg_phi_add(L->m, pr, b.re, bblk);
  KitCgInst *pi = kit_cg_phi(&L->b, ct);
  KitCgVal im = pi->id;
  kit_cg_phi_add(L->m, pi, a.im, ablk);
  kit_cg_phi_add(L->m, pi, b.im, bblk);
  return (Cx){re, im};
}

/* (ar*br - ai*bi) + i(ar*bi + ai*br); for floating types, when a part
 * comes out NaN (isunordered, as gcc tests), libgcc's __mul?c3 recomputes
 * the product with C11 Annex G's recovery of infinities */
static Cx cx_mul_full(Lower *L, Cx a, Cx b, CType *t) {
  CType *el = elem_of(t);
  Cx r;
  r.re = op(L, EX_SUB, op(L, EX_MUL, a.re, b.re, el), op(L, EX_MUL, a.im, b.im, el), el);
  r.im = op(L, EX_ADD, op(L, EX_MUL, a.re, b.im, el), op(L, EX_MUL, a.im, b.re, el), el);
  if (!type_is_float(el)) return r;
  KitCgVal nan = kit_cg_binop(&L->b, KIT_CG_OP_OR, is_nan(L, r.re), is_nan(L, r.im));
  KitCgBlkId slow = lower_new_block(L), join = lower_new_block(L), from = L->b.blk;
  kit_cg_condbr(&L->b, nan, slow, join);
  lower_start_block(L, slow);
  Cx s = cx_libcall(L, "mul", a, b, t);
  KitCgBlkId slow_end = L->b.blk;
  kit_cg_br(&L->b, join);
  lower_start_block(L, join);
  return cx_join(L, r, from, s, slow_end, el);
}

static Cx cx_mul(Lower *L, Cx a, Cx b, bool a_real, bool b_real, CType *t) {
  CType *el = elem_of(t);
  if (b_real) return (Cx){op(L, EX_MUL, a.re, b.re, el), op(L, EX_MUL, a.im, b.re, el)};
  if (a_real) return (Cx){op(L, EX_MUL, a.re, b.re, el), op(L, EX_MUL, a.re, b.im, el)};
  return cx_mul_full(L, a, b, t);
}

static KitCgVal int_abs(Lower *L, KitCgVal v, CType *el) {
  if (!type_is_signed(el)) return v;
  return kit_cg_select(&L->b, kit_cg_cmp(&L->b, KIT_CG_SLT, v, zero_of(L, el)), neg(L, v, el), v);
}

/* integer complex division: gcc's expand_complex_div_wide (Smith's method),
 * branching on |br| < |bi| so that neither branch divides by a zero part */
static Cx cx_div_int(Lower *L, Cx a, Cx b, CType *el) {
  KitCgVal br_small = kit_cg_cmp(&L->b, type_is_signed(el) ? KIT_CG_SLT : KIT_CG_ULT, int_abs(L, b.re, el),
                                 int_abs(L, b.im, el));
  KitCgBlkId tb = lower_new_block(L), fb = lower_new_block(L), join = lower_new_block(L);
  kit_cg_condbr(&L->b, br_small, tb, fb);
  /* ratio = br/bi, div = br*ratio + bi, re = (ar*ratio + ai)/div, im = (ai*ratio - ar)/div */
  lower_start_block(L, tb);
  KitCgVal r1 = op(L, EX_DIV, b.re, b.im, el), d1 = op(L, EX_ADD, op(L, EX_MUL, b.re, r1, el), b.im, el);
  Cx x = {op(L, EX_DIV, op(L, EX_ADD, op(L, EX_MUL, a.re, r1, el), a.im, el), d1, el),
          op(L, EX_DIV, op(L, EX_SUB, op(L, EX_MUL, a.im, r1, el), a.re, el), d1, el)};
  kit_cg_br(&L->b, join);
  /* ratio = bi/br, div = bi*ratio + br, re = (ai*ratio + ar)/div, im = (ai - ar*ratio)/div */
  lower_start_block(L, fb);
  KitCgVal r2 = op(L, EX_DIV, b.im, b.re, el), d2 = op(L, EX_ADD, op(L, EX_MUL, b.im, r2, el), b.re, el);
  Cx y = {op(L, EX_DIV, op(L, EX_ADD, op(L, EX_MUL, a.im, r2, el), a.re, el), d2, el),
          op(L, EX_DIV, op(L, EX_SUB, a.im, op(L, EX_MUL, a.re, r2, el), el), d2, el)};
  kit_cg_br(&L->b, join);
  lower_start_block(L, join);
  return cx_join(L, x, tb, y, fb, el);
}

/* a real dividend is divided as a complex: C11 Annex G's x / (u + iv) needs all of it */
static Cx cx_div(Lower *L, Cx a, Cx b, bool b_real, CType *t) {
  CType *el = elem_of(t);
  if (b_real) return (Cx){op(L, EX_DIV, a.re, b.re, el), op(L, EX_DIV, a.im, b.re, el)};
  if (!type_is_float(el)) return cx_div_int(L, a, b, el);
  return cx_libcall(L, "div", a, b, t);
}

static KitCgVal cx_arith(Lower *L, CExprKind k, Cx a, Cx b, bool a_real, bool b_real, CType *t) {
  Cx r;
  if (k == EX_MUL) r = cx_mul(L, a, b, a_real, b_real, t);
  else if (k == EX_DIV) r = cx_div(L, a, b, b_real, t);
  else r = cx_add(L, k, a, b, a_real, b_real, elem_of(t));
  return cx_temp(L, r, t);
}

KitCgVal lower_complex_opassign(Lower *L, CExpr *e, KitCgVal old, KitCgVal rhs) {
  CType *t = e->optype;
  bool a_real = !type_is_complex(type_unqual(e->lhs->type)) && type_is_float(elem_of(t));
  Cx b = cx_load(L, rhs, t), a = cx_load(L, old, t);
  return cx_arith(L, e->op, a, b, a_real, complex_real_operand(e->rhs), t);
}

KitCgVal lower_complex_expr(Lower *L, CExpr *e) {
  CType *t = e->type, *el = elem_of(t);
  switch (e->kind) {
  case EX_COMPLEX: {
    Cx c;
    c.re = lower_expr(L, e->lhs);
    c.im = lower_expr(L, e->rhs);
    return cx_temp(L, c, t);
  }
  case EX_NEG: {
    Cx c = cx_operand(L, e->lhs);
    lower_set_loc(L, e->pos);
    return cx_temp(L, (Cx){neg(L, c.re, el), neg(L, c.im, el)}, t);
  }
  case EX_BITNOT: { /* GNU: ~z is the conjugate */
    Cx c = cx_operand(L, e->lhs);
    lower_set_loc(L, e->pos);
    return cx_temp(L, (Cx){c.re, neg(L, c.im, el)}, t);
  }
  default: {
    Cx a = cx_operand(L, e->lhs);
    Cx b = cx_operand(L, e->rhs);
    lower_set_loc(L, e->pos);
    return cx_arith(L, e->kind, a, b, complex_real_operand(e->lhs), complex_real_operand(e->rhs), t);
  }
  }
}

KitCgVal lower_complex_incdec(Lower *L, CExpr *e) {
  CType *t = e->type, *el = elem_of(t);
  LValue lv = lower_lvalue(L, e->lhs);
  Cx old = cx_load(L, lv.addr, t);
  lower_set_loc(L, e->pos);
  KitCgType ct = abi_cg_type(el);
  KitCgVal one = kit_cg_type_is_float(ct) ? kit_cg_fconst(&L->b, ct, 1) : kit_cg_iconst(&L->b, ct, 1);
  bool inc = e->kind == EX_PREINC || e->kind == EX_POSTINC;
  Cx nv = {op(L, inc ? EX_ADD : EX_SUB, old.re, one, el), old.im};
  KitCgVal oldv = cx_temp(L, old, t);
  lower_store(L, nv.re, lv.addr, el, lv.is_volatile);
  bool post = e->kind == EX_POSTINC || e->kind == EX_POSTDEC;
  return post ? oldv : cx_temp(L, nv, t);
}

/* == and != of complex operands (already of one complex type): i1 */
KitCgVal lower_complex_compare(Lower *L, CExpr *e) {
  CType *el = elem_of(e->lhs->type);
  Cx a = cx_operand(L, e->lhs), b = cx_operand(L, e->rhs);
  lower_set_loc(L, e->pos);
  bool f = type_is_float(el), eq = e->kind == EX_EQ;
  KitCgPred pred = eq ? (f ? KIT_CG_FOEQ : KIT_CG_EQ) : (f ? KIT_CG_FUNE : KIT_CG_NE);
  KitCgVal r = kit_cg_cmp(&L->b, pred, a.re, b.re), i = kit_cg_cmp(&L->b, pred, a.im, b.im);
  return kit_cg_binop(&L->b, eq ? KIT_CG_OP_AND : KIT_CG_OP_OR, r, i);
}
