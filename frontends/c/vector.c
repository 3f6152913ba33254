/* frontends/c/vector.c — GNU vector types in the parser: vector_size on a
 * declaration, the operators with gcc's rules (lane by lane, a scalar operand
 * broadcast to every lane, comparisons giving a signed integer vector of -1/0),
 * v[i] as an lvalue, casts between same-size vectors and integers, and
 * __builtin_shuffle, __builtin_convertvector and __builtin_ia32_*. */
#include <string.h>

#include "vector.h"

static int uses;
int vector_uses(void) { return uses; }
void vector_note_use(void) { uses++; }

bool vector_signature(CType *fn) {
  fn = type_unqual(fn);
  if (fn->kind != TY_FUNC) return false;
  if (vector_type(fn->base)) return true;
  for (CParam *q = fn->params; q; q = q->next)
    if (vector_type(q->type)) return true;
  return false;
}

static CExpr *cast(CExpr *e, CType *t) {
  if (e->type == t) return e;
  CExpr *c = new_expr(EX_CAST, t, e->pos);
  c->lhs = e;
  c->implicit = true;
  return c;
}

static CType *int_of_size(int64_t size, bool is_unsigned) {
  switch (size) {
  case 1: return is_unsigned ? ty_uchar : ty_schar;
  case 2: return is_unsigned ? ty_ushort : ty_short;
  case 4: return is_unsigned ? ty_uint : ty_int;
  default: return is_unsigned ? ty_ullong : ty_llong;
  }
}

CType *vector_apply_size(Parser *p, CType *t, int64_t bytes, CPos pos) {
  CType *u = type_unqual(t);
  unsigned q = t->quals;
  switch (u->kind) {
  case TY_PTR: return type_qualified(type_ptr(vector_apply_size(p, u->base, bytes, pos)), q);
  case TY_ARRAY:
    return type_qualified(u->vla_len ? type_vla(vector_apply_size(p, u->base, bytes, pos), u->vla_len)
                                     : type_array(vector_apply_size(p, u->base, bytes, pos), u->len), q);
  case TY_FUNC: return type_func(vector_apply_size(p, u->base, bytes, pos), u->params, u->variadic, u->old_style);
  default: break;
  }
  CType *e = u->kind == TY_ENUM ? u->base : u;
  bool ok = (type_is_integer(e) && e->kind != TY_BOOL && e->size <= 8) || e->kind == TY_FLOAT || e->kind == TY_DOUBLE;
  if (!ok) {
    if (type_is_arith(e)) perror_at(p, pos, "vectors of this element type are not supported by kitcc");
    else perror_at(p, pos, "invalid vector type for attribute 'vector_size'");
    return t;
  }
  int64_t lanes = bytes / e->size;
  if (bytes <= 0) {
    perror_at(p, pos, "vector size must be a positive integer constant");
    return t;
  }
  if (bytes % e->size || (lanes & (lanes - 1))) {
    perror_at(p, pos, "vector size %lld is not a power-of-two multiple of the element size", (long long)bytes);
    return t;
  }
  if (lanes > 128) {
    perror_at(p, pos, "vectors of more than 128 lanes are not supported by kitcc");
    return t;
  }
  vector_note_use();
  return type_qualified(type_vector(e, lanes), q);
}

CType *vector_realign(CType *t, int align) {
  CType *u = type_unqual(t);
  if (u->kind != TY_VECTOR || !align || align == u->align) return t;
  CType *n = type_vector(u->base, u->len);
  n->align = align;
  return type_qualified(n, t->quals);
}

/* the signed integer vector of v's shape: what comparing two v gives */
static CType *mask_type(CType *v) {
  v = type_unqual(v);
  return type_vector(int_of_size(type_unqual(v->base)->size, false), v->len);
}

static CExpr *splat(Parser *p, CExpr *s, CType *v) {
  CExpr *e = new_expr(EX_BUILTIN, v, s->pos);
  e->builtin = (CBuiltin)BI_VEC_SPLAT;
  e->args = c_alloc(sizeof *e->args);
  e->args->expr = convert(p, s, type_unqual(v)->base);
  return e;
}

/* operand e of an operation in vector type v: the same vector (a same-size
 * vector is reinterpreted, as gcc's -flax-vector-conversions) or a scalar broadcast */
static CExpr *operand(Parser *p, CExpr *e, CType *v, CPos pos) {
  CType *f = type_unqual(e->type);
  if (f->kind == TY_VECTOR) {
    if (f->size != type_unqual(v)->size || f->len != type_unqual(v)->len) {
      perror_at(p, pos, "invalid operands to a vector operation (vector types differ)");
      return e;
    }
    return type_compatible(f, type_unqual(v)) ? e : cast(e, v);
  }
  if (!type_is_arith(f)) {
    perror_at(p, pos, "invalid operand to a vector operation");
    return e;
  }
  if (type_is_float(f) && !type_is_float(type_unqual(v)->base)) {
    perror_at(p, pos, "conversion of a floating-point scalar to an integer vector");
    return e;
  }
  return splat(p, e, v);
}

CExpr *vector_binary(Parser *p, CExprKind k, CExpr *a, CExpr *b, CPos pos) {
  a = rvalue(p, a);
  b = rvalue(p, b);
  vector_note_use();
  CType *v = type_unqual(vector_type(a->type) ? a->type : b->type);
  bool ints_only = k == EX_MOD || k == EX_BAND || k == EX_BOR || k == EX_BXOR || k == EX_SHL || k == EX_SHR;
  bool cmp = k >= EX_LT && k <= EX_NE;
  CExpr *e = new_expr(k, cmp ? mask_type(v) : v, pos);
  if (k == EX_LAND || k == EX_LOR) perror_at(p, pos, "vector operands of '&&' and '||' are not supported");
  else if (ints_only && !type_is_integer(v->base)) perror_at(p, pos, "invalid operands to a vector operation (not integers)");
  e->lhs = operand(p, a, v, pos);
  e->rhs = operand(p, b, v, pos);
  return e;
}

CExpr *vector_unary(Parser *p, CExprKind k, CExpr *e, CPos pos) {
  e = rvalue(p, e);
  vector_note_use();
  if (k == EX_ADD) return e; /* unary plus */
  if (k == EX_LNOT) perror_at(p, pos, "vector operand of '!' is not supported");
  if (k == EX_BITNOT && !type_is_integer(type_unqual(e->type)->base))
    perror_at(p, pos, "wrong type argument to bit-complement");
  CExpr *r = new_expr(k, e->type, pos);
  r->lhs = e;
  return r;
}

/* v[i]: *((T *)&v + i), an lvalue when v is one */
CExpr *vector_subscript(Parser *p, CExpr *v, CExpr *i, CPos pos) {
  vector_note_use();
  if (!type_is_integer(i->type)) {
    perror_at(p, pos, "array subscript is not an integer");
    return v;
  }
  CType *elem = type_qualified(type_unqual(v->type)->base, v->type->quals);
  if (v->is_lvalue) mark_address_taken(v);
  CExpr *addr = new_expr(EX_ADDR, type_ptr(v->type), pos);
  addr->lhs = v;
  CExpr *add = new_expr(EX_PTRADD, type_ptr(elem), pos);
  add->lhs = cast(addr, add->type);
  add->rhs = convert(p, i, ty_long);
  add->step = type_unqual(elem)->size;
  CExpr *d = new_expr(EX_DEREF, elem, pos);
  d->lhs = add;
  d->is_lvalue = true;
  return d;
}

CExpr *vector_opassign(Parser *p, CExpr *e, CExprKind op, CExpr *rhs) {
  CType *lt = type_unqual(e->lhs->type);
  vector_note_use();
  bool ints_only = op == EX_MOD || op == EX_BAND || op == EX_BOR || op == EX_BXOR || op == EX_SHL || op == EX_SHR;
  if (lt->kind != TY_VECTOR) {
    perror_at(p, e->pos, "invalid operands to compound assignment");
  } else if (ints_only && !type_is_integer(lt->base)) {
    perror_at(p, e->pos, "invalid operands to a vector operation (not integers)");
  }
  e->op = op;
  e->optype = lt;
  e->rhs = lt->kind == TY_VECTOR ? operand(p, rvalue(p, rhs), lt, e->pos) : rhs;
  return e;
}

bool vector_retype(CExpr *e, CType *to) {
  if (e->kind != EX_BUILTIN || e->builtin != (CBuiltin)BI_VEC_IA32_UNKNOWN) return false;
  e->type = to;
  return true;
}

CExpr *vector_assign_convert(Parser *p, CExpr *e, CType *to, const char *what) {
  e = rvalue(p, e);
  if (vector_retype(e, to)) return e;
  CType *f = type_unqual(e->type), *t = type_unqual(to);
  if (f->kind == TY_VECTOR && t->kind == TY_VECTOR && f->size == t->size) return convert(p, e, to);
  perror_at(p, e->pos, "incompatible types when %s", what);
  return e;
}

bool vector_cast_ok(CType *to, CType *from) {
  CType *t = type_unqual(to), *f = type_unqual(from);
  if (t->size != f->size) return false;
  if (t->kind == TY_VECTOR) return f->kind == TY_VECTOR || type_is_integer(f);
  return f->kind == TY_VECTOR && type_is_integer(t);
}

static CExpr *builtin_node(CBuiltin b, CType *t, CExprList *args, CPos pos) {
  CExpr *e = new_expr(EX_BUILTIN, t, pos);
  e->builtin = b;
  e->args = args;
  return e;
}

/* __builtin_shuffle(a, mask) or (a, b, mask): lane i is lane mask[i] of a (then b) */
static CExpr *shuffle(Parser *p, CExprList *args, CPos pos) {
  int n = 0;
  for (CExprList *l = args; l; l = l->next, n++) l->expr = rvalue(p, l->expr);
  CExprList *last = args;
  while (last && last->next) last = last->next;
  if (n < 2 || n > 3 || !vector_type(args->expr->type) || !vector_type(last->expr->type) ||
      !type_is_integer(type_unqual(last->expr->type)->base)) {
    perror_at(p, pos, "__builtin_shuffle takes one or two vectors and an integer vector mask");
    return new_int(0, ty_int, pos);
  }
  CType *a = type_unqual(args->expr->type), *m = type_unqual(last->expr->type);
  if (n == 3) args->next->expr = operand(p, args->next->expr, a, pos);
  if (type_unqual(m->base)->size != type_unqual(a->base)->size || m->len != a->len)
    perror_at(p, pos, "__builtin_shuffle: the mask must have the vector's shape");
  return builtin_node((CBuiltin)BI_VEC_SHUFFLE, a, args, pos);
}

/* clang's __builtin_shufflevector(a, b, i0, i1, ...): lane k is lane i_k of a then b */
static CExpr *shufflevector(Parser *p, CExprList *args, CPos pos) {
  int n = 0;
  for (CExprList *l = args; l; l = l->next, n++) l->expr = rvalue(p, l->expr);
  if (n < 3 || !vector_type(args->expr->type)) {
    perror_at(p, pos, "__builtin_shufflevector takes two vectors and lane indices");
    return new_int(0, ty_int, pos);
  }
  CType *a = type_unqual(args->expr->type);
  args->next->expr = operand(p, args->next->expr, a, pos);
  int lanes = n - 2;
  for (CExprList *l = args->next->next; l; l = l->next) {
    int64_t v;
    if (!c_eval_int(l->expr, &v) || v < -1 || v >= 2 * a->len) {
      perror_at(p, l->expr->pos, "__builtin_shufflevector: a lane index must be a constant from -1 to %lld",
                (long long)(2 * a->len - 1));
      return new_int(0, ty_int, pos);
    }
  }
  if (lanes & (lanes - 1) || lanes > 128) {
    perror_at(p, pos, "__builtin_shufflevector: the lane count must be a power of two");
    return new_int(0, ty_int, pos);
  }
  return builtin_node((CBuiltin)BI_VEC_SHUFFLEVECTOR, type_vector(a->base, lanes), args, pos);
}

static CExpr *convertvector(Parser *p, CPos pos) {
  expect(p, "(");
  CExpr *v = rvalue(p, parse_assign(p));
  expect(p, ",");
  CType *t = parse_type_name(p);
  expect(p, ")");
  if (!vector_type(v->type) || !vector_type(t) || type_unqual(v->type)->len != type_unqual(t)->len) {
    perror_at(p, pos, "__builtin_convertvector needs two vector types of the same number of lanes");
    return v;
  }
  CExprList *args = c_alloc(sizeof *args);
  args->expr = v;
  return builtin_node((CBuiltin)BI_VEC_CONVERT, t, args, pos);
}

static CExpr *ia32(Parser *p, const char *name, CPos pos) {
  expect(p, "(");
  CExprList *args = parse_call_args(p);
  const IaBuiltin *b = ia32_find(name + 15);
  if (!b) { /* lowered only if used: the headers define many functions no program calls */
    CExpr *e = builtin_node((CBuiltin)BI_VEC_IA32_UNKNOWN, ty_int, args, pos);
    e->str = name;
    return e;
  }
  const char *s = b->sig + 2;
  int i = 0;
  for (CExprList *l = args; l; l = l->next, i++) {
    if (!*s) break;
    CType *t = ia32_code_type(*s);
    l->expr = convert(p, rvalue(p, l->expr), t);
    s += s[1] == ',' ? 2 : 1;
  }
  if (*s || i != (int)(strlen(b->sig + 2) + 1) / 2) perror_at(p, pos, "wrong number of arguments to '%s'", name);
  CExpr *e = builtin_node((CBuiltin)BI_VEC_IA32, ia32_code_type(b->sig[0]), args, pos);
  e->ival = (unsigned)ia32_index(b);
  return e;
}

CExpr *vector_builtin_call(Parser *p, const char *name, CPos pos) {
  if (!strcmp(name, "__builtin_convertvector")) {
    vector_note_use();
    return convertvector(p, pos);
  }
  if (!strcmp(name, "__builtin_shufflevector")) {
    vector_note_use();
    expect(p, "(");
    return shufflevector(p, parse_call_args(p), pos);
  }
  if (!strcmp(name, "__builtin_shuffle")) {
    vector_note_use();
    expect(p, "(");
    return shuffle(p, parse_call_args(p), pos);
  }
  if (!strncmp(name, "__builtin_ia32_", 15)) {
    vector_note_use();
    return ia32(p, name, pos);
  }
  return NULL;
}
