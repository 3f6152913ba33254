/* frontends/c/lower_expr.c — lowering C expressions to CG: lvalues and
 * rvalues, conversions, arithmetic with the UB facts UBSan needs (nsw,
 * shift-in-range, bounds, type descriptors), bitfields, conditionals and
 * short-circuit logic. Calls and builtins are in lower_call.c. */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

#include "lower_expr.h"
#include "vector.h"

KitCgVal lower_i64(Lower *L, int64_t v) { return kit_cg_iconst(&L->b, KIT_CG_I64, (uint64_t)v); }

uint32_t lower_tydesc(Lower *L, CType *t) {
  char name[256];
  type_spell(t, name, sizeof name);
  CType *u = type_unqual(t);
  KitCgTyKind kind = type_is_integer(u) ? KIT_CG_TD_INT
                     : type_is_float(u) ? KIT_CG_TD_FLOAT
                     : u->kind == TY_PTR ? KIT_CG_TD_PTR
                                         : KIT_CG_TD_OTHER;
  unsigned bits = u->size > 0 ? (unsigned)u->size * 8 : 0;
  if (u->kind == TY_LDOUBLE) bits = 80;
  if (u->kind == TY_BOOL) bits = 1;
  return kit_cg_tydesc(L->m, name, kind, type_is_signed(u), bits);
}

/* The type descriptor UBSan prints, spelled as clang spells it: a typedef as
 * "name' (aka 'type" (the runtime adds the outer quotes); rvalues (arithmetic
 * results) without qualifiers, lvalue accesses with them. */
uint32_t lower_ub_tydesc(Lower *L, CType *t, bool rvalue) {
  uint32_t id = lower_tydesc(L, t);
  CType copy = *t;
  if (rvalue) copy.quals = 0;
  CType *u = type_unqual(t);
  if (!rvalue && !t->typedef_name) return id;
  char name[256], canon[256], full[600];
  type_spell(&copy, name, sizeof name);
  if (t->typedef_name && t != u) {
    CType cu = *u;
    cu.quals = copy.quals;
    type_spell(&cu, canon, sizeof canon);
    snprintf(full, sizeof full, "%s' (aka '%s", name, canon);
  } else {
    snprintf(full, sizeof full, "%s", name);
  }
  KitCgTyDesc *d = &L->m->tydescs[id];
  return kit_cg_tydesc(L->m, full, (KitCgTyKind)d->kind, d->is_signed, d->bits);
}

/* Where clang's UBSan reports an expression: a subscript at its base, an
 * array at its name, other expressions at their operator; begin: at the
 * expression's first token for member accesses too (bounds checks). */
CPos lower_ub_loc(CExpr *e, bool begin) {
  for (;;) {
    if (e->kind == EX_DECAY || (e->kind == EX_CAST && e->implicit) || (begin && e->kind == EX_MEMBER && e->lhs)) {
      e = e->lhs;
    } else if (e->kind == EX_DEREF && e->lhs && e->lhs->kind == EX_PTRADD && e->lhs->pos.line == e->pos.line &&
               e->lhs->pos.col == e->pos.col && e->lhs->lhs) {
      e = e->lhs->lhs; /* a[i]: the parser gives the deref and the add the '[' position */
    } else if (!begin && e->kind == EX_MEMBER && e->name_pos.line) {
      return e->name_pos;
    } else {
      return e->pos;
    }
  }
}

static KitCgVal int_resize(Lower *L, KitCgVal v, KitCgType to, bool is_signed);

/* Where an expression starts: clang's location of an implicit conversion */
CPos lower_ub_begin(CExpr *e) {
  for (;;) {
    switch (e->kind) {
    case EX_DECAY: case EX_POSTINC: case EX_POSTDEC: case EX_MEMBER: case EX_CALL:
    case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV: case EX_MOD: case EX_SHL: case EX_SHR:
    case EX_BAND: case EX_BOR: case EX_BXOR: case EX_LT: case EX_LE: case EX_GT: case EX_GE:
    case EX_EQ: case EX_NE: case EX_LAND: case EX_LOR: case EX_PTRADD: case EX_PTRSUB: case EX_PTRDIFF:
    case EX_ASSIGN: case EX_OPASSIGN: case EX_COMMA:
      if (!e->lhs) return e->pos;
      e = e->lhs;
      break;
    case EX_CAST:
      if (!e->implicit || !e->lhs) return e->pos;
      e = e->lhs;
      break;
    case EX_COND:
      if (!e->cond) return e->pos;
      e = e->cond;
      break;
    default:
      return lower_ub_loc(e, true);
    }
  }
}

/* does the fb-bit constant v (signed: fs) keep its value in a tb-bit type? */
static bool const_fits(uint64_t v, unsigned fb, bool fs, unsigned tb, bool ts) {
  int64_t sv = fb < 64 ? (int64_t)(v << (64 - fb)) >> (64 - fb) : (int64_t)v;
  uint64_t uv = fb < 64 ? v & (((uint64_t)1 << fb) - 1) : v;
  if (fs && sv < 0) return ts && (tb >= 64 || sv >= -((int64_t)1 << (tb - 1)));
  uint64_t x = fs ? (uint64_t)sv : uv;
  uint64_t max = tb >= 64 ? (ts ? (uint64_t)INT64_MAX : UINT64_MAX) : ((uint64_t)1 << (ts ? tb - 1 : tb)) - 1;
  return x <= max;
}

/* UBSan's implicit-conversion group: after an implicit integer conversion
 * that can change the value (a truncation, or a change of signedness other
 * than widening to a signed type), an ICMP EQ of the source and the result
 * converted back, whose tydesc (kind OTHER) names the destination type and
 * points at the source's. Unused otherwise, and dropped by LLVM. */
void lower_conversion_fact(Lower *L, KitCgVal src, KitCgVal dst, CType *from, CType *to, CPos at) {
  CType *f = type_unqual(from), *t = type_unqual(to);
  if (!type_is_integer(f) || !type_is_integer(t) || f->kind == TY_BOOL || t->kind == TY_BOOL) return;
  if (f->size > 8 || t->size > 8 || f->size <= 0 || t->size <= 0) return;
  bool fs = type_is_signed(f), ts = type_is_signed(t);
  bool trunc = f->size > t->size;
  if (!trunc && (fs == ts || (t->size > f->size && ts))) return;
  KitCgType sct = kit_cg_val_type(L->f, src);
  if (!kit_cg_type_is_int(sct) || !kit_cg_type_is_int(kit_cg_val_type(L->f, dst))) return;
  KitCgInst *c = kit_cg_def(L->f, src);
  if (c && c->op == KIT_CG_OP_CONST && const_fits(c->imm, (unsigned)f->size * 8, fs, (unsigned)t->size * 8, ts))
    return; /* a constant that keeps its value needs no fact (most of them: 0, sizes) */
  KitCgLoc saved = L->b.loc;
  lower_set_loc(L, at);
  KitCgVal back = int_resize(L, dst, sct, ts);
  kit_cg_cmp(&L->b, KIT_CG_EQ, src, back);
  uint32_t src_td = lower_ub_tydesc(L, from, true), dst_td = lower_ub_tydesc(L, to, true);
  KitCgTyDesc d = L->m->tydescs[dst_td]; /* a copy: adding descriptors moves the array */
  d.kind = KIT_CG_TD_OTHER;
  d.pointee = src_td;
  last_inst(L)->tydesc = kit_cg_tydesc_of(L->m, &d);
  L->b.loc = saved;
}

static bool is_aggr(CType *t) {
  t = type_unqual(t);
  return t->kind == TY_STRUCT || t->kind == TY_UNION || t->kind == TY_ARRAY || t->kind == TY_COMPLEX;
}

KitCgVal lower_vla_size(Lower *L, CType *t) {
  t = type_unqual(t);
  if (t->kind != TY_ARRAY || !type_is_vla(t)) return lower_i64(L, t->size > 0 ? t->size : 0);
  KitCgVal elem = lower_vla_size(L, t->base);
  KitCgVal n;
  if (t->vla_len) {
    /* the parser evaluates the length once, into a hidden local (vla_len is its EX_VAR) */
    n = lower_convert(L, lower_expr(L, t->vla_len), t->vla_len->type, ty_long);
  } else {
    n = lower_i64(L, t->len);
  }
  return kit_cg_binop(&L->b, KIT_CG_OP_MUL, n, elem);
}

KitCgVal lower_load(Lower *L, KitCgVal addr, CType *t, bool is_volatile) {
  if (is_aggr(t) || type_unqual(t)->kind == TY_FUNC) return addr;
  KitCgType ct = abi_cg_type(t);
  KitCgVal v = kit_cg_load(&L->b, ct, addr, (uint32_t)type_unqual(t)->align, KIT_CG_PROGRAM);
  KitCgInst *in = last_inst(L);
  if (is_volatile || (t->quals & Q_VOLATILE)) in->flags |= KIT_CG_F_VOLATILE;
  in->tydesc = lower_ub_tydesc(L, t, false);
  return v;
}

void lower_store(Lower *L, KitCgVal v, KitCgVal addr, CType *t, bool is_volatile) {
  if (is_aggr(t)) {
    int64_t size = type_unqual(t)->size;
    if (size > 0) kit_cg_memop(&L->b, KIT_CG_OP_MEMCPY, addr, v, lower_i64(L, size), KIT_CG_PROGRAM);
    return;
  }
  kit_cg_store(&L->b, v, addr, (uint32_t)type_unqual(t)->align, KIT_CG_PROGRAM);
  KitCgInst *in = last_inst(L);
  if (is_volatile || (t->quals & Q_VOLATILE)) in->flags |= KIT_CG_F_VOLATILE;
  in->tydesc = lower_ub_tydesc(L, t, false);
}

/* ---- conversions ---------------------------------------------------------------- */

static KitCgVal to_bool_i1(Lower *L, KitCgVal v, CType *from) {
  if (type_is_complex(type_unqual(from))) return lower_complex_to_bool(L, v, from);
  KitCgType ct = kit_cg_val_type(L->f, v);
  if (ct == KIT_CG_I1) return v;
  if (kit_cg_type_is_float(ct)) return kit_cg_cmp(&L->b, KIT_CG_FUNE, v, kit_cg_fconst(&L->b, ct, 0));
  if (ct == KIT_CG_PTR) {
    v = kit_cg_conv(&L->b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, v);
    ct = KIT_CG_I64;
  }
  return kit_cg_cmp(&L->b, KIT_CG_NE, v, kit_cg_iconst(&L->b, ct, 0));
}

static KitCgVal int_resize(Lower *L, KitCgVal v, KitCgType to, bool is_signed) {
  KitCgType from = kit_cg_val_type(L->f, v);
  unsigned fb = kit_cg_type_bits(from), tb = kit_cg_type_bits(to);
  if (fb == tb) return v;
  if (fb > tb) return kit_cg_conv(&L->b, KIT_CG_OP_TRUNC, to, v);
  return kit_cg_conv(&L->b, is_signed ? KIT_CG_OP_SEXT : KIT_CG_OP_ZEXT, to, v);
}

KitCgVal lower_convert(Lower *L, KitCgVal v, CType *from, CType *to) {
  CType *f = type_unqual(from), *t = type_unqual(to);
  if (t->kind == TY_VOID) return 0;
  if (type_is_complex(t) || type_is_complex(f)) return lower_complex_convert(L, v, f, t);
  if (is_aggr(t) || is_aggr(f)) return v; /* aggregates travel as addresses */
  if (t->kind == TY_VECTOR || f->kind == TY_VECTOR) return lower_vector_convert(L, v, from, to);
  if (t->kind == TY_BOOL) {
    if (f->kind == TY_BOOL) return v;
    return kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I8, to_bool_i1(L, v, f));
  }
  KitCgType fc = kit_cg_val_type(L->f, v), tc = abi_cg_type(t);
  if (fc == tc) return v;
  if (fc == KIT_CG_I1) return kit_cg_type_is_float(tc) ? kit_cg_conv(&L->b, KIT_CG_OP_UITOFP, tc, v)
                                                       : int_resize(L, v, tc == KIT_CG_PTR ? KIT_CG_I64 : tc, false);
  bool fs = type_is_signed(f);
  if (kit_cg_type_is_float(fc) && kit_cg_type_is_float(tc))
    return kit_cg_conv(&L->b, kit_cg_type_bits(fc) < kit_cg_type_bits(tc) ? KIT_CG_OP_FPEXT : KIT_CG_OP_FPTRUNC, tc, v);
  if (kit_cg_type_is_float(fc)) {
    if (tc == KIT_CG_PTR) return kit_cg_conv(&L->b, KIT_CG_OP_INTTOPTR, tc, kit_cg_conv(&L->b, KIT_CG_OP_FPTOSI, KIT_CG_I64, v));
    KitCgVal r = kit_cg_conv(&L->b, type_is_signed(t) ? KIT_CG_OP_FPTOSI : KIT_CG_OP_FPTOUI, tc, v);
    /* UBSan float-cast-overflow: the C type converted to */
    last_inst(L)->tydesc = lower_ub_tydesc(L, to, true);
    return r;
  }
  if (kit_cg_type_is_float(tc)) {
    if (fc == KIT_CG_PTR) v = kit_cg_conv(&L->b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, v);
    return kit_cg_conv(&L->b, fs ? KIT_CG_OP_SITOFP : KIT_CG_OP_UITOFP, tc, v);
  }
  if (tc == KIT_CG_PTR) return kit_cg_conv(&L->b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, int_resize(L, v, KIT_CG_I64, fs));
  if (fc == KIT_CG_PTR) return int_resize(L, kit_cg_conv(&L->b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, v), tc, false);
  return int_resize(L, v, tc, fs);
}

/* ---- lvalues (with bitfields) ------------------------------------------------------ */

/* the alignment a member access may assume: packed structs lower it (UBSan's
 * alignment check and LLVM both take it from the access) */
static int64_t lvalue_align(CExpr *e) {
  int64_t a = type_unqual(e->type)->align;
  for (; e->kind == EX_MEMBER && e->member; e = e->lhs) {
    if (e->member->align > 0 && e->member->align < a) a = e->member->align;
    if (type_unqual(e->lhs->type)->kind == TY_PTR) {
      int64_t pa = type_unqual(type_unqual(e->lhs->type)->base)->align;
      if (pa > 0 && pa < a) a = pa;
      break;
    }
  }
  return a;
}

static void lower_access_align(Lower *L, LValue *lv) {
  if (!lv->align || is_aggr(lv->type)) return;
  KitCgInst *in = last_inst(L);
  if ((in->op == KIT_CG_OP_LOAD || in->op == KIT_CG_OP_STORE) && in->imm > lv->align) in->imm = lv->align;
}

LValue lower_lvalue(Lower *L, CExpr *e) {
  LValue lv = {0};
  lv.type = e->type;
  if (e->kind == EX_MEMBER) {
    int64_t a = lvalue_align(e);
    if (a > 0 && a < type_unqual(e->type)->align) lv.align = (uint32_t)a;
  }
  lv.is_volatile = (e->type->quals & Q_VOLATILE) != 0;
  if (e->kind == EX_MEMBER && e->member->bit_width >= 0) {
    KitCgVal base = lower_addr(L, e->lhs);
    lv.addr = e->member->offset ? kit_cg_ptradd(&L->b, base, lower_i64(L, e->member->offset)) : base;
    lv.bf = e->member;
    lv.is_volatile |= (e->lhs->type->quals & Q_VOLATILE) != 0;
    return lv;
  }
  lv.addr = lower_addr(L, e);
  return lv;
}

/* the integer type holding a bitfield's bits, starting at the field's byte */
static KitCgType bf_unit(const CMember *m, int *shift) {
  int first = m->bit_offset, bytes = (first + m->bit_width + 7) / 8;
  *shift = first;
  if (bytes <= 1) return KIT_CG_I8;
  if (bytes <= 2) return KIT_CG_I16;
  if (bytes <= 4) return KIT_CG_I32;
  if (bytes <= 8) return KIT_CG_I64;
  return KIT_CG_I128;
}

KitCgVal lv_load(Lower *L, LValue *lv) {
  if (!lv->bf) {
    KitCgVal v = lower_load(L, lv->addr, lv->type, lv->is_volatile);
    lower_access_align(L, lv);
    return v;
  }
  int shift;
  KitCgType ut = bf_unit(lv->bf, &shift);
  KitCgVal u = kit_cg_load(&L->b, ut, lv->addr, 1, KIT_CG_PROGRAM);
  if (lv->is_volatile) last_inst(L)->flags |= KIT_CG_F_VOLATILE;
  unsigned w = kit_cg_type_bits(ut);
  bool sgn = type_is_signed(lv->bf->type);
  KitCgVal v = kit_cg_binop(&L->b, KIT_CG_OP_SHL, u, kit_cg_iconst(&L->b, ut, w - shift - lv->bf->bit_width));
  v = kit_cg_binop(&L->b, sgn ? KIT_CG_OP_ASHR : KIT_CG_OP_LSHR, v, kit_cg_iconst(&L->b, ut, w - lv->bf->bit_width));
  KitCgType tt = abi_cg_type(lv->type);
  if (type_unqual(lv->type)->kind == TY_BOOL) tt = KIT_CG_I8;
  return int_resize(L, v, tt, sgn);
}

/* store v (of the field's type); returns the value as read back (truncated to the width) */
KitCgVal lv_store(Lower *L, LValue *lv, KitCgVal v) {
  if (!lv->bf) {
    lower_store(L, v, lv->addr, lv->type, lv->is_volatile);
    lower_access_align(L, lv);
    return v;
  }
  int shift;
  KitCgType ut = bf_unit(lv->bf, &shift);
  unsigned w = kit_cg_type_bits(ut), bw = (unsigned)lv->bf->bit_width;
  KitCgVal nv = int_resize(L, v, ut, false);
  unsigned __int128 mask = (bw >= 128 ? ~(unsigned __int128)0 : (((unsigned __int128)1 << bw) - 1)) << shift;
  KitCgVal maskv = ut == KIT_CG_I128 ? kit_cg_i128const(&L->b, (uint64_t)mask, (uint64_t)(mask >> 64))
                                     : kit_cg_iconst(&L->b, ut, (uint64_t)mask);
  KitCgVal old = kit_cg_load(&L->b, ut, lv->addr, 1, KIT_CG_PROGRAM);
  KitCgVal cleared = kit_cg_binop(&L->b, KIT_CG_OP_AND, old, kit_cg_unop(&L->b, KIT_CG_OP_NOT, maskv));
  KitCgVal placed = kit_cg_binop(&L->b, KIT_CG_OP_AND, kit_cg_binop(&L->b, KIT_CG_OP_SHL, nv, kit_cg_iconst(&L->b, ut, shift)), maskv);
  kit_cg_store(&L->b, kit_cg_binop(&L->b, KIT_CG_OP_OR, cleared, placed), lv->addr, 1, KIT_CG_PROGRAM);
  if (lv->is_volatile) last_inst(L)->flags |= KIT_CG_F_VOLATILE;
  /* the value of the assignment is the field's new value */
  KitCgVal back = kit_cg_binop(&L->b, KIT_CG_OP_SHL, nv, kit_cg_iconst(&L->b, ut, w - bw));
  back = kit_cg_binop(&L->b, type_is_signed(lv->bf->type) ? KIT_CG_OP_ASHR : KIT_CG_OP_LSHR, back,
                      kit_cg_iconst(&L->b, ut, w - bw));
  return int_resize(L, back, kit_cg_val_type(L->f, v), type_is_signed(lv->bf->type));
}

KitCgVal lower_addr(Lower *L, CExpr *e) {
  lower_set_loc(L, e->pos);
  switch (e->kind) {
  case EX_VAR: {
    CObj *o = e->obj;
    if (o->is_local) {
      if (!o->cg) {
        c_error(L->diag, e->pos, "internal: local '%s' has no storage", o->name ? o->name : "?");
        return kit_cg_iconst(&L->b, KIT_CG_PTR, 0);
      }
      return (KitCgVal)(uintptr_t)o->cg;
    }
    return kit_cg_symaddr(&L->b, lower_obj_sym(L, o), 0);
  }
  case EX_DEREF:
    return lower_expr(L, e->lhs);
  case EX_MEMBER: {
    KitCgVal base = lower_addr(L, e->lhs);
    if (e->lhs->kind == EX_DEREF) {
      /* p->m: a PTRADD (even by 0) with the struct's tydesc, kind OTHER, and its
       * alignment is UBSan's "member access within" fact about p */
      lower_set_loc(L, lower_ub_loc(e, false));
      KitCgVal r = kit_cg_ptradd(&L->b, base, lower_i64(L, e->member->offset));
      uint32_t td = lower_ub_tydesc(L, e->lhs->type, false);
      L->m->tydescs[td].align = (uint32_t)type_unqual(e->lhs->type)->align;
      last_inst(L)->tydesc = td;
      return r;
    }
    return e->member->offset ? kit_cg_ptradd(&L->b, base, lower_i64(L, e->member->offset)) : base;
  }
  case EX_STRING:
    return kit_cg_symaddr(&L->b, lower_string_sym(L, e), 0);
  case EX_COMPOUND_LIT: {
    CObj *o = e->obj;
    if (!o->is_local) return kit_cg_symaddr(&L->b, lower_obj_sym(L, o), 0);
    KitCgVal addr = (KitCgVal)(uintptr_t)o->cg;
    if (o->init) lower_runtime_init(L, o->init, addr);
    return addr;
  }
  case EX_COMMA:
    lower_expr(L, e->lhs);
    return lower_addr(L, e->rhs);
  default:
    /* a struct rvalue (call result, ?:, assignment, statement expression) is its address */
    if (is_aggr(e->type)) return lower_expr(L, e);
    {
      /* an rvalue whose address is needed (e.g. member of a returned struct): spill */
      KitCgVal v = lower_expr(L, e);
      uint32_t so = kit_cg_stack_new(L->m, L->f, (uint64_t)(e->type->size > 0 ? e->type->size : 8),
                                     (uint32_t)(e->type->align ? e->type->align : 8), 0);
      KitCgVal a = kit_cg_stackaddr(&L->b, so);
      lower_store(L, v, a, e->type, false);
      return a;
    }
  }
}

/* ---- arithmetic ---------------------------------------------------------------------- */

static KitCgOp int_op(CExprKind k, bool is_signed) {
  switch (k) {
  case EX_ADD: return KIT_CG_OP_ADD;
  case EX_SUB: return KIT_CG_OP_SUB;
  case EX_MUL: return KIT_CG_OP_MUL;
  case EX_DIV: return is_signed ? KIT_CG_OP_SDIV : KIT_CG_OP_UDIV;
  case EX_MOD: return is_signed ? KIT_CG_OP_SREM : KIT_CG_OP_UREM;
  case EX_SHL: return KIT_CG_OP_SHL;
  case EX_SHR: return is_signed ? KIT_CG_OP_ASHR : KIT_CG_OP_LSHR;
  case EX_BAND: return KIT_CG_OP_AND;
  case EX_BOR: return KIT_CG_OP_OR;
  case EX_BXOR: return KIT_CG_OP_XOR;
  default: return KIT_CG_OP_ADD;
  }
}

static KitCgOp float_op(CExprKind k) {
  switch (k) {
  case EX_ADD: return KIT_CG_OP_FADD;
  case EX_SUB: return KIT_CG_OP_FSUB;
  case EX_MUL: return KIT_CG_OP_FMUL;
  case EX_DIV: return KIT_CG_OP_FDIV;
  default: return KIT_CG_OP_FREM;
  }
}


/* a binary arithmetic op on values already in type t; pos for UBSan */
KitCgVal lower_arith(Lower *L, CExprKind k, KitCgVal a, KitCgVal b, CType *t, CType *rhs_type) {
  CType *u = type_unqual(t);
  if (u->kind == TY_VECTOR) return lower_vector_arith(L, k, a, b, t);
  if (type_is_float(u)) {
    KitCgVal r = kit_cg_binop(&L->b, float_op(k), a, b);
    if (k == EX_DIV) last_inst(L)->tydesc = lower_ub_tydesc(L, t, true); /* float-divide-by-zero */
    return r;
  }
  bool sgn = type_is_signed(u);
  if (k == EX_SHL || k == EX_SHR) b = int_resize(L, b, kit_cg_val_type(L->f, a), rhs_type && type_is_signed(rhs_type));
  KitCgVal r = kit_cg_binop(&L->b, int_op(k, sgn), a, b);
  KitCgInst *in = last_inst(L);
  if (sgn && (k == EX_ADD || k == EX_SUB || k == EX_MUL)) in->flags |= lower_nsw(L);
  if (k == EX_SHL || k == EX_SHR) in->flags |= KIT_CG_F_SHIFT_INRANGE;
  in->tydesc = lower_ub_tydesc(L, t, true);
  return r;
}

/* the CG predicate of a C comparison on values of type t (a vector's lanes too) */
KitCgPred lower_cmp_pred(CExprKind k, CType *t) {
  bool f = type_is_float(type_unqual(t)), s = type_is_signed(type_unqual(t));
  switch (k) {
  case EX_LT: return f ? KIT_CG_FOLT : s ? KIT_CG_SLT : KIT_CG_ULT;
  case EX_LE: return f ? KIT_CG_FOLE : s ? KIT_CG_SLE : KIT_CG_ULE;
  case EX_GT: return f ? KIT_CG_FOGT : s ? KIT_CG_SGT : KIT_CG_UGT;
  case EX_GE: return f ? KIT_CG_FOGE : s ? KIT_CG_SGE : KIT_CG_UGE;
  case EX_EQ: return f ? KIT_CG_FOEQ : KIT_CG_EQ;
  default: return f ? KIT_CG_FUNE : KIT_CG_NE;
  }
}

static KitCgVal as_int(Lower *L, KitCgVal v) {
  return kit_cg_val_type(L->f, v) == KIT_CG_PTR ? kit_cg_conv(&L->b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, v) : v;
}

static KitCgVal compare(Lower *L, CExpr *e) {
  if (type_is_complex(type_unqual(e->lhs->type))) return lower_complex_compare(L, e);
  KitCgVal a = as_int(L, lower_expr(L, e->lhs)), b = as_int(L, lower_expr(L, e->rhs));
  lower_set_loc(L, e->pos);
  return kit_cg_cmp(&L->b, lower_cmp_pred(e->kind, e->lhs->type), a, b);
}

static bool is_cmp(CExprKind k) { return k >= EX_LT && k <= EX_NE; }

KitCgVal lower_cond(Lower *L, CExpr *e) {
  if (is_cmp(e->kind)) return compare(L, e);
  if (e->kind == EX_LNOT) return kit_cg_unop(&L->b, KIT_CG_OP_NOT, lower_cond(L, e->lhs));
  KitCgVal v = lower_expr(L, e);
  return to_bool_i1(L, v, e->type);
}

/* a && b || c ...: the left operands nest as deep as the chain is long, so
 * the right operands wait on a stack of our own, each with its block and targets */
typedef struct PendingCond {
  CExpr *rhs;
  KitCgBlkId mid, t, f;
} PendingCond;

void lower_cond_branch(Lower *L, CExpr *e, KitCgBlkId t, KitCgBlkId f) {
  PendingCond *pending = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (e->kind == EX_LNOT) {
      KitCgBlkId swap = t;
      t = f;
      f = swap;
    } else if (e->kind == EX_LAND || e->kind == EX_LOR) {
      if (n == cap) {
        cap = cap ? 2 * cap : 16;
        pending = realloc(pending, cap * sizeof *pending);
        if (!pending) abort();
      }
      KitCgBlkId mid = lower_new_block(L);
      pending[n++] = (PendingCond){e->rhs, mid, t, f};
      if (e->kind == EX_LAND) t = mid;
      else f = mid;
    } else {
      break;
    }
    e = e->lhs;
  }
  /* a constant condition branches unconditionally, as gcc and clang do at
   * -O0 too: the code it skips is unreachable and never emitted, so what it
   * calls need not exist (the `if (0) link_error ();` idiom) */
  int64_t v;
  if (c_expr_is_pure(e) && c_eval_int(e, &v))
    kit_cg_br(&L->b, v ? t : f);
  else
    kit_cg_condbr(&L->b, lower_cond(L, e), t, f);
  while (n--) {
    lower_start_block(L, pending[n].mid);
    lower_cond_branch(L, pending[n].rhs, pending[n].t, pending[n].f);
  }
  free(pending);
}

/* && || as values: i1 through a phi */
static KitCgVal logical(Lower *L, CExpr *e) {
  KitCgBlkId tb = lower_new_block(L), fb = lower_new_block(L), join = lower_new_block(L);
  lower_cond_branch(L, e, tb, fb);
  lower_start_block(L, tb);
  KitCgVal one = kit_cg_iconst(&L->b, KIT_CG_I32, 1);
  kit_cg_br(&L->b, join);
  lower_start_block(L, fb);
  KitCgVal zero = kit_cg_iconst(&L->b, KIT_CG_I32, 0);
  kit_cg_br(&L->b, join);
  lower_start_block(L, join);
  KitCgInst *phi = kit_cg_phi(&L->b, KIT_CG_I32);
  KitCgVal id = phi->id;
  kit_cg_phi_add(L->m, phi, one, tb);
  kit_cg_phi_add(L->m, phi, zero, fb);
  return id;
}

static KitCgVal conditional(Lower *L, CExpr *e) {
  KitCgBlkId tb = lower_new_block(L), fb = lower_new_block(L), join = lower_new_block(L);
  KitCgVal cv = 0;
  bool gnu = !e->lhs;
  if (gnu) {
    /* x ?: y — x is evaluated once */
    cv = lower_expr(L, e->cond);
    kit_cg_condbr(&L->b, to_bool_i1(L, cv, e->cond->type), tb, fb);
  } else {
    lower_cond_branch(L, e->cond, tb, fb);
  }
  bool is_void = type_unqual(e->type)->kind == TY_VOID;
  lower_start_block(L, tb);
  KitCgVal a = gnu ? lower_convert(L, cv, e->cond->type, e->type) : lower_expr(L, e->lhs);
  KitCgBlkId tend = L->b.blk;
  bool treach = lower_reachable(L);
  if (treach) kit_cg_br(&L->b, join);
  lower_start_block(L, fb);
  KitCgVal b = lower_expr(L, e->rhs);
  KitCgBlkId fend = L->b.blk;
  bool freach = lower_reachable(L);
  if (freach) kit_cg_br(&L->b, join);
  lower_start_block(L, join);
  if (is_void || !a || !b) return 0;
  if (!treach && !freach) return a;
  KitCgType ct = kit_cg_val_type(L->f, a);
  KitCgInst *phi = kit_cg_phi(&L->b, ct);
  KitCgVal id = phi->id;
  if (treach) kit_cg_phi_add(L->m, phi, a, tend);
  if (freach) kit_cg_phi_add(L->m, phi, b, fend);
  return id;
}

/* clang's signedness of a pointer arithmetic index: its promoted type's */
static bool index_is_unsigned(CType *t) {
  t = type_unqual(t);
  if (t->kind == TY_ENUM) t = t->base;
  return type_rank(t) >= type_rank(ty_int) && !type_is_signed(t);
}

/* the facts of UBSan's pointer-overflow on the PTRADD just built: the
 * pointer type, an unsigned index, a subtraction */
static void ptr_arith_fact(Lower *L, CType *ptr_type, bool unsigned_index, bool sub) {
  KitCgInst *in = last_inst(L);
  in->tydesc = lower_ub_tydesc(L, ptr_type, true);
  if (unsigned_index) in->flags |= KIT_CG_F_UINDEX;
  if (sub) in->flags |= KIT_CG_F_PTRSUB;
}

static KitCgVal ptr_offset(Lower *L, CExpr *e, KitCgVal idx) {
  /* idx converted to i64, scaled by the element size */
  idx = lower_convert(L, idx, e->rhs->type, ty_long);
  KitCgVal scale = e->step ? lower_i64(L, e->step) : lower_vla_size(L, e->vla_type);
  if (e->step == 1) return idx;
  return kit_cg_binop(&L->b, KIT_CG_OP_MUL, idx, scale);
}

static KitCgVal incdec(Lower *L, CExpr *e) {
  if (type_is_complex(type_unqual(e->type))) return lower_complex_incdec(L, e);
  LValue lv = lower_lvalue(L, e->lhs);
  KitCgVal old = lv_load(L, &lv);
  CType *t = type_unqual(e->lhs->type);
  bool inc = e->kind == EX_PREINC || e->kind == EX_POSTINC;
  KitCgVal nv;
  lower_set_loc(L, e->pos);
  if (t->kind == TY_PTR) {
    int64_t step = e->step ? e->step : 1;
    KitCgVal off = e->step ? lower_i64(L, inc ? step : -step) : lower_vla_size(L, e->vla_type);
    if (!e->step && !inc) off = kit_cg_unop(&L->b, KIT_CG_OP_NEG, off);
    nv = kit_cg_ptradd(&L->b, old, off);
    ptr_arith_fact(L, e->lhs->type, true, !inc); /* clang: p++ adds an unsigned 1, p-- subtracts it */
  } else if (type_is_float(t)) {
    nv = kit_cg_binop(&L->b, inc ? KIT_CG_OP_FADD : KIT_CG_OP_FSUB, old, kit_cg_fconst(&L->b, abi_cg_type(t), 1.0));
  } else if (t->kind == TY_BOOL) {
    nv = inc ? kit_cg_iconst(&L->b, KIT_CG_I8, 1)
             : kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I8, kit_cg_cmp(&L->b, KIT_CG_EQ, old, kit_cg_iconst(&L->b, KIT_CG_I8, 0)));
  } else {
    KitCgType ct = kit_cg_val_type(L->f, old);
    nv = kit_cg_binop(&L->b, inc ? KIT_CG_OP_ADD : KIT_CG_OP_SUB, old, kit_cg_iconst(&L->b, ct, 1));
    /* char/short ++ happens in int and converts back: no UB; int and wider can overflow */
    if (type_is_signed(t) && type_rank(t) >= type_rank(ty_int)) last_inst(L)->flags |= lower_nsw(L);
    last_inst(L)->tydesc = lower_ub_tydesc(L, e->lhs->type, true);
    if (type_rank(t) < type_rank(ty_int)) {
      /* the int result converts back to the narrow type: implicit-conversion's fact */
      KitCgVal wide = lower_convert(L, old, e->lhs->type, ty_int);
      KitCgVal r = kit_cg_binop(&L->b, inc ? KIT_CG_OP_ADD : KIT_CG_OP_SUB, wide, kit_cg_iconst(&L->b, KIT_CG_I32, 1));
      lower_conversion_fact(L, r, nv, ty_int, e->lhs->type, e->pos);
    }
  }
  KitCgVal stored = lv_store(L, &lv, nv);
  bool post = e->kind == EX_POSTINC || e->kind == EX_POSTDEC;
  return post ? old : stored;
}

static KitCgVal opassign(Lower *L, CExpr *e) {
  LValue lv = lower_lvalue(L, e->lhs);
  /* the right operand first, then the old value: gcc's order, which programs
   * observe when the right side writes the left (x |= f() where f sets x) */
  KitCgVal rhs = lower_expr(L, e->rhs);
  KitCgVal old = lv_load(L, &lv);
  lower_set_loc(L, e->pos);
  KitCgVal nv;
  if (e->op == EX_PTRADD || e->op == EX_PTRSUB) {
    KitCgVal off = ptr_offset(L, e, rhs);
    if (e->op == EX_PTRSUB) off = kit_cg_unop(&L->b, KIT_CG_OP_NEG, off);
    nv = kit_cg_ptradd(&L->b, old, off);
    ptr_arith_fact(L, e->lhs->type, index_is_unsigned(e->rhs->type), e->op == EX_PTRSUB);
  } else {
    CType *ot = e->optype ? e->optype : e->lhs->type;
    KitCgVal a = lower_convert(L, old, e->lhs->type, ot);
    KitCgVal r = type_is_complex(type_unqual(ot)) ? lower_complex_opassign(L, e, a, rhs)
                                                  : lower_arith(L, e->op, a, rhs, ot, e->rhs->type);
    nv = lower_convert(L, r, ot, e->lhs->type);
    lower_conversion_fact(L, r, nv, ot, e->lhs->type, e->pos);
  }
  return lv_store(L, &lv, nv);
}

/* ---- va_arg, lowered as the SysV x86-64 ABI defines it (clang does the same):
 * the va_list is {u32 gp_offset, u32 fp_offset, ptr overflow_arg_area, ptr reg_save_area} */

static KitCgVal field_addr(Lower *L, KitCgVal ap, int off) { return off ? kit_cg_ptradd(&L->b, ap, lower_i64(L, off)) : ap; }

/* take `size` bytes (aligned to `align`) from the overflow area */
static KitCgVal va_overflow(Lower *L, KitCgVal ap, int64_t size, int align) {
  KitCgVal slot = field_addr(L, ap, 8);
  KitCgVal p = kit_cg_load(&L->b, KIT_CG_PTR, slot, 8, KIT_CG_PROGRAM);
  if (align > 8) {
    KitCgVal i = kit_cg_conv(&L->b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, p);
    i = kit_cg_binop(&L->b, KIT_CG_OP_ADD, i, lower_i64(L, align - 1));
    i = kit_cg_binop(&L->b, KIT_CG_OP_AND, i, lower_i64(L, -(int64_t)align));
    p = kit_cg_conv(&L->b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, i);
  }
  kit_cg_store(&L->b, kit_cg_ptradd(&L->b, p, lower_i64(L, (size + 7) & ~7)), slot, 8, KIT_CG_PROGRAM);
  return p;
}

KitCgVal lower_va_arg(Lower *L, KitCgVal ap, CType *t) {
  CType *u = type_unqual(t);
  AbiSig sig;
  CParam prm = {.type = t};
  CType fn = {.kind = TY_FUNC, .base = ty_void, .params = &prm};
  abi_classify(&fn, NULL, 0, &sig);
  AbiArg *a = &sig.params[0];
  int64_t size = u->size > 0 ? u->size : 8;
  /* an empty struct is not passed at all (gcc): va_arg consumes nothing */
  if (a->kind == ABI_IGNORE) return kit_cg_stackaddr(&L->b, kit_cg_stack_new(L->m, L->f, 1, 1, 0));
  if (a->kind == ABI_MEMORY || a->cg[0] == KIT_CG_F80)
    return va_overflow(L, ap, size, u->align);
  int ngp = 0, nsse = 0;
  for (int k = 0; k < a->n; k++) {
    if (kit_cg_type_is_float(a->cg[k]) || kit_cg_type_is_vec(a->cg[k])) nsse++; /* a vector: one XMM slot */
    else ngp += a->cg[k] == KIT_CG_I128 ? 2 : 1;
  }
  /* registers left? gp_offset <= 48 - 8*ngp and fp_offset <= 176 - 16*nsse */
  KitCgVal gp_slot = ap, fp_slot = field_addr(L, ap, 4);
  KitCgVal gp = kit_cg_load(&L->b, KIT_CG_I32, gp_slot, 4, KIT_CG_PROGRAM);
  KitCgVal fp = kit_cg_load(&L->b, KIT_CG_I32, fp_slot, 4, KIT_CG_PROGRAM);
  KitCgVal ok = kit_cg_iconst(&L->b, KIT_CG_I1, 1);
  if (ngp) ok = kit_cg_binop(&L->b, KIT_CG_OP_AND, ok, kit_cg_cmp(&L->b, KIT_CG_ULE, gp, kit_cg_iconst(&L->b, KIT_CG_I32, 48 - 8 * ngp)));
  if (nsse) ok = kit_cg_binop(&L->b, KIT_CG_OP_AND, ok, kit_cg_cmp(&L->b, KIT_CG_ULE, fp, kit_cg_iconst(&L->b, KIT_CG_I32, 176 - 16 * nsse)));
  KitCgBlkId in_regs = lower_new_block(L), in_mem = lower_new_block(L), join = lower_new_block(L);
  kit_cg_condbr(&L->b, ok, in_regs, in_mem);
  lower_start_block(L, in_regs);
  KitCgVal save = kit_cg_load(&L->b, KIT_CG_PTR, field_addr(L, ap, 16), 8, KIT_CG_PROGRAM);
  KitCgVal reg_addr;
  if (a->kind == ABI_DIRECT && a->cg[0] != KIT_CG_I128) {
    KitCgVal off = kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I64, nsse ? fp : gp);
    reg_addr = kit_cg_ptradd(&L->b, save, off);
  } else {
    /* a struct (or __int128) in registers: gather its eightbytes into a temporary */
    reg_addr = kit_cg_stackaddr(&L->b, kit_cg_stack_new(L->m, L->f, 16, 16, 0));
    KitCgVal g = kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I64, gp), f = kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I64, fp);
    int parts = a->cg[0] == KIT_CG_I128 ? 2 : a->n;
    for (int k = 0; k < parts; k++) {
      bool vec = kit_cg_type_is_vec(a->cg[k]); /* a struct of one 16-byte vector: its whole XMM slot */
      bool sse = a->cg[0] != KIT_CG_I128 && (kit_cg_type_is_float(a->cg[k]) || vec);
      KitCgVal src = kit_cg_ptradd(&L->b, save, sse ? f : g);
      KitCgVal v = kit_cg_load(&L->b, vec ? a->cg[k] : KIT_CG_I64, src, 8, KIT_CG_PROGRAM);
      kit_cg_store(&L->b, v, k ? kit_cg_ptradd(&L->b, reg_addr, lower_i64(L, 8)) : reg_addr, 8, KIT_CG_PROGRAM);
      if (sse) f = kit_cg_binop(&L->b, KIT_CG_OP_ADD, f, lower_i64(L, 16));
      else g = kit_cg_binop(&L->b, KIT_CG_OP_ADD, g, lower_i64(L, 8));
    }
  }
  if (ngp) kit_cg_store(&L->b, kit_cg_binop(&L->b, KIT_CG_OP_ADD, gp, kit_cg_iconst(&L->b, KIT_CG_I32, 8 * ngp)), gp_slot, 4, KIT_CG_PROGRAM);
  if (nsse) kit_cg_store(&L->b, kit_cg_binop(&L->b, KIT_CG_OP_ADD, fp, kit_cg_iconst(&L->b, KIT_CG_I32, 16 * nsse)), fp_slot, 4, KIT_CG_PROGRAM);
  KitCgBlkId reg_end = L->b.blk;
  kit_cg_br(&L->b, join);
  lower_start_block(L, in_mem);
  KitCgVal mem_addr = va_overflow(L, ap, size, u->align);
  KitCgBlkId mem_end = L->b.blk;
  kit_cg_br(&L->b, join);
  lower_start_block(L, join);
  KitCgInst *phi = kit_cg_phi(&L->b, KIT_CG_PTR);
  KitCgVal r = phi->id;
  kit_cg_phi_add(L->m, phi, reg_addr, reg_end);
  kit_cg_phi_add(L->m, phi, mem_addr, mem_end);
  return r;
}

static bool is_chain_op(CExprKind k) {
  switch (k) {
  case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV: case EX_MOD:
  case EX_SHL: case EX_SHR: case EX_BAND: case EX_BOR: case EX_BXOR:
  case EX_COMMA:
    return true;
  default:
    return false;
  }
}

/* a + b + c ... and a, b, c ...: the parser nests them to the left, as deep as
 * the expression is long; walk that spine with a stack of our own, not the C stack */
/* arithmetic on complex values: lower_complex_expr's (a comma just passes its value) */
static bool complex_arith(const CExpr *e) {
  return e->kind != EX_COMMA && type_is_complex(type_unqual(e->type));
}

static KitCgVal lower_chain(Lower *L, CExpr *e) {
  CExpr **spine = NULL;
  size_t n = 0, cap = 0;
  for (; is_chain_op(e->kind) && !complex_arith(e); e = e->lhs) {
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      spine = realloc(spine, cap * sizeof *spine);
      if (!spine) abort();
    }
    spine[n++] = e;
  }
  KitCgVal v = lower_expr(L, e);
  while (n--) {
    CExpr *op = spine[n];
    KitCgVal b = lower_expr(L, op->rhs);
    if (op->kind == EX_COMMA) {
      v = b;
      continue;
    }
    lower_set_loc(L, op->pos);
    v = lower_arith(L, op->kind, v, b, op->type, op->rhs->type);
  }
  free(spine);
  return v;
}

KitCgVal lower_expr(Lower *L, CExpr *e) {
  lower_set_loc(L, e->pos);
  if (lower_vector_owns(e)) return lower_vector_expr(L, e);
  switch (e->kind) {
  case EX_INT: {
    KitCgType ct = abi_cg_type(e->type);
    if (ct == KIT_CG_I128) return kit_cg_i128const(&L->b, (uint64_t)e->ival, (uint64_t)(e->ival >> 64));
    if (ct == KIT_CG_PTR) return kit_cg_conv(&L->b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, lower_i64(L, (int64_t)e->ival));
    return kit_cg_iconst(&L->b, ct, (uint64_t)e->ival);
  }
  case EX_FLOAT: {
    KitCgType ct = abi_cg_type(e->type);
    if (ct == KIT_CG_F80) return kit_cg_f80const(&L->b, e->fval);
    return kit_cg_fconst(&L->b, ct, (double)e->fval);
  }
  case EX_STRING:
  case EX_COMPOUND_LIT:
    return lower_load(L, lower_addr(L, e), e->type, false);
  case EX_VAR:
    if (e->obj->is_function) return lower_addr(L, e);
    /* fallthrough */
  case EX_DEREF:
  case EX_MEMBER: {
    LValue lv = lower_lvalue(L, e);
    lower_set_loc(L, lower_ub_loc(e, false)); /* the access, where UBSan reports it */
    return lv_load(L, &lv);
  }
  case EX_ADDR:
  case EX_DECAY:
    return lower_addr(L, e->lhs);
  case EX_LABEL_ADDR:
    return lower_label_addr(L, e);
  case EX_NEG: {
    if (type_is_complex(type_unqual(e->type))) return lower_complex_expr(L, e);
    KitCgVal v = lower_expr(L, e->lhs);
    lower_set_loc(L, e->pos);
    if (type_is_float(e->type)) return kit_cg_unop(&L->b, KIT_CG_OP_FNEG, v);
    KitCgVal r = kit_cg_binop(&L->b, KIT_CG_OP_SUB, kit_cg_iconst(&L->b, kit_cg_val_type(L->f, v), 0), v);
    if (type_is_signed(e->type)) last_inst(L)->flags |= lower_nsw(L);
    last_inst(L)->tydesc = lower_ub_tydesc(L, e->type, true);
    return r;
  }
  case EX_BITNOT:
    if (type_is_complex(type_unqual(e->type))) return lower_complex_expr(L, e);
    return kit_cg_unop(&L->b, KIT_CG_OP_NOT, lower_expr(L, e->lhs));
  case EX_LNOT:
    return kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, abi_cg_type(e->type), kit_cg_unop(&L->b, KIT_CG_OP_NOT, lower_cond(L, e->lhs)));
  case EX_PREINC: case EX_PREDEC: case EX_POSTINC: case EX_POSTDEC:
    return incdec(L, e);
  case EX_CAST: {
    KitCgVal v = lower_expr(L, e->lhs);
    lower_set_loc(L, e->pos); /* UBSan's float-cast-overflow reports the cast */
    KitCgVal r = lower_convert(L, v, e->lhs->type, e->type);
    if (e->implicit) lower_conversion_fact(L, v, r, e->lhs->type, e->type, lower_ub_begin(e->lhs));
    return r;
  }
  case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV: case EX_MOD:
  case EX_SHL: case EX_SHR: case EX_BAND: case EX_BOR: case EX_BXOR:
  case EX_COMMA:
    if (complex_arith(e)) return lower_complex_expr(L, e);
    return lower_chain(L, e);
  case EX_LT: case EX_LE: case EX_GT: case EX_GE: case EX_EQ: case EX_NE:
    return kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, abi_cg_type(e->type), compare(L, e));
  case EX_LAND: case EX_LOR: {
    KitCgVal v = logical(L, e);
    return int_resize(L, v, abi_cg_type(e->type), false);
  }
  case EX_PTRADD: case EX_PTRSUB: {
    KitCgVal p = lower_expr(L, e->lhs);
    /* the index's conversion to long is kitcc's, not a C conversion: no fact */
    CExpr *ix = e->rhs->kind == EX_CAST && e->rhs->implicit ? e->rhs->lhs : e->rhs;
    KitCgVal off = ptr_offset(L, e, lower_convert(L, lower_expr(L, ix), ix->type, e->rhs->type));
    lower_set_loc(L, e->pos);
    if (e->kind == EX_PTRSUB) off = kit_cg_unop(&L->b, KIT_CG_OP_NEG, off);
    KitCgVal r = kit_cg_ptradd(&L->b, p, off);
    /* a tydesc marks C pointer arithmetic (UBSan's pointer-overflow), as opposed to
     * the frontend's own address computations (members, va_arg) */
    ptr_arith_fact(L, e->lhs->type, index_is_unsigned(ix->type), e->kind == EX_PTRSUB);
    if (e->subscript) {
      /* clang reports p[i] at its base */
      CPos at = lower_ub_loc(e->lhs, true);
      last_inst(L)->loc.line = (uint32_t)at.line;
      last_inst(L)->loc.col = (uint32_t)at.col;
    }
    if (e->bound >= 0) {
      KitCgInst *in = last_inst(L);
      in->flags |= KIT_CG_F_BOUNDS;
      in->bound = e->bound;
      /* UBSan names the array type ("int[10]") and reports at the array */
      if (e->lhs->kind == EX_DECAY && e->lhs->lhs) {
        in->tydesc = lower_ub_tydesc(L, e->lhs->lhs->type, true);
        /* clang-16 (-fstrict-flex-arrays=0) takes a struct's last array for a flexible one */
        CExpr *arr = e->lhs->lhs;
        if (arr->kind == EX_MEMBER && arr->member && !arr->member->next) in->flags &= (uint16_t)~KIT_CG_F_BOUNDS;
      }
    }
    return r;
  }
  case EX_PTRDIFF: {
    KitCgVal a = as_int(L, lower_expr(L, e->lhs)), b = as_int(L, lower_expr(L, e->rhs));
    KitCgVal d = kit_cg_binop(&L->b, KIT_CG_OP_SUB, a, b);
    KitCgVal step = e->step ? lower_i64(L, e->step) : lower_vla_size(L, e->vla_type);
    if (e->step == 1) return d;
    KitCgVal q = kit_cg_binop(&L->b, KIT_CG_OP_SDIV, d, step);
    last_inst(L)->flags |= KIT_CG_F_EXACT;
    return q;
  }
  case EX_ASSIGN: {
    LValue lv = lower_lvalue(L, e->lhs);
    KitCgVal v = lower_expr(L, e->rhs);
    lower_set_loc(L, lower_ub_loc(e->lhs, false)); /* the store, where UBSan reports it */
    KitCgVal r = lv_store(L, &lv, v);
    return is_aggr(e->type) ? lv.addr : r;
  }
  case EX_OPASSIGN:
    return opassign(L, e);
  case EX_COND:
    return conditional(L, e);
  case EX_CALL:
    return lower_call(L, e);
  case EX_STMT_EXPR:
    return lower_stmt_expr(L, e);
  case EX_VLA_SIZEOF:
    return lower_convert(L, lower_vla_size(L, e->vla_type), ty_long, e->type);
  case EX_VA_ARG: {
    KitCgVal ap = type_unqual(e->lhs->type)->kind == TY_PTR ? lower_expr(L, e->lhs) : lower_addr(L, e->lhs);
    KitCgVal addr = lower_va_arg(L, ap, e->type);
    return lower_load(L, addr, e->type, false);
  }
  case EX_BUILTIN:
    return lower_builtin(L, e);
  case EX_COMPLEX:
    return lower_complex_expr(L, e);
  default:
    c_error(L->diag, e->pos, "internal: cannot lower this expression (kind %d)", (int)e->kind);
    return kit_cg_iconst(&L->b, KIT_CG_I32, 0);
  }
}
