/* frontends/c/eval.c — constant expressions: integer constant expressions
 * (with the arithmetic of their C types), floating constants, and address
 * constants for static initializers (&object + offset, string literals,
 * function designators, the offsetof idiom). */
#include <stdlib.h>

#include "cc.h"

static int64_t wrap(int64_t v, CType *t) {
  t = type_unqual(t);
  if (t->kind == TY_ENUM) t = t->base;
  if (t->kind == TY_BOOL) return v != 0;
  if (t->kind == TY_PTR) return v;
  switch (t->size) {
  case 1: return t->is_unsigned ? (int64_t)(uint8_t)v : (int64_t)(int8_t)v;
  case 2: return t->is_unsigned ? (int64_t)(uint16_t)v : (int64_t)(int16_t)v;
  case 4: return t->is_unsigned ? (int64_t)(uint32_t)v : (int64_t)(int32_t)v;
  default: return v;
  }
}

static bool is_unsigned_type(CType *t) {
  t = type_unqual(t);
  if (t->kind == TY_ENUM) t = t->base;
  return t->is_unsigned || t->kind == TY_PTR;
}

static bool is_float_arith(CExpr *e) {
  return (e->kind == EX_ADD || e->kind == EX_SUB || e->kind == EX_MUL || e->kind == EX_DIV) && type_is_float(e->type);
}

/* 1.0 + 2.0 + ...: as eval_int_chain, down the left spine with a stack of our own */
static bool eval_float_chain(CExpr *e, long double *out) {
  CExpr **spine = NULL;
  size_t n = 0, cap = 0;
  for (; is_float_arith(e); e = e->lhs) {
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      spine = realloc(spine, cap * sizeof *spine);
      if (!spine) abort();
    }
    spine[n++] = e;
  }
  long double v, b;
  bool ok = n && c_eval_float(e, &v);
  while (ok && n--) {
    CExpr *op = spine[n];
    ok = c_eval_float(op->rhs, &b);
    v = op->kind == EX_ADD ? v + b : op->kind == EX_SUB ? v - b : op->kind == EX_MUL ? v * b : v / b;
    if (type_unqual(op->type)->kind == TY_FLOAT) v = (float)v;
    else if (type_unqual(op->type)->kind == TY_DOUBLE) v = (double)v;
  }
  free(spine);
  if (ok) *out = v;
  return ok;
}

bool c_eval_float(CExpr *e, long double *out) {
  long double a, b;
  int64_t i;
  switch (e->kind) {
  case EX_FLOAT:
    *out = e->fval;
    return true;
  case EX_INT:
    *out = is_unsigned_type(e->type) ? (long double)(uint64_t)e->ival : (long double)(int64_t)e->ival;
    return true;
  case EX_CAST:
    if (type_is_float(e->lhs->type)) {
      if (!c_eval_float(e->lhs, &a)) return false;
    } else if (type_is_complex(type_unqual(e->lhs->type))) {
      if (!c_eval_complex(e->lhs, &a, &b)) return false; /* the real part */
    } else if (type_is_integer(e->lhs->type) && c_eval_int(e->lhs, &i)) {
      a = is_unsigned_type(e->lhs->type) ? (long double)(uint64_t)i : (long double)i;
    } else {
      return false;
    }
    switch (type_unqual(e->type)->kind) {
    case TY_FLOAT: *out = (float)a; break;
    case TY_DOUBLE: *out = (double)a; break;
    default: *out = a;
    }
    return true;
  case EX_NEG:
    if (!c_eval_float(e->lhs, &a)) return false;
    *out = -a;
    return true;
  case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV:
    return eval_float_chain(e, out);
  case EX_COND:
    if (!c_eval_int(e->cond, &i) && !(type_is_float(e->cond->type) && c_eval_float(e->cond, &a) && ((i = a != 0), 1)))
      return false;
    return c_eval_float(i ? (e->lhs ? e->lhs : e->cond) : e->rhs, out);
  case EX_COMMA:
    return c_eval_float(e->rhs, out);
  case EX_MEMBER: /* __real__, __imag__ of a complex constant */
    if (!type_is_complex(type_unqual(e->lhs->type)) || !c_eval_complex(e->lhs, &a, &b)) return false;
    *out = e->member->offset ? b : a;
    return true;
  default:
    return false;
  }
}

static bool is_int_arith(CExprKind k) {
  switch (k) {
  case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV: case EX_MOD: case EX_SHL: case EX_SHR:
  case EX_BAND: case EX_BOR: case EX_BXOR:
    return true;
  default:
    return false;
  }
}

/* e's operator on its operands' values a and b, in e's type */
static bool fold_int(CExpr *e, int64_t a, int64_t b, int64_t *out) {
  bool u = is_unsigned_type(e->type);
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  int64_t r;
  switch (e->kind) {
  case EX_ADD: r = (int64_t)(ua + ub); break;
  case EX_SUB: r = (int64_t)(ua - ub); break;
  case EX_MUL: r = (int64_t)(ua * ub); break;
  case EX_DIV:
    if (!b) return false;
    if (u) r = (int64_t)((uint64_t)wrap(a, e->type) / (uint64_t)wrap(b, e->type));
    else r = (a == INT64_MIN && b == -1) ? a : a / b;
    break;
  case EX_MOD:
    if (!b) return false;
    if (u) r = (int64_t)((uint64_t)wrap(a, e->type) % (uint64_t)wrap(b, e->type));
    else r = (b == -1) ? 0 : a % b;
    break;
  case EX_SHL: r = b >= 64 || b < 0 ? 0 : (int64_t)(ua << b); break;
  case EX_SHR: {
    int bits = type_unqual(e->type)->size * 8;
    if (b >= 64 || b < 0) {
      r = u || a >= 0 ? 0 : -1;
    } else if (u) {
      uint64_t x = bits < 64 ? ua & ((1ull << bits) - 1) : ua;
      r = (int64_t)(x >> b);
    } else {
      r = a >> b;
    }
    break;
  }
  case EX_BAND: r = a & b; break;
  case EX_BOR: r = a | b; break;
  default: r = a ^ b; break;
  }
  *out = wrap(r, e->type);
  return true;
}

/* 1 + 2 + 3 ...: the left operands nest as deep as the chain is long; walk
 * down that spine iteratively, then fold back up it */
static bool eval_int_chain(CExpr *e, int64_t *out) {
  CExpr **spine = NULL;
  size_t n = 0, cap = 0;
  for (; is_int_arith(e->kind) && type_is_integer(e->type); e = e->lhs) {
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      spine = realloc(spine, cap * sizeof *spine);
      if (!spine) abort();
    }
    spine[n++] = e;
  }
  int64_t v, b;
  bool ok = !is_int_arith(e->kind) && c_eval_int(e, &v);
  while (ok && n--) ok = c_eval_int(spine[n]->rhs, &b) && fold_int(spine[n], v, b, &v);
  free(spine);
  if (ok) *out = v;
  return ok;
}

/* An expression the optimiser may still evaluate: no stores, calls, volatile
 * reads or statement expressions anywhere in it. */
bool c_expr_is_pure(const CExpr *e) {
  if (!e) return true;
  switch (e->kind) {
  case EX_ASSIGN: case EX_OPASSIGN: case EX_PREINC: case EX_PREDEC: case EX_POSTINC: case EX_POSTDEC:
  case EX_CALL: case EX_STMT_EXPR: case EX_VA_ARG: case EX_BUILTIN: case EX_VLA_SIZEOF: case EX_COMPOUND_LIT:
    return false;
  case EX_VAR: case EX_DEREF: case EX_MEMBER:
    if (e->type && (e->type->quals & Q_VOLATILE)) return false;
    break;
  default:
    break;
  }
  return c_expr_is_pure(e->lhs) && c_expr_is_pure(e->rhs) && c_expr_is_pure(e->cond);
}

/* set while a caller needs an integer constant expression (c_eval_ice): a
 * __builtin_constant_p the parser left to the optimiser is then 0, as gcc
 * folds it where a constant is required (__builtin_choose_expr's condition,
 * case labels, bit-field widths) */
static bool ice_required;

bool c_eval_ice(CExpr *e, int64_t *out) {
  bool saved = ice_required;
  ice_required = true;
  bool ok = c_eval_int(e, out);
  ice_required = saved;
  return ok;
}

bool c_eval_int(CExpr *e, int64_t *out) {
  int64_t a, b;
  long double f;
  switch (e->kind) {
  case EX_INT:
    *out = wrap((int64_t)e->ival, e->type);
    return true;
  case EX_CAST: {
    CType *from = type_unqual(e->lhs->type);
    if (type_unqual(e->type)->kind == TY_VOID) return false;
    if (type_is_float(from)) {
      if (!c_eval_float(e->lhs, &f)) return false;
      if (type_unqual(e->type)->kind == TY_BOOL) {
        *out = f != 0;
        return true;
      }
      *out = is_unsigned_type(e->type) ? (int64_t)(uint64_t)f : (int64_t)f;
      *out = wrap(*out, e->type);
      return true;
    }
    if (from->kind == TY_PTR || from->kind == TY_ARRAY || from->kind == TY_FUNC) {
      CAddrConst ac;
      if (!c_eval_addr(e->lhs, &ac) || ac.obj || ac.str || ac.label) return false;
      *out = wrap(ac.offset, e->type);
      return true;
    }
    if (!c_eval_int(e->lhs, &a)) return false;
    *out = wrap(a, e->type);
    return true;
  }
  case EX_NEG:
    if (!c_eval_int(e->lhs, &a)) return false;
    *out = wrap((int64_t)(0 - (uint64_t)a), e->type);
    return true;
  case EX_BITNOT:
    if (!c_eval_int(e->lhs, &a)) return false;
    *out = wrap(~a, e->type);
    return true;
  case EX_LNOT:
    if (type_is_float(e->lhs->type)) {
      if (!c_eval_float(e->lhs, &f)) return false;
      *out = f == 0;
      return true;
    }
    if (!c_eval_int(e->lhs, &a)) return false;
    *out = !a;
    return true;
  case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV: case EX_MOD: case EX_SHL: case EX_SHR:
  case EX_BAND: case EX_BOR: case EX_BXOR:
    return eval_int_chain(e, out);
  case EX_LT: case EX_LE: case EX_GT: case EX_GE: case EX_EQ: case EX_NE: {
    if (type_is_float(e->lhs->type)) {
      long double x, y;
      if (!c_eval_float(e->lhs, &x) || !c_eval_float(e->rhs, &y)) return false;
      *out = e->kind == EX_LT ? x < y : e->kind == EX_LE ? x <= y : e->kind == EX_GT ? x > y
           : e->kind == EX_GE ? x >= y : e->kind == EX_EQ ? x == y : x != y;
      return true;
    }
    if (!c_eval_int(e->lhs, &a) || !c_eval_int(e->rhs, &b)) return false;
    bool u = is_unsigned_type(e->lhs->type);
    if (u) {
      uint64_t x = (uint64_t)a, y = (uint64_t)b;
      *out = e->kind == EX_LT ? x < y : e->kind == EX_LE ? x <= y : e->kind == EX_GT ? x > y
           : e->kind == EX_GE ? x >= y : e->kind == EX_EQ ? x == y : x != y;
    } else {
      *out = e->kind == EX_LT ? a < b : e->kind == EX_LE ? a <= b : e->kind == EX_GT ? a > b
           : e->kind == EX_GE ? a >= b : e->kind == EX_EQ ? a == b : a != b;
    }
    return true;
  }
  case EX_LAND:
    if (!c_eval_int(e->lhs, &a)) return false;
    if (!a) {
      *out = 0;
      return true;
    }
    if (!c_eval_int(e->rhs, &b)) return false;
    *out = b != 0;
    return true;
  case EX_LOR:
    if (!c_eval_int(e->lhs, &a)) return false;
    if (a) {
      *out = 1;
      return true;
    }
    if (!c_eval_int(e->rhs, &b)) return false;
    *out = b != 0;
    return true;
  case EX_COND:
    if (!c_eval_int(e->cond, &a)) return false;
    return c_eval_int(a ? (e->lhs ? e->lhs : e->cond) : e->rhs, out) && ((*out = wrap(*out, e->type)), true);
  case EX_COMMA:
    return c_eval_int(e->rhs, out);
  case EX_MEMBER: { /* __real__, __imag__ of a complex integer constant */
    long double re, im;
    if (!type_is_complex(type_unqual(e->lhs->type)) || !type_is_integer(e->type) || !c_eval_complex(e->lhs, &re, &im))
      return false;
    *out = wrap((int64_t)(e->member->offset ? im : re), e->type);
    return true;
  }
  case EX_PTRDIFF: {
    CAddrConst x, y;
    if (!c_eval_addr(e->lhs, &x) || !c_eval_addr(e->rhs, &y) || x.obj != y.obj || x.str != y.str || x.label || y.label)
      return false;
    *out = e->step ? (x.offset - y.offset) / e->step : 0;
    return true;
  }
  case EX_BUILTIN:
    if (e->builtin != BI_CONSTANT_P || !ice_required) return false;
    *out = 0;
    return true;
  default:
    return false;
  }
}

static bool lvalue_addr(CExpr *e, CAddrConst *out) {
  switch (e->kind) {
  case EX_VAR:
    if (e->obj->is_local) return false;
    out->obj = e->obj;
    out->offset = 0;
    return true;
  case EX_STRING:
    out->str = e;
    out->offset = 0;
    return true;
  case EX_COMPOUND_LIT:
    if (e->obj->is_local) return false;
    out->obj = e->obj;
    out->offset = 0;
    return true;
  case EX_MEMBER:
    if (!lvalue_addr(e->lhs, out)) return false;
    out->offset += e->member->offset;
    return true;
  case EX_DEREF:
    return c_eval_addr(e->lhs, out);
  default:
    return false;
  }
}

/* (intptr_t)&x + 4 - 2, 4 + (intptr_t)&x: an address plus integers. Up the
 * left spine of + and - from its bottom, keeping both what the part so far
 * is as an address and as an integer (each level needs one of them), so
 * that a long chain costs neither deep recursion nor a rescan per level. */
static bool eval_addr_chain(CExpr *e, CAddrConst *out) {
  CExpr **spine = NULL;
  size_t n = 0, cap = 0;
  for (; e->kind == EX_ADD || e->kind == EX_SUB; e = e->lhs) {
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      spine = realloc(spine, cap * sizeof *spine);
      if (!spine) abort();
    }
    spine[n++] = e;
  }
  CAddrConst a, b;
  int64_t iv, v;
  bool addr_ok = c_eval_addr(e, &a), int_ok = c_eval_int(e, &iv);
  while ((addr_ok || int_ok) && n--) {
    CExpr *op = spine[n];
    bool rhs_int = c_eval_int(op->rhs, &v);
    if (addr_ok && rhs_int) {
      a.offset += op->kind == EX_ADD ? v : -v;
    } else if (op->kind == EX_ADD && int_ok && c_eval_addr(op->rhs, &b)) {
      a = b;
      a.offset += iv;
      addr_ok = true;
    } else {
      addr_ok = false;
    }
    int_ok = int_ok && rhs_int && type_is_integer(op->type) && fold_int(op, iv, v, &iv);
  }
  free(spine);
  if (addr_ok) *out = a;
  return addr_ok;
}

bool c_eval_addr(CExpr *e, CAddrConst *out) {
  *out = (CAddrConst){0};
  int64_t v;
  switch (e->kind) {
  case EX_ADDR: case EX_DECAY:
    return lvalue_addr(e->lhs, out);
  case EX_VAR:
    if (!e->obj->is_function) return false;
    out->obj = e->obj;
    return true;
  case EX_LABEL_ADDR:
    out->label = e->label;
    out->label_fn = e->obj;
    return true;
  case EX_PTRDIFF: {
    /* GNU: &&a - &&b (void *: step 1), a link-time constant */
    CAddrConst y;
    if (e->step != 1 || !c_eval_addr(e->lhs, out) || !c_eval_addr(e->rhs, &y)) return false;
    if (!out->label || out->label2 || !y.label || y.label2 || out->label_fn != y.label_fn) return false;
    out->label2 = y.label;
    out->offset -= y.offset;
    return true;
  }
  case EX_INT:
    out->offset = (int64_t)e->ival;
    return true;
  case EX_CAST:
    if (type_is_integer(e->lhs->type)) {
      if (c_eval_int(e->lhs, &v)) {
        out->offset = v;
        return true;
      }
      return c_eval_addr(e->lhs, out);
    }
    if (type_unqual(e->lhs->type)->kind == TY_PTR || type_unqual(e->lhs->type)->kind == TY_ARRAY ||
        type_unqual(e->lhs->type)->kind == TY_FUNC)
      return c_eval_addr(e->lhs, out);
    return false;
  case EX_PTRADD: case EX_PTRSUB:
    if (!c_eval_addr(e->lhs, out) || !c_eval_int(e->rhs, &v)) return false;
    out->offset += (e->kind == EX_PTRADD ? v : -v) * e->step;
    return true;
  case EX_ADD: case EX_SUB:
    return eval_addr_chain(e, out);
  case EX_COND:
    if (!c_eval_int(e->cond, &v)) return false;
    return c_eval_addr(v ? (e->lhs ? e->lhs : e->cond) : e->rhs, out);
  case EX_COMMA:
    return c_eval_addr(e->rhs, out);
  default:
    return false;
  }
}
