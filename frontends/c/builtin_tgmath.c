/* frontends/c/builtin_tgmath.c — gcc's __builtin_tgmath(F1, ..., Fn, A1, ...,
 * Am), which glibc's <tgmath.h> uses for every type-generic macro: the call of
 * the Fi whose type-generic parameters have the type C11 7.25 picks from the
 * arguments (complex if one is; else long double, double — integers count as
 * double — or float, the widest present). */
#include <string.h>

#include "parse.h"

enum { TG_MAX_FUNCS = 32, TG_MAX_ARGS = 4 };

/* the real type of a generic argument or parameter: its element type when complex */
static CType *real_part(CType *t) {
  t = type_unqual(t);
  return t->kind == TY_COMPLEX ? type_unqual(t->base) : t;
}

static int real_rank(const CType *t) {
  return t->kind == TY_LDOUBLE ? 3 : t->kind == TY_DOUBLE ? 2 : t->kind == TY_FLOAT ? 1 : 0;
}

static CType *param_type(CType *fn, int i) {
  CParam *q = fn->params;
  while (q && i--) q = q->next;
  return q ? q->type : NULL;
}

/* parameter i is type-generic when the functions do not all agree on its type */
static bool generic_param(CType **fns, int n, int i) {
  for (int f = 1; f < n; f++)
    if (!type_compatible(type_unqual(param_type(fns[f], i)), type_unqual(param_type(fns[0], i)))) return true;
  return false;
}

/* the function's type-generic type: that of its first generic parameter */
static CType *generic_type(CType *fn, const bool *generic, int m) {
  for (int i = 0; i < m; i++)
    if (generic[i]) return type_unqual(param_type(fn, i));
  return NULL;
}

static bool is_function_designator(const CExpr *e) {
  return e->kind == EX_VAR && e->obj && e->obj->is_function;
}

/* the index of the function to call, or -1 after an error */
static int tg_select(Parser *p, CType **types, int n, CExpr **args, int m, CPos pos) {
  bool generic[TG_MAX_ARGS], any = false, complex = false;
  int rank = 0;
  for (int i = 0; i < m; i++) {
    generic[i] = generic_param(types, n, i);
    if (!generic[i]) continue;
    any = true;
    CType *t = type_unqual(args[i]->type);
    if (!type_is_arith(t)) {
      perror_at(p, args[i]->pos, "invalid type of argument %d to '__builtin_tgmath'", i + 1);
      return -1;
    }
    complex |= t->kind == TY_COMPLEX;
    int r = type_is_integer(real_part(t)) ? 2 : real_rank(real_part(t));
    if (r > rank) rank = r;
  }
  if (!any) {
    perror_at(p, pos, "'__builtin_tgmath' functions have no type-generic parameter");
    return -1;
  }
  /* the exact match, else (a real argument to a complex-only function) its complex form */
  int fallback = -1;
  for (int f = 0; f < n; f++) {
    CType *g = generic_type(types[f], generic, m);
    if (!g || real_rank(real_part(g)) != rank) continue;
    if ((g->kind == TY_COMPLEX) == complex) return f;
    if (g->kind == TY_COMPLEX && fallback < 0) fallback = f;
  }
  if (fallback >= 0) return fallback;
  perror_at(p, pos, "no function among the arguments of '__builtin_tgmath' takes %s%s", complex ? "complex " : "",
            rank == 3 ? "long double" : rank == 1 ? "float" : "double");
  return -1;
}

CExpr *parse_tgmath_builtin(Parser *p, CPos pos) {
  expect(p, "(");
  CExprList *list = parse_call_args(p);
  CExpr *fns[TG_MAX_FUNCS], *args[TG_MAX_ARGS];
  CType *types[TG_MAX_FUNCS];
  int n = 0, m = 0;
  CExprList *a = list;
  for (; a && is_function_designator(a->expr); a = a->next) {
    if (n == TG_MAX_FUNCS) break;
    types[n] = type_unqual(a->expr->obj->type);
    fns[n++] = a->expr;
  }
  CExprList *call_args = a;
  for (; a; a = a->next) {
    if (m == TG_MAX_ARGS) break;
    args[m++] = a->expr;
  }
  if (n < 2 || m < 1 || a) {
    perror_at(p, pos, "'__builtin_tgmath' takes at least two functions, then their 1 to %d arguments", TG_MAX_ARGS);
    return new_int(0, ty_int, pos);
  }
  for (int f = 0; f < n; f++) {
    int k = 0;
    for (CParam *q = types[f]->params; q; q = q->next) k++;
    if (k != m || types[f]->variadic) {
      perror_at(p, fns[f]->pos, "'%s' does not take the %d arguments given to '__builtin_tgmath'", fns[f]->obj->name, m);
      return new_int(0, ty_int, pos);
    }
  }
  int f = tg_select(p, types, n, args, m, pos);
  if (f < 0) return new_int(0, ty_int, pos);
  return finish_call(p, fns[f], call_args, pos);
}
