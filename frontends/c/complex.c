/* frontends/c/complex.c — _Complex in the parser: imaginary constants (GNU
 * 2.0i, 1.0iF), __real__/__imag__ as member accesses of the two parts,
 * the builtins (__builtin_complex for CMPLX, creal/cimag/conj and their
 * __builtin_ forms) and constant evaluation for static initializers. */
#include <string.h>

#include "parse.h"

static CExpr *zero_of(CType *t, CPos pos) {
  if (!type_is_float(t)) return new_int(0, t, pos);
  CExpr *z = new_expr(EX_FLOAT, t, pos);
  z->fval = 0;
  return z;
}

CExpr *imaginary_constant(CExpr *e) {
  CExpr *c = new_expr(EX_COMPLEX, type_complex(e->type), e->pos);
  c->lhs = zero_of(e->type, e->pos);
  c->rhs = e;
  return c;
}

CExpr *complex_part(Parser *p, CExpr *e, bool imag, CPos pos) {
  CType *t = type_unqual(e->type);
  if (type_is_complex(t)) {
    /* an lvalue of an lvalue: the member of struct { T real, imag; } */
    CMember *m = imag ? t->members->next : t->members;
    CExpr *x = new_expr(EX_MEMBER, type_qualified(m->type, e->type->quals & (Q_CONST | Q_VOLATILE)), pos);
    x->lhs = e;
    x->member = m;
    x->is_lvalue = e->is_lvalue;
    return x;
  }
  e = rvalue(p, e);
  if (!type_is_arith(t)) {
    perror_at(p, pos, "wrong type argument to %s", imag ? "__imag__" : "__real__");
    return new_int(0, ty_int, pos);
  }
  if (!imag) return e;
  /* the imaginary part of a real is 0, after the real's side effects */
  CExpr *c = new_expr(EX_COMMA, t, pos);
  c->lhs = e;
  c->rhs = zero_of(t, pos);
  return c;
}

/* the element type a creal/cimag/conj name's suffix says, or NULL if the name is not one */
static CType *part_function(const char *name, int *what) {
  static const char *const bases[] = {"creal", "cimag", "conj"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(bases[i]);
    if (strncmp(name, bases[i], n)) continue;
    *what = i;
    if (!name[n]) return ty_double;
    if (!strcmp(name + n, "f")) return ty_float;
    if (!strcmp(name + n, "l")) return ty_ldouble;
  }
  return NULL;
}

/* CMPLX, CMPLXF, CMPLXL: the element type, or NULL */
static CType *cmplx_macro(const char *name) {
  if (!strcmp(name, "CMPLX")) return ty_double;
  if (!strcmp(name, "CMPLXF")) return ty_float;
  if (!strcmp(name, "CMPLXL")) return ty_ldouble;
  return NULL;
}

bool is_complex_function(const char *name, CType *declared) {
  int what;
  if (!strcmp(name, "__builtin_complex")) return true;
  /* glibc's <complex.h> defines CMPLX only for gcc >= 4.7 and kitcc says 4.2:
   * an undeclared CMPLX(x, y) is __builtin_complex((double)(x), (double)(y)) */
  if (cmplx_macro(name)) return !declared;
  if (!strncmp(name, "__builtin_", 10)) name += 10;
  CType *el = part_function(name, &what);
  if (!el || !declared) return el != NULL;
  /* a declaration of another type shadows the builtin (gcc warns and uses it) */
  CType *f = type_unqual(declared), *want = what == 2 ? type_complex(el) : el;
  return f->kind == TY_FUNC && type_unqual(f->base) == want && f->params && !f->params->next &&
         type_unqual(f->params->type) == type_complex(el);
}

static CExpr *builtin_complex(Parser *p, CExprList *args, CPos pos) {
  if (!args || !args->next || args->next->next) {
    perror_at(p, pos, "wrong number of arguments to '__builtin_complex'");
    return new_int(0, ty_int, pos);
  }
  CExpr *re = rvalue(p, args->expr), *im = rvalue(p, args->next->expr);
  CType *t = type_unqual(re->type);
  if (!type_is_float(t) || type_unqual(im->type)->kind != t->kind) {
    perror_at(p, pos, "'__builtin_complex' operands must be of the same real floating type");
    return new_int(0, ty_int, pos);
  }
  CExpr *c = new_expr(EX_COMPLEX, type_complex(t), pos);
  c->lhs = re;
  c->rhs = im;
  return c;
}

CExpr *complex_builtin(Parser *p, const char *name, CPos pos) {
  const char *base = strncmp(name, "__builtin_", 10) ? name : name + 10;
  int what = 0;
  CType *el = strcmp(base, "complex") ? part_function(base, &what) : NULL;
  expect(p, "(");
  CExprList *args = parse_call_args(p);
  CType *cmplx = cmplx_macro(name);
  if (cmplx)
    for (CExprList *a = args; a; a = a->next) a->expr = convert(p, rvalue(p, a->expr), cmplx);
  if (!el) return builtin_complex(p, args, pos);
  if (!args || args->next) {
    perror_at(p, pos, "wrong number of arguments to '%s'", name);
    return new_int(0, ty_int, pos);
  }
  CExpr *z = assign_convert(p, args->expr, type_complex(el), "passing argument");
  if (what < 2) return complex_part(p, z, what == 1, pos);
  CExpr *c = new_expr(EX_BITNOT, z->type, pos); /* GNU ~z: the conjugate */
  c->lhs = z;
  return c;
}

/* ---- constant evaluation ------------------------------------------------------------- */

static long double round_to(long double v, CType *el) {
  switch (type_unqual(el)->kind) {
  case TY_FLOAT: return (float)v;
  case TY_DOUBLE: return (double)v;
  case TY_LDOUBLE: return v;
  default: return (long double)(int64_t)v;
  }
}

static bool eval_real(CExpr *e, long double *out) {
  int64_t i;
  if (type_is_float(type_unqual(e->type))) return c_eval_float(e, out);
  if (!c_eval_int(e, &i)) return false;
  *out = type_unqual(e->type)->is_unsigned ? (long double)(uint64_t)i : (long double)i;
  return true;
}

bool complex_real_operand(CExpr *e) {
  return e->kind == EX_CAST && e->implicit && !type_is_complex(type_unqual(e->lhs->type)) &&
         type_is_complex(type_unqual(e->type)) && type_is_float(type_unqual(e->type)->base);
}

/* the operations as the lowering does them (lower_complex.c) */
static bool eval_arith(CExpr *e, long double *re, long double *im, CType *el) {
  long double ar, ai, br, bi;
  if (!c_eval_complex(e->lhs, &ar, &ai) || !c_eval_complex(e->rhs, &br, &bi)) return false;
  bool a_real = complex_real_operand(e->lhs), b_real = complex_real_operand(e->rhs);
  switch (e->kind) {
  case EX_ADD:
    *re = ar + br, *im = b_real ? ai : a_real ? bi : ai + bi;
    break;
  case EX_SUB:
    *re = ar - br, *im = b_real ? ai : a_real ? -bi : ai - bi;
    break;
  case EX_MUL:
    if (b_real) *re = ar * br, *im = ai * br;
    else if (a_real) *re = ar * br, *im = ar * bi;
    else *re = ar * br - ai * bi, *im = ar * bi + ai * br;
    break;
  default: {
    if (!type_is_float(el)) return false;
    if (b_real) {
      *re = ar / br, *im = ai / br;
      break;
    }
    long double d = br * br + bi * bi;
    *re = (ar * br + ai * bi) / d, *im = (ai * br - ar * bi) / d;
    break;
  }
  }
  return true;
}

bool c_eval_complex(CExpr *e, long double *re, long double *im) {
  CType *t = type_unqual(e->type);
  if (!type_is_complex(t)) {
    *im = 0;
    return eval_real(e, re);
  }
  CType *el = t->base;
  bool ok;
  switch (e->kind) {
  case EX_COMPLEX:
    ok = eval_real(e->lhs, re) && eval_real(e->rhs, im);
    break;
  case EX_CAST:
    ok = c_eval_complex(e->lhs, re, im);
    break;
  case EX_NEG: case EX_BITNOT:
    ok = c_eval_complex(e->lhs, re, im);
    if (e->kind == EX_NEG) *re = -*re;
    *im = -*im;
    break;
  case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV:
    ok = eval_arith(e, re, im, el);
    break;
  case EX_COMMA:
    return c_eval_complex(e->rhs, re, im);
  default:
    return false;
  }
  if (!ok) return false;
  *re = round_to(*re, el);
  *im = round_to(*im, el);
  return true;
}
