/* frontends/c/lower_vector.c — GNU vector values in CG: each C vector is one
 * CG vector value (docs/cg.md "Vectors"); the operators lane by lane,
 * conversions (bitcasts between same-size types), __builtin_shuffle and
 * __builtin_convertvector, and the __builtin_ia32_* table of vector_ia32.c. */
#include "lower.h"

#include "lower_expr.h"
#include "vector.h"

KitCgType lower_vector_cg_type(const CType *t) {
  CType *u = type_unqual((CType *)t);
  return kit_cg_vec_type(abi_cg_type(u->base), (unsigned)u->len);
}

static KitCgType vt(Lower *L, KitCgVal v) { return kit_cg_val_type(L->f, v); }

static KitCgVal emit(Lower *L, KitCgOp op, KitCgType t, KitCgVal a, KitCgVal b, KitCgVal c) {
  KitCgVal args[3] = {a, b, c};
  uint32_t n = (uint32_t)kit_cg_op_info[op].nargs;
  return kit_cg_emit(&L->b, op, t, args, n)->id;
}

static KitCgVal bitcast(Lower *L, KitCgVal v, KitCgType to) {
  return vt(L, v) == to ? v : kit_cg_conv(&L->b, KIT_CG_OP_BITCAST, to, v);
}

static KitCgVal lane(Lower *L, KitCgVal v, unsigned i) {
  return emit(L, KIT_CG_OP_EXTRACT, kit_cg_type_elem(vt(L, v)), v, lower_i64(L, i), 0);
}

static KitCgVal shuffle_const(Lower *L, KitCgVal a, KitCgVal b, KitCgType t, const int64_t *lanes) {
  KitCgInst *in = kit_cg_emit(&L->b, KIT_CG_OP_SHUFFLE, t, (KitCgVal[]){a, b}, 2);
  in->cases = kit_cg_alloc(L->m, sizeof(int64_t) * kit_cg_type_lanes(t));
  for (unsigned i = 0; i < kit_cg_type_lanes(t); i++) in->cases[i] = lanes[i];
  return in->id;
}

/* lane i of the result = lane idx[i] (an i64 value) of a then b, through memory */
static KitCgVal shuffle_dynamic(Lower *L, KitCgVal a, KitCgVal b, KitCgType t, const KitCgVal *idx) {
  KitCgType at = vt(L, a), e = kit_cg_type_elem(at);
  unsigned size = kit_cg_type_size(at), es = kit_cg_type_size(e);
  KitCgVal tmp = kit_cg_stackaddr(&L->b, kit_cg_stack_new(L->m, L->f, 2 * size, 16, 0));
  kit_cg_store(&L->b, a, tmp, 0, KIT_CG_PROGRAM);
  kit_cg_store(&L->b, b, kit_cg_ptradd(&L->b, tmp, lower_i64(L, size)), 0, KIT_CG_PROGRAM);
  KitCgVal r = kit_cg_emit(&L->b, KIT_CG_OP_SPLAT, t, (KitCgVal[]){kit_cg_load(&L->b, e, tmp, 0, KIT_CG_PROGRAM)}, 1)->id;
  for (unsigned i = 0; i < kit_cg_type_lanes(t); i++) {
    KitCgVal off = kit_cg_binop(&L->b, KIT_CG_OP_MUL, idx[i], lower_i64(L, es));
    KitCgVal x = kit_cg_load(&L->b, e, kit_cg_ptradd(&L->b, tmp, off), (uint32_t)es, KIT_CG_PROGRAM);
    r = emit(L, KIT_CG_OP_INSERT, t, r, x, lower_i64(L, i));
  }
  return r;
}

KitCgVal lower_vector_abi(Lower *L, KitCgVal v, KitCgType to) {
  if (!v) {
    KitCgType e = kit_cg_type_elem(to);
    KitCgVal z = kit_cg_type_is_float(e) ? kit_cg_fconst(&L->b, e, 0) : kit_cg_iconst(&L->b, e, 0);
    return kit_cg_type_is_vec(to) ? kit_cg_emit(&L->b, KIT_CG_OP_SPLAT, to, &z, 1)->id : z;
  }
  return bitcast(L, v, to);
}

KitCgVal lower_vector_convert(Lower *L, KitCgVal v, CType *from, CType *to) {
  (void)from;
  KitCgType tc = abi_cg_type(to);
  if (type_unqual(to)->kind == TY_BOOL || tc == KIT_CG_VOID) return v; /* rejected by the parser */
  return bitcast(L, v, tc);
}

static KitCgVal arith(Lower *L, CExprKind k, KitCgVal a, KitCgVal b, CType *elem) {
  static const struct { CExprKind k; KitCgOp i, u, f; } ops[] = {
      {EX_ADD, KIT_CG_OP_ADD, KIT_CG_OP_ADD, KIT_CG_OP_FADD},   {EX_SUB, KIT_CG_OP_SUB, KIT_CG_OP_SUB, KIT_CG_OP_FSUB},
      {EX_MUL, KIT_CG_OP_MUL, KIT_CG_OP_MUL, KIT_CG_OP_FMUL},   {EX_DIV, KIT_CG_OP_SDIV, KIT_CG_OP_UDIV, KIT_CG_OP_FDIV},
      {EX_MOD, KIT_CG_OP_SREM, KIT_CG_OP_UREM, KIT_CG_OP_FREM}, {EX_BAND, KIT_CG_OP_AND, KIT_CG_OP_AND, KIT_CG_OP_AND},
      {EX_BOR, KIT_CG_OP_OR, KIT_CG_OP_OR, KIT_CG_OP_OR},       {EX_BXOR, KIT_CG_OP_XOR, KIT_CG_OP_XOR, KIT_CG_OP_XOR},
      {EX_SHL, KIT_CG_OP_SHL, KIT_CG_OP_SHL, KIT_CG_OP_SHL},    {EX_SHR, KIT_CG_OP_ASHR, KIT_CG_OP_LSHR, KIT_CG_OP_LSHR},
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (ops[i].k == k)
      return kit_cg_binop(&L->b, type_is_float(elem) ? ops[i].f : type_is_signed(elem) ? ops[i].i : ops[i].u, a, b);
  return a;
}

KitCgVal lower_vector_arith(Lower *L, CExprKind k, KitCgVal a, KitCgVal b, CType *t) {
  return arith(L, k, a, b, type_unqual(t)->base);
}

/* a compound literal (behind casts) whose lanes are integer constants */
static bool const_lanes(CExpr *m, int64_t *out, unsigned n) {
  while (m->kind == EX_CAST) m = m->lhs;
  if (m->kind != EX_COMPOUND_LIT || !m->obj->init) return false;
  CInit *in = m->obj->init;
  int64_t es = type_unqual(type_unqual(m->type)->base)->size;
  for (unsigned i = 0; i < n; i++) out[i] = 0;
  for (int i = 0; i < in->nitems; i++) {
    int64_t v;
    if (!c_eval_int(in->items[i].expr, &v) || in->items[i].offset / es >= n) return false;
    out[in->items[i].offset / es] = v;
  }
  return true;
}

static KitCgVal shuffle(Lower *L, CExpr *e) {
  CExpr *ea = e->args->expr, *eb = e->args->next->next ? e->args->next->expr : ea;
  CExpr *em = e->args->next->next ? e->args->next->next->expr : e->args->next->expr;
  KitCgType t = abi_cg_type(e->type);
  unsigned n = kit_cg_type_lanes(t), two = e->args->next->next ? 2 : 1;
  int64_t lanes[128];
  if (const_lanes(em, lanes, n)) {
    KitCgVal a = lower_expr(L, ea), b = two == 2 ? lower_expr(L, eb) : a;
    for (unsigned i = 0; i < n; i++) lanes[i] &= two * n - 1; /* gcc: the index modulo the lanes */
    return shuffle_const(L, a, b, t, lanes);
  }
  KitCgVal a = lower_expr(L, ea), b = two == 2 ? lower_expr(L, eb) : a, m = lower_expr(L, em);
  KitCgVal idx[128];
  for (unsigned i = 0; i < n; i++) {
    KitCgVal x = lane(L, m, i);
    if (vt(L, x) != KIT_CG_I64) x = kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I64, x);
    idx[i] = kit_cg_binop(&L->b, KIT_CG_OP_AND, x, lower_i64(L, two * n - 1));
  }
  return shuffle_dynamic(L, a, b, t, idx);
}

/* lane by lane: the CG conversion from one element type to another */
static KitCgVal convert_lanes(Lower *L, KitCgVal v, CType *fe, CType *te, KitCgType to) {
  KitCgType f = kit_cg_type_elem(vt(L, v)), t = kit_cg_type_elem(to);
  bool ff = type_is_float(fe), tf = type_is_float(te);
  KitCgOp op;
  if (ff && tf) op = kit_cg_type_bits(f) < kit_cg_type_bits(t) ? KIT_CG_OP_FPEXT : KIT_CG_OP_FPTRUNC;
  else if (ff) op = type_is_signed(te) ? KIT_CG_OP_FPTOSI : KIT_CG_OP_FPTOUI;
  else if (tf) op = type_is_signed(fe) ? KIT_CG_OP_SITOFP : KIT_CG_OP_UITOFP;
  else if (f == t) return bitcast(L, v, to);
  else op = kit_cg_type_bits(f) > kit_cg_type_bits(t) ? KIT_CG_OP_TRUNC : type_is_signed(fe) ? KIT_CG_OP_SEXT : KIT_CG_OP_ZEXT;
  if (f == t && (op == KIT_CG_OP_FPEXT || op == KIT_CG_OP_FPTRUNC)) return v;
  return kit_cg_conv(&L->b, op, to, v);
}

static KitCgVal zero_of(Lower *L, CType *t) {
  KitCgType c = abi_cg_type(t);
  if (c == KIT_CG_VOID) return 0;
  KitCgType e = kit_cg_type_elem(c);
  KitCgVal z = kit_cg_type_is_float(e) ? kit_cg_fconst(&L->b, e, 0) : kit_cg_iconst(&L->b, e, 0);
  return kit_cg_type_is_vec(c) ? kit_cg_emit(&L->b, KIT_CG_OP_SPLAT, c, &z, 1)->id : z;
}

KitCgVal lower_vector_ia32(Lower *L, CExpr *e); /* below */

bool lower_vector_owns(CExpr *e) {
  if (e->kind == EX_BUILTIN) return (int)e->builtin >= BI_VEC_SPLAT;
  if (!vector_type(e->type)) return false;
  switch (e->kind) {
  case EX_NEG: case EX_BITNOT: case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV: case EX_MOD: case EX_SHL:
  case EX_SHR: case EX_BAND: case EX_BOR: case EX_BXOR: case EX_LT: case EX_LE: case EX_GT: case EX_GE:
  case EX_EQ: case EX_NE:
    return true;
  default: return false;
  }
}

KitCgVal lower_vector_expr(Lower *L, CExpr *e) {
  KitCgType t = abi_cg_type(e->type);
  switch (e->kind) {
  case EX_NEG: {
    KitCgVal v = lower_expr(L, e->lhs);
    lower_set_loc(L, e->pos);
    return kit_cg_unop(&L->b, type_is_float(type_unqual(e->type)->base) ? KIT_CG_OP_FNEG : KIT_CG_OP_NEG, v);
  }
  case EX_BITNOT: return kit_cg_unop(&L->b, KIT_CG_OP_NOT, lower_expr(L, e->lhs));
  case EX_LT: case EX_LE: case EX_GT: case EX_GE: case EX_EQ: case EX_NE: {
    KitCgVal a = lower_expr(L, e->lhs), b = lower_expr(L, e->rhs);
    lower_set_loc(L, e->pos);
    return kit_cg_cmp(&L->b, lower_cmp_pred(e->kind, type_unqual(type_unqual(e->lhs->type)->base)), a, b);
  }
  case EX_BUILTIN: break;
  default: {
    KitCgVal a = lower_expr(L, e->lhs), b = lower_expr(L, e->rhs);
    lower_set_loc(L, e->pos);
    return arith(L, e->kind, a, b, type_unqual(e->type)->base);
  }
  }
  switch ((int)e->builtin) {
  case BI_VEC_SPLAT: return kit_cg_emit(&L->b, KIT_CG_OP_SPLAT, t, (KitCgVal[]){lower_expr(L, e->args->expr)}, 1)->id;
  case BI_VEC_SHUFFLE: return shuffle(L, e);
  case BI_VEC_SHUFFLEVECTOR: {
    KitCgVal a = lower_expr(L, e->args->expr), b = lower_expr(L, e->args->next->expr);
    int64_t lanes[128];
    unsigned n = 0;
    for (CExprList *l = e->args->next->next; l && n < 128; l = l->next, n++) {
      c_eval_int(l->expr, &lanes[n]);
      if (lanes[n] < 0) lanes[n] = 0; /* -1: any lane */
    }
    return shuffle_const(L, a, b, t, lanes);
  }
  case BI_VEC_CONVERT: {
    CExpr *v = e->args->expr;
    return convert_lanes(L, lower_expr(L, v), type_unqual(type_unqual(v->type)->base), type_unqual(type_unqual(e->type)->base), t);
  }
  case BI_VEC_IA32: return lower_vector_ia32(L, e);
  default:
    c_error(L->diag, e->pos, "unsupported builtin '%s' (kitcc maps the SSE and SSE2 __builtin_ia32_* only)",
            e->str ? e->str : "?");
    return zero_of(L, e->type);
  }
}

/* ---- __builtin_ia32_* -------------------------------------------------------------- */

static KitCgVal call_llvm(Lower *L, const char *name, KitCgType ret, KitCgVal *args, uint32_t n) {
  KitCgType ps[4];
  for (uint32_t i = 0; i < n && i < 4; i++) ps[i] = vt(L, args[i]);
  KitCgFunc *f = kit_cg_func_declare(L->m, name, ret, ps, n, false);
  return kit_cg_call(&L->b, f->sym, ret, args, n);
}

/* the lane pattern of a shuffle kind over n lanes: lane i takes lane base[i] +
 * ((imm >> shift[i]) & mask[i]) of a then b */
static void pattern(IaShuf k, unsigned n, int64_t *base, int *shift, int *mask) {
  for (unsigned i = 0; i < n; i++) base[i] = i, shift[i] = 0, mask[i] = 0;
  for (unsigned i = 0; i < n; i++) switch (k) {
    case SH_PSHUFD: base[i] = 0, shift[i] = 2 * (int)i, mask[i] = 3; break;
    case SH_PSHUFLW: if (i < 4) base[i] = 0, shift[i] = 2 * (int)i, mask[i] = 3; break;
    case SH_PSHUFHW: if (i >= 4) base[i] = 4, shift[i] = 2 * (int)(i - 4), mask[i] = 3; break;
    case SH_SHUFPS: base[i] = i < 2 ? 0 : 4, shift[i] = 2 * (int)i, mask[i] = 3; break;
    case SH_SHUFPD: base[i] = i ? 2 : 0, shift[i] = (int)i, mask[i] = 1; break;
    case SH_UNPACKLO: base[i] = i / 2 + (i & 1) * n; break;
    case SH_UNPACKHI: base[i] = n / 2 + i / 2 + (i & 1) * n; break;
    case SH_MOVHL: base[i] = i < 2 ? n + 2 + i : i; break;        /* b's high half, a's high half */
    case SH_MOVLH: base[i] = i < 2 ? i : n + i - 2; break;        /* a's low half, b's low half */
    case SH_MOVS: base[i] = i ? i : n; break;                     /* b's lane 0, a's others */
    case SH_MOVQ: base[i] = i ? n : 0; break;                     /* lane 0, then zero (b) */
    }
}

static KitCgVal ia32_shuffle(Lower *L, const IaBuiltin *b, KitCgVal *a, CExpr *e, unsigned nargs) {
  KitCgType t = vt(L, a[0]);
  unsigned n = kit_cg_type_lanes(t);
  int64_t base[16];
  int shift[16], mask[16];
  pattern((IaShuf)b->op, n, base, shift, mask);
  KitCgVal x = a[0], y = nargs >= 2 && vt(L, a[1]) == t ? a[1] : a[0];
  if (b->op == SH_MOVQ) y = zero_of(L, e->type);
  CExprList *last = e->args;
  while (last->next) last = last->next;
  int64_t imm = 0;
  bool has_imm = false;
  for (unsigned i = 0; i < n; i++) has_imm |= mask[i] != 0;
  if (!has_imm || c_eval_int(last->expr, &imm)) {
    for (unsigned i = 0; i < n; i++) base[i] += (imm >> shift[i]) & mask[i];
    return shuffle_const(L, x, y, t, base);
  }
  KitCgVal iv = kit_cg_conv(&L->b, KIT_CG_OP_SEXT, KIT_CG_I64, a[nargs - 1]), idx[16];
  for (unsigned i = 0; i < n; i++) {
    KitCgVal s = kit_cg_binop(&L->b, KIT_CG_OP_LSHR, iv, lower_i64(L, shift[i]));
    s = kit_cg_binop(&L->b, KIT_CG_OP_AND, s, lower_i64(L, mask[i]));
    idx[i] = kit_cg_binop(&L->b, KIT_CG_OP_ADD, s, lower_i64(L, base[i]));
  }
  return shuffle_dynamic(L, x, y, t, idx);
}

static KitCgVal ia32_bits(Lower *L, const IaBuiltin *b, KitCgVal x, KitCgVal y) {
  KitCgType t = vt(L, x), it = kit_cg_vec_int(t);
  x = bitcast(L, x, it);
  y = bitcast(L, y, it);
  KitCgVal r = b->op < 0 ? kit_cg_binop(&L->b, KIT_CG_OP_AND, kit_cg_unop(&L->b, KIT_CG_OP_NOT, x), y)
                         : kit_cg_binop(&L->b, (KitCgOp)b->op, x, y);
  return bitcast(L, r, t);
}

/* the whole 128 bits shifted by an immediate number of bits (gcc passes bytes * 8) */
static KitCgVal ia32_bshift(Lower *L, bool right, KitCgVal x, KitCgVal amount) {
  KitCgType t = vt(L, x);
  KitCgVal w = bitcast(L, x, KIT_CG_I128);
  KitCgVal n = kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I128, amount);
  KitCgVal s = kit_cg_binop(&L->b, right ? KIT_CG_OP_LSHR : KIT_CG_OP_SHL, w, n);
  KitCgVal big = kit_cg_cmp(&L->b, KIT_CG_UGE, amount, kit_cg_iconst(&L->b, vt(L, amount), 128));
  s = kit_cg_select(&L->b, big, kit_cg_i128const(&L->b, 0, 0), s);
  return bitcast(L, s, t);
}

static KitCgVal ia32_scalar(Lower *L, const IaBuiltin *b, KitCgVal *a, unsigned nargs) {
  KitCgType t = vt(L, a[0]), e = kit_cg_type_elem(t);
  KitCgVal src = nargs > 1 ? a[1] : a[0];
  KitCgVal x = kit_cg_type_is_vec(vt(L, src)) ? lane(L, src, 0) : src;
  KitCgVal r;
  switch (b->op) {
  case KIT_CG_OP_FSQRT: r = kit_cg_unop(&L->b, KIT_CG_OP_FSQRT, x); break;
  case KIT_CG_OP_SITOFP: case KIT_CG_OP_FPTRUNC: case KIT_CG_OP_FPEXT: r = kit_cg_conv(&L->b, (KitCgOp)b->op, e, x); break;
  default: r = kit_cg_binop(&L->b, (KitCgOp)b->op, lane(L, a[0], 0), x); break;
  }
  return emit(L, KIT_CG_OP_INSERT, t, a[0], r, lower_i64(L, 0));
}

static KitCgVal ia32_conv(Lower *L, const IaBuiltin *b, KitCgVal x, KitCgType to) {
  KitCgType t = vt(L, x);
  unsigned n = kit_cg_type_lanes(to);
  if (n < kit_cg_type_lanes(t)) {
    int64_t low[16];
    for (unsigned i = 0; i < n; i++) low[i] = i;
    x = shuffle_const(L, x, x, kit_cg_vec_type(kit_cg_type_elem(t), n), low);
  }
  return kit_cg_conv(&L->b, (KitCgOp)b->op, to, x);
}

KitCgVal lower_vector_ia32(Lower *L, CExpr *e) {
  const IaBuiltin *b = ia32_get((int)e->ival);
  KitCgVal a[4] = {0};
  unsigned n = 0;
  for (CExprList *l = e->args; l && n < 4; l = l->next) a[n++] = lower_expr(L, l->expr);
  lower_set_loc(L, e->pos);
  KitCgType t = abi_cg_type(e->type);
  switch ((IaKind)b->kind) {
  case IA_LLVM: return call_llvm(L, b->llvm, t, a, n);
  case IA_BIN: return kit_cg_binop(&L->b, (KitCgOp)b->op, a[0], a[1]);
  case IA_FBIT: return ia32_bits(L, b, a[0], a[1]);
  case IA_UN: return kit_cg_unop(&L->b, (KitCgOp)b->op, a[0]);
  case IA_SHUF: return ia32_shuffle(L, b, a, e, n);
  case IA_FCMP: {
    KitCgVal c = b->llvm ? kit_cg_cmp(&L->b, (KitCgPred)b->op, a[1], a[0]) : kit_cg_cmp(&L->b, (KitCgPred)b->op, a[0], a[1]);
    return bitcast(L, c, t);
  }
  case IA_EXT: {
    KitCgType at = vt(L, a[0]);
    KitCgVal i = kit_cg_binop(&L->b, KIT_CG_OP_AND, a[1], kit_cg_iconst(&L->b, vt(L, a[1]), kit_cg_type_lanes(at) - 1));
    KitCgVal x = emit(L, KIT_CG_OP_EXTRACT, kit_cg_type_elem(at), a[0], i, 0);
    CType *et = type_unqual(type_unqual(e->args->expr->type)->base);
    return lower_convert(L, x, et, e->type);
  }
  case IA_SET: {
    KitCgType e0 = kit_cg_type_elem(t);
    KitCgVal x = kit_cg_conv(&L->b, KIT_CG_OP_TRUNC, e0, a[1]);
    KitCgVal i = kit_cg_binop(&L->b, KIT_CG_OP_AND, a[2], kit_cg_iconst(&L->b, vt(L, a[2]), kit_cg_type_lanes(t) - 1));
    return emit(L, KIT_CG_OP_INSERT, t, a[0], x, i);
  }
  case IA_BSHIFT: return ia32_bshift(L, b->op == 1, a[0], a[1]);
  case IA_MULUDQ: {
    KitCgVal lo = kit_cg_emit(&L->b, KIT_CG_OP_SPLAT, t, (KitCgVal[]){lower_i64(L, 0xffffffff)}, 1)->id;
    KitCgVal x = kit_cg_binop(&L->b, KIT_CG_OP_AND, bitcast(L, a[0], t), lo);
    KitCgVal y = kit_cg_binop(&L->b, KIT_CG_OP_AND, bitcast(L, a[1], t), lo);
    return kit_cg_binop(&L->b, KIT_CG_OP_MUL, x, y);
  }
  case IA_CONV: return ia32_conv(L, b, a[0], t);
  case IA_SCALAR: return ia32_scalar(L, b, a, n);
  case IA_LOADLANE: {
    KitCgVal x = kit_cg_load(&L->b, kit_cg_type_elem(t), a[1], 1, KIT_CG_PROGRAM);
    return emit(L, KIT_CG_OP_INSERT, t, a[0], x, lower_i64(L, b->op));
  }
  case IA_STORE:
    kit_cg_store(&L->b, a[1], a[0], 1, KIT_CG_PROGRAM);
    return 0;
  }
  return 0;
}
