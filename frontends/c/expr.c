/* frontends/c/expr.c — C expressions with their semantics: operator
 * precedence, lvalues, decay, the usual arithmetic conversions and integer
 * promotions made explicit as casts, pointer arithmetic with array-bounds
 * facts, assignments, casts, sizeof/_Alignof, _Generic, compound literals,
 * statement expressions, member access and calls. */
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "vector.h"

CExpr *new_expr(CExprKind k, CType *t, CPos pos) {
  CExpr *e = c_alloc(sizeof *e);
  e->kind = k;
  e->type = t;
  e->pos = pos;
  e->bound = -1;
  return e;
}

CExpr *new_int(int64_t v, CType *t, CPos pos) {
  CExpr *e = new_expr(EX_INT, t, pos);
  e->ival = (unsigned __int128)(__int128)v;
  return e;
}

static CExpr *unary(CExprKind k, CExpr *a, CType *t, CPos pos) {
  CExpr *e = new_expr(k, t, pos);
  e->lhs = a;
  return e;
}

static CExpr *binary(CExprKind k, CExpr *a, CExpr *b, CType *t, CPos pos) {
  CExpr *e = new_expr(k, t, pos);
  e->lhs = a;
  e->rhs = b;
  return e;
}

static CExpr *cast_to(CExpr *e, CType *t, bool implicit) {
  if (e->type == t) return e;
  CExpr *c = new_expr(EX_CAST, t, e->pos);
  c->lhs = e;
  c->implicit = implicit;
  return c;
}

void mark_address_taken(CExpr *e) {
  for (;;) {
    if (e->kind == EX_VAR) {
      e->obj->address_taken = true;
      return;
    }
    if (e->kind == EX_MEMBER || e->kind == EX_DECAY) {
      e = e->lhs;
      continue;
    }
    if (e->kind == EX_COMPOUND_LIT) {
      e->obj->address_taken = true;
      return;
    }
    return;
  }
}

/* array -> pointer, function -> pointer; other expressions are unchanged */
CExpr *rvalue(Parser *p, CExpr *e) {
  lint_read(p, e);
  CType *t = type_unqual(e->type);
  if (t->kind == TY_ARRAY) {
    mark_address_taken(e);
    CExpr *d = unary(EX_DECAY, e, type_ptr(t->base), e->pos);
    /* remember where the pointer came from: a[i] on a real array gets a bounds fact */
    d->bound = t->vla_len ? -1 : t->len;
    return d;
  }
  if (t->kind == TY_FUNC) return unary(EX_ADDR, e, type_ptr(e->type), e->pos);
  return e;
}

bool is_null_ptr_const(CExpr *e) {
  while (e->kind == EX_CAST && (type_is_integer(e->type) ||
                                (type_unqual(e->type)->kind == TY_PTR && type_unqual(type_unqual(e->type)->base)->kind == TY_VOID)))
    e = e->lhs;
  int64_t v;
  return type_is_integer(e->type) && c_eval_int(e, &v) && v == 0;
}

CExpr *convert(Parser *p, CExpr *e, CType *to) {
  e = rvalue(p, e);
  CType *f = type_unqual(e->type), *t = type_unqual(to);
  if (f == t || vector_retype(e, to)) return e;
  if (t->kind == TY_VOID) return cast_to(e, to, true);
  if ((f->kind == TY_STRUCT || f->kind == TY_UNION) && type_compatible(f, t)) return e;
  return cast_to(e, to, true);
}

static CType *promote_expr(CExpr *e) {
  /* a bitfield narrower than int promotes to int (C11 6.3.1.1p2) */
  if (e->kind == EX_MEMBER && e->member && e->member->bit_width >= 0 && type_is_integer(e->type)) {
    int w = e->member->bit_width;
    if (w < 32 || (w == 32 && !type_unqual(e->member->type)->is_unsigned)) return ty_int;
    if (w == 32) return ty_uint;
  }
  return type_promote(e->type);
}

static CExpr *promote(Parser *p, CExpr *e) {
  e = rvalue(p, e);
  if (!type_is_integer(e->type)) return e;
  return convert(p, e, promote_expr(e));
}

CExpr *cond_expr_bool(Parser *p, CExpr *e) {
  e = rvalue(p, e);
  if (!type_is_scalar(type_unqual(e->type))) perror_at(p, e->pos, "used a value of non-scalar type where a scalar is required");
  return e;
}

static bool is_modifiable_lvalue(CExpr *e) {
  if (!e->is_lvalue) return false;
  CType *t = e->type;
  if (t->quals & Q_CONST) return false;
  CType *u = type_unqual(t);
  if (u->kind == TY_ARRAY || u->kind == TY_FUNC) return false;
  if (u->kind == TY_STRUCT || u->kind == TY_UNION) {
    for (CMember *m = u->members; m; m = m->next)
      if (m->type->quals & Q_CONST) return false;
  }
  return true;
}

static void check_lvalue(Parser *p, CExpr *e, const char *what) {
  if (!e->is_lvalue) perror_at(p, e->pos, "lvalue required as %s", what);
  else if (!is_modifiable_lvalue(e)) {
    if (e->type->quals & Q_CONST) {
      if (e->kind == EX_VAR)
        perror_at(p, e->pos, "assignment of read-only variable '%s'", e->obj->name);
      else
        perror_at(p, e->pos, "assignment of read-only location");
    } else {
      perror_at(p, e->pos, "lvalue required as %s", what);
    }
  }
}

CExpr *assign_convert(Parser *p, CExpr *e, CType *to, const char *what) {
  e = rvalue(p, e);
  CType *f = type_unqual(e->type), *t = type_unqual(to);
  if (f->kind == TY_VECTOR || t->kind == TY_VECTOR) return vector_assign_convert(p, e, to, what);
  if (t->kind == TY_PTR) {
    if (f->kind == TY_PTR) {
      CType *fb = type_unqual(f->base), *tb = type_unqual(t->base);
      if (fb->kind != TY_VOID && tb->kind != TY_VOID && !type_compatible(fb, tb))
        pwarn_w(p, W_INCOMPATIBLE_POINTER_TYPES, e->pos, "incompatible pointer types %s", what);
      else if ((f->base->quals & ~t->base->quals) & (Q_CONST | Q_VOLATILE))
        pwarn_w(p, W_DISCARDED_QUALIFIERS, e->pos, "%s discards qualifiers from pointer target type", what);
    } else if (type_is_integer(f) && !is_null_ptr_const(e)) {
      pwarn_w(p, W_INT_CONVERSION, e->pos, "%s makes pointer from integer without a cast", what);
    } else if (!type_is_integer(f) && f->kind != TY_PTR) {
      perror_at(p, e->pos, "incompatible types when %s", what);
      return e;
    }
  } else if (type_is_integer(t) && f->kind == TY_PTR) {
    if (t->kind != TY_BOOL) pwarn_w(p, W_INT_CONVERSION, e->pos, "%s makes integer from pointer without a cast", what);
  } else if ((t->kind == TY_STRUCT || t->kind == TY_UNION) && !type_compatible(f, t)) {
    perror_at(p, e->pos, "incompatible types when %s", what);
    return e;
  } else if (type_is_arith(t) && !type_is_arith(f) && (f->kind != TY_PTR || type_is_complex(t))) {
    perror_at(p, e->pos, "incompatible types when %s", what);
    return e;
  }
  return convert(p, e, to);
}

static CExpr *usual_arith(Parser *p, CExpr **a, CExpr **b) {
  *a = rvalue(p, *a);
  *b = rvalue(p, *b);
  CType *ta = type_is_integer((*a)->type) ? promote_expr(*a) : (*a)->type;
  CType *tb = type_is_integer((*b)->type) ? promote_expr(*b) : (*b)->type;
  CType *t = type_common(ta, tb);
  *a = convert(p, *a, t);
  *b = convert(p, *b, t);
  return NULL;
}

/* ---- pointer arithmetic ---------------------------------------------------------- */

static int64_t elem_size(Parser *p, CType *ptr, CPos pos, CType **vla) {
  CType *b = type_unqual(type_unqual(ptr)->base);
  *vla = NULL;
  if (type_is_vla(b)) {
    *vla = b;
    return 0;
  }
  if (b->kind == TY_VOID || b->kind == TY_FUNC) return 1; /* GNU */
  if (b->size < 0) {
    perror_at(p, pos, "invalid use of pointer to incomplete type");
    return 1;
  }
  return b->size;
}

static CExpr *ptr_add(Parser *p, CExprKind k, CExpr *ptr, CExpr *idx, CPos pos) {
  CExpr *e = binary(k, ptr, convert(p, idx, ty_long), type_unqual(ptr->type), pos);
  e->step = elem_size(p, ptr->type, pos, &e->vla_type);
  if (ptr->kind == EX_DECAY) e->bound = ptr->bound; /* a - n too: clang's "index -n" */
  return e;
}

static CExpr *add_expr(Parser *p, CExprKind k, CExpr *a, CExpr *b, CPos pos) {
  a = rvalue(p, a);
  b = rvalue(p, b);
  CType *ta = type_unqual(a->type), *tb = type_unqual(b->type);
  if (type_is_arith(ta) && type_is_arith(tb)) {
    usual_arith(p, &a, &b);
    return binary(k, a, b, a->type, pos);
  }
  if (k == EX_ADD && ta->kind == TY_PTR && type_is_integer(tb)) return ptr_add(p, EX_PTRADD, a, b, pos);
  if (k == EX_ADD && tb->kind == TY_PTR && type_is_integer(ta)) return ptr_add(p, EX_PTRADD, b, a, pos);
  if (k == EX_SUB && ta->kind == TY_PTR && type_is_integer(tb)) return ptr_add(p, EX_PTRSUB, a, b, pos);
  if (k == EX_SUB && ta->kind == TY_PTR && tb->kind == TY_PTR) {
    if (!type_compatible(type_unqual(ta->base), type_unqual(tb->base)))
      perror_at(p, pos, "invalid operands to binary - (have '%s' and '%s')", "pointer", "pointer");
    CExpr *e = binary(EX_PTRDIFF, a, b, ty_long, pos);
    e->step = elem_size(p, ta, pos, &e->vla_type);
    return e;
  }
  perror_at(p, pos, "invalid operands to binary %s", k == EX_ADD ? "+" : "-");
  return binary(k, a, b, ty_int, pos);
}

static CExpr *arith_expr(Parser *p, CExprKind k, CExpr *a, CExpr *b, CPos pos) {
  a = rvalue(p, a);
  b = rvalue(p, b);
  bool ints_only = k == EX_MOD || k == EX_BAND || k == EX_BOR || k == EX_BXOR || k == EX_SHL || k == EX_SHR;
  if (ints_only ? !(type_is_integer(a->type) && type_is_integer(b->type)) : !(type_is_arith(a->type) && type_is_arith(b->type))) {
    perror_at(p, pos, "invalid operands to binary operator");
    return binary(k, a, b, ty_int, pos);
  }
  if (k == EX_SHL || k == EX_SHR) {
    a = promote(p, a);
    b = promote(p, b);
    return binary(k, a, b, a->type, pos);
  }
  usual_arith(p, &a, &b);
  return binary(k, a, b, a->type, pos);
}

static CExpr *compare_expr(Parser *p, CExprKind k, CExpr *a, CExpr *b, CPos pos) {
  a = rvalue(p, a);
  b = rvalue(p, b);
  CType *ta = type_unqual(a->type), *tb = type_unqual(b->type);
  if (type_is_arith(ta) && type_is_arith(tb)) {
    usual_arith(p, &a, &b);
    if (type_is_complex(type_unqual(a->type)) && k != EX_EQ && k != EX_NE)
      perror_at(p, pos, "invalid operands to comparison (complex values are unordered)");
  } else if (ta->kind == TY_PTR && tb->kind == TY_PTR) {
    /* compare as the first pointer type */
    b = cast_to(b, a->type, true);
  } else if (ta->kind == TY_PTR && type_is_integer(tb)) {
    if (!is_null_ptr_const(b)) pwarn_at(p, pos, "comparison between pointer and integer");
    b = cast_to(b, a->type, true);
  } else if (tb->kind == TY_PTR && type_is_integer(ta)) {
    if (!is_null_ptr_const(a)) pwarn_at(p, pos, "comparison between pointer and integer");
    a = cast_to(a, b->type, true);
  } else {
    perror_at(p, pos, "invalid operands to comparison");
  }
  return binary(k, a, b, ty_int, pos);
}

/* ---- the precedence ladder ----------------------------------------------------------- */

static CExpr *parse_cast(Parser *p);
static CExpr *parse_unary(Parser *p);
static CExpr *parse_postfix(Parser *p);
static CExpr *postfix_ops(Parser *p, CExpr *e);

static const struct {
  const char *op;
  CExprKind kind;
  int prec;
} binops[] = {
    {"*", EX_MUL, 10}, {"/", EX_DIV, 10}, {"%", EX_MOD, 10}, {"+", EX_ADD, 9}, {"-", EX_SUB, 9},
    {"<<", EX_SHL, 8}, {">>", EX_SHR, 8}, {"<", EX_LT, 7}, {"<=", EX_LE, 7}, {">", EX_GT, 7},
    {">=", EX_GE, 7}, {"==", EX_EQ, 6}, {"!=", EX_NE, 6}, {"&", EX_BAND, 5}, {"^", EX_BXOR, 4},
    {"|", EX_BOR, 3}, {"&&", EX_LAND, 2}, {"||", EX_LOR, 1},
};

static int binop_of(PTok *t, CExprKind *k) {
  if (t->kind != CT_PUNCT) return 0;
  for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
    if (!strcmp(t->text, binops[i].op)) {
      *k = binops[i].kind;
      return binops[i].prec;
    }
  return 0;
}

static CExpr *make_binary(Parser *p, CExprKind k, CExpr *a, CExpr *b, CPos pos) {
  if (vector_type(a->type) || vector_type(b->type)) return vector_binary(p, k, a, b, pos);
  lint_binary(p, k, a, b, pos);
  switch (k) {
  case EX_ADD: case EX_SUB:
    return add_expr(p, k, a, b, pos);
  case EX_LT: case EX_LE: case EX_GT: case EX_GE: case EX_EQ: case EX_NE:
    return compare_expr(p, k, a, b, pos);
  case EX_LAND: case EX_LOR:
    return binary(k, cond_expr_bool(p, a), cond_expr_bool(p, b), ty_int, pos);
  default:
    return arith_expr(p, k, a, b, pos);
  }
}

static CExpr *parse_binary(Parser *p, int min_prec) {
  CExpr *lhs = parse_cast(p);
  for (;;) {
    CExprKind k;
    int prec = binop_of(tok(p), &k);
    if (!prec || prec < min_prec) return lhs;
    CPos pos = next(p)->pos;
    CExpr *rhs = parse_binary(p, prec + 1);
    lhs = make_binary(p, k, lhs, rhs, pos);
  }
}

static CExpr *cond_result(Parser *p, CExpr *e, CExpr *a, CExpr *b) {
  a = rvalue(p, a);
  b = rvalue(p, b);
  CType *ta = type_unqual(a->type), *tb = type_unqual(b->type);
  CType *t;
  if (type_is_arith(ta) && type_is_arith(tb)) {
    usual_arith(p, &a, &b);
    t = a->type;
  } else if (ta->kind == TY_VOID || tb->kind == TY_VOID) {
    t = ty_void;
  } else if (ta->kind == TY_PTR && tb->kind == TY_PTR) {
    CType *ba = ta->base, *bb = tb->base;
    unsigned q = (ba->quals | bb->quals) & (Q_CONST | Q_VOLATILE);
    if (type_unqual(ba)->kind == TY_VOID || type_unqual(bb)->kind == TY_VOID)
      t = type_ptr(type_qualified(ty_void, q));
    else if (is_null_ptr_const(a))
      t = tb;
    else
      t = type_ptr(type_qualified(type_unqual(ba), q));
    if (is_null_ptr_const(b) && !is_null_ptr_const(a)) t = ta;
    a = cast_to(a, t, true);
    b = cast_to(b, t, true);
  } else if (ta->kind == TY_PTR && type_is_integer(tb)) {
    t = ta;
    b = cast_to(b, t, true);
  } else if (tb->kind == TY_PTR && type_is_integer(ta)) {
    t = tb;
    a = cast_to(a, t, true);
  } else if ((ta->kind == TY_STRUCT || ta->kind == TY_UNION || ta->kind == TY_VECTOR) && type_compatible(ta, tb)) {
    t = ta;
  } else {
    perror_at(p, e->pos, "type mismatch in conditional expression");
    t = ta;
  }
  e->lhs = a;
  e->rhs = b;
  e->type = t;
  return e;
}

static CExpr *cond_expr(Parser *p);

CExpr *parse_cond_expr(Parser *p) {
  if (!nest_enter(p)) return new_int(0, ty_int, tok(p)->pos);
  CExpr *e = cond_expr(p);
  nest_leave(p);
  return e;
}

static CExpr *cond_expr(Parser *p) {
  CExpr *c = parse_binary(p, 1);
  if (!is_punct(tok(p), "?")) return c;
  CPos pos = next(p)->pos;
  CExpr *e = new_expr(EX_COND, ty_int, pos);
  e->cond = cond_expr_bool(p, c);
  if (accept(p, ":")) {
    /* GNU x ?: y */
    CExpr *b = parse_cond_expr(p);
    CExpr *a = c;
    cond_result(p, e, a, b);
    e->cond = rvalue(p, c);
    e->lhs = NULL;
    /* the value of x converts to the result type in the lowering */
    return e;
  }
  CExpr *a = parse_expr(p);
  expect(p, ":");
  CExpr *b = parse_cond_expr(p);
  return cond_result(p, e, a, b);
}

static const struct {
  const char *op;
  CExprKind kind;
} assignops[] = {
    {"+=", EX_ADD}, {"-=", EX_SUB}, {"*=", EX_MUL}, {"/=", EX_DIV}, {"%=", EX_MOD}, {"<<=", EX_SHL},
    {">>=", EX_SHR}, {"&=", EX_BAND}, {"|=", EX_BOR}, {"^=", EX_BXOR},
};

static CExpr *op_assign(Parser *p, CExprKind op, CExpr *lhs, CExpr *rhs, CPos pos) {
  check_lvalue(p, lhs, "left operand of assignment");
  rhs = rvalue(p, rhs);
  CExpr *e = new_expr(EX_OPASSIGN, lhs->type, pos);
  e->lhs = lhs;
  CType *lt = type_unqual(lhs->type);
  if (lt->kind == TY_VECTOR || vector_type(rhs->type)) return vector_opassign(p, e, op, rhs);
  if (lt->kind == TY_PTR && (op == EX_ADD || op == EX_SUB) && type_is_integer(rhs->type)) {
    e->op = op == EX_ADD ? EX_PTRADD : EX_PTRSUB;
    e->rhs = rhs;
    e->step = elem_size(p, lt, pos, &e->vla_type);
    return e;
  }
  bool ints_only = op == EX_MOD || op == EX_BAND || op == EX_BOR || op == EX_BXOR || op == EX_SHL || op == EX_SHR;
  if (ints_only ? !(type_is_integer(lt) && type_is_integer(rhs->type)) : !(type_is_arith(lt) && type_is_arith(rhs->type))) {
    perror_at(p, pos, "invalid operands to compound assignment");
    e->rhs = rhs;
    e->op = op;
    e->optype = lt;
    return e;
  }
  e->op = op;
  if (op == EX_SHL || op == EX_SHR) {
    e->optype = promote_expr(lhs);
    e->rhs = promote(p, rhs);
  } else {
    CType *ta = type_is_integer(lt) ? promote_expr(lhs) : lt;
    CType *tb = type_is_integer(rhs->type) ? promote_expr(rhs) : rhs->type;
    e->optype = type_common(ta, tb);
    e->rhs = convert(p, rhs, e->optype);
  }
  return e;
}

static CExpr *assign_expr(Parser *p);

CExpr *parse_assign(Parser *p) {
  if (!nest_enter(p)) return new_int(0, ty_int, tok(p)->pos);
  CExpr *e = assign_expr(p);
  nest_leave(p);
  return e;
}

static CExpr *assign_expr(Parser *p) {
  CExpr *lhs = parse_cond_expr(p);
  PTok *t = tok(p);
  if (t->kind != CT_PUNCT) return lhs;
  if (!strcmp(t->text, "=")) {
    CPos pos = next(p)->pos;
    CExpr *rhs = parse_assign(p);
    check_lvalue(p, lhs, "left operand of assignment");
    if (lhs->kind == EX_VAR) lhs->obj->nsets++;
    CExpr *e = binary(EX_ASSIGN, lhs, assign_convert(p, rhs, lhs->type, "assignment"), lhs->type, pos);
    return e;
  }
  for (size_t i = 0; i < sizeof assignops / sizeof assignops[0]; i++)
    if (!strcmp(t->text, assignops[i].op)) {
      CPos pos = next(p)->pos;
      CExpr *rhs = parse_assign(p);
      return op_assign(p, assignops[i].kind, lhs, rhs, pos);
    }
  return lhs;
}

CExpr *parse_expr(Parser *p) {
  CExpr *e = parse_assign(p);
  while (is_punct(tok(p), ",")) {
    CPos pos = next(p)->pos;
    CExpr *r = parse_assign(p);
    r = rvalue(p, r);
    e = binary(EX_COMMA, e, r, r->type, pos);
  }
  return e;
}

CExpr *new_name_string(const char *s, CPos pos) {
  size_t n = strlen(s);
  CExpr *e = new_expr(EX_STRING, type_array(type_qualified(ty_char, Q_CONST), (int64_t)n + 1), pos);
  e->str = c_strdup(s);
  e->str_len = (int64_t)n + 1;
  e->is_lvalue = true;
  return e;
}

int64_t parse_const_int(Parser *p) {
  CPos pos = tok(p)->pos;
  CExpr *e = parse_cond_expr(p);
  int64_t v;
  if (!c_eval_ice(e, &v)) {
    perror_at(p, pos, "expression is not an integer constant expression");
    return 0;
  }
  return v;
}

/* ---- casts, unary operators ----------------------------------------------------- */

/* the unnamed object of a compound literal: a local in a function, else a
 * static the caller adds to the unit once its initializer is read */
static CObj *compound_object(Parser *p, CType *t, CPos pos) {
  if (p->fn) return new_local(p, NULL, t, pos);
  CObj *o = c_alloc(sizeof *o);
  char buf[32];
  snprintf(buf, sizeof buf, ".compoundliteral.%d", p->nanon++);
  o->name = c_strdup(buf);
  o->type = t;
  o->pos = pos;
  o->storage = SC_STATIC;
  o->is_definition = true;
  return o;
}

static CExpr *compound_expr(CObj *o, CPos pos) {
  CExpr *e = new_expr(EX_COMPOUND_LIT, o->type, pos);
  e->obj = o;
  e->is_lvalue = true;
  return e;
}

static CExpr *compound_literal(Parser *p, CType *t, CPos pos) {
  CObj *o = compound_object(p, t, pos);
  o->init = parse_initializer(p, t, !p->fn);
  if (!p->fn) add_unit_obj(p, o);
  if (o->init->type) o->type = o->init->type;
  return compound_expr(o, pos);
}

/* GNU cast to a union, `(union U) x`: the union whose member of x's type is
 * initialised to x (a compound literal, so it is an object as gcc's is);
 * NULL when no member has that type. */
static CExpr *cast_to_union(Parser *p, CType *t, CExpr *e, CPos pos) {
  CMember *m = type_unqual(t)->members;
  while (m && !(m->name && m->bit_width < 0 && type_compatible(type_unqual(m->type), type_unqual(e->type)))) m = m->next;
  if (!m) return NULL;
  CObj *o = compound_object(p, t, pos);
  if (!p->fn) add_unit_obj(p, o);
  o->init = c_alloc(sizeof *o->init);
  o->init->type = t;
  o->init->nitems = 1;
  o->init->items = c_alloc(sizeof *o->init->items);
  o->init->items[0] = (CInitItem){m->offset, m->type, NULL, convert(p, e, m->type)};
  return rvalue(p, compound_expr(o, pos));
}

static CExpr *parse_cast(Parser *p) {
  if (is_punct(tok(p), "(") && is_typename(p, peek(p, 1))) {
    CPos pos = next(p)->pos;
    CType *t = parse_type_name(p);
    expect(p, ")");
    if (is_punct(tok(p), "{")) return postfix_ops(p, compound_literal(p, t, pos));
    CExpr *e = rvalue(p, parse_cast(p));
    CType *u = type_unqual(t), *f = type_unqual(e->type);
    if (u->kind == TY_UNION && !type_compatible(u, f)) {
      CExpr *c = cast_to_union(p, t, e, pos);
      if (c) return c;
    }
    if (u->kind == TY_VECTOR || f->kind == TY_VECTOR) {
      vector_note_use();
      if (!vector_retype(e, t) && u->kind != TY_VOID && !vector_cast_ok(u, f))
        perror_at(p, pos, "cannot convert between a vector and a type of another size");
    } else if (u->kind != TY_VOID && !(type_is_scalar(u) && type_is_scalar(f)) &&
        !((u->kind == TY_STRUCT || u->kind == TY_UNION) && type_compatible(u, f)) && !vector_retype(e, t))
      perror_at(p, pos, "conversion to non-scalar type requested");
    if ((type_is_float(u) || type_is_complex(u)) && f->kind == TY_PTR)
      perror_at(p, pos, "pointer value used where a floating-point was expected");
    if (type_is_complex(f) && u->kind == TY_PTR) perror_at(p, pos, "complex value used where a pointer was expected");
    CExpr *c = new_expr(EX_CAST, t, pos);
    c->lhs = e;
    return c;
  }
  return parse_unary(p);
}

static CExpr *sizeof_type(Parser *p, CType *t, CPos pos) {
  CType *u = type_unqual(t);
  if (type_is_vla(u)) {
    CExpr *e = new_expr(EX_VLA_SIZEOF, ty_ulong, pos);
    e->vla_type = u;
    return e;
  }
  if (u->kind == TY_VOID || u->kind == TY_FUNC) return new_int(1, ty_ulong, pos);
  if (!type_is_complete(u) && !(u->kind == TY_ARRAY && u->len >= 0)) {
    perror_at(p, pos, "invalid application of 'sizeof' to incomplete type");
    return new_int(1, ty_ulong, pos);
  }
  return new_int(u->size, ty_ulong, pos);
}

static CExpr *incdec(Parser *p, CExprKind k, CExpr *e, CPos pos) {
  check_lvalue(p, e, k == EX_PREINC || k == EX_POSTINC ? "increment operand" : "decrement operand");
  CType *t = type_unqual(e->type);
  if (!type_is_scalar(t)) perror_at(p, pos, "wrong type argument to increment"); /* GNU: complex too */
  CExpr *r = unary(k, e, e->type, pos);
  r->step = 1;
  if (t->kind == TY_PTR) r->step = elem_size(p, t, pos, &r->vla_type);
  return r;
}

static CExpr *unary_expr(Parser *p);

static CExpr *parse_unary(Parser *p) {
  if (!nest_enter(p)) return new_int(0, ty_int, tok(p)->pos);
  CExpr *e = unary_expr(p);
  nest_leave(p);
  return e;
}

static CExpr *unary_expr(Parser *p) {
  PTok *t = tok(p);
  CPos pos = t->pos;
  if (t->kind == CT_PUNCT) {
    if (accept(p, "++")) return incdec(p, EX_PREINC, parse_unary(p), pos);
    if (accept(p, "--")) return incdec(p, EX_PREDEC, parse_unary(p), pos);
    if (accept(p, "&")) {
      CExpr *e = parse_cast(p);
      if (e->kind == EX_MEMBER && e->member->bit_width >= 0) perror_at(p, pos, "cannot take address of bit-field");
      else if (!e->is_lvalue && type_unqual(e->type)->kind != TY_FUNC)
        perror_at(p, pos, "lvalue required as unary '&' operand");
      if (e->kind == EX_VAR && e->obj->storage == SC_REGISTER) perror_at(p, pos, "address of register variable requested");
      mark_address_taken(e);
      return unary(EX_ADDR, e, type_ptr(e->type), pos);
    }
    if (accept(p, "&&")) {
      const char *label = ident(p);
      CExpr *e = new_expr(EX_LABEL_ADDR, type_ptr(ty_void), pos);
      e->label = label;
      if (label) lint_label_used(p, label);
      e->obj = p->fn; /* the function whose label it is */
      if (!p->fn) perror_at(p, pos, "taking the address of label '%s' outside a function", label);
      return e;
    }
    if (accept(p, "*")) {
      CExpr *e = rvalue(p, parse_cast(p));
      CType *u = type_unqual(e->type);
      if (u->kind != TY_PTR) {
        perror_at(p, pos, "invalid type argument of unary '*'");
        return e;
      }
      CExpr *d = unary(EX_DEREF, e, u->base, pos);
      d->is_lvalue = true;
      if (type_unqual(u->base)->kind == TY_FUNC) d->is_lvalue = false;
      return d;
    }
    if (accept(p, "+")) {
      CExpr *e = parse_cast(p);
      if (vector_type(e->type)) return vector_unary(p, EX_ADD, e, pos);
      if (!type_is_arith(e->type)) perror_at(p, pos, "wrong type argument to unary plus");
      return promote(p, e);
    }
    if (accept(p, "-")) {
      CExpr *e = promote(p, parse_cast(p));
      if (vector_type(e->type)) return vector_unary(p, EX_NEG, e, pos);
      if (!type_is_arith(e->type)) perror_at(p, pos, "wrong type argument to unary minus");
      return unary(EX_NEG, e, e->type, pos);
    }
    if (accept(p, "~")) {
      CExpr *e = promote(p, parse_cast(p));
      if (vector_type(e->type)) return vector_unary(p, EX_BITNOT, e, pos);
      if (!type_is_integer(e->type) && !type_is_complex(type_unqual(e->type)))
        perror_at(p, pos, "wrong type argument to bit-complement");
      return unary(EX_BITNOT, e, e->type, pos);
    }
    if (accept(p, "!")) {
      CExpr *e = cond_expr_bool(p, parse_cast(p));
      return unary(EX_LNOT, e, ty_int, pos);
    }
  }
  if (t->kind == CT_IDENT) {
    if (t->kw == KW_SIZEOF) {
      next(p);
      if (is_punct(tok(p), "(") && is_typename(p, peek(p, 1))) {
        next(p);
        CType *ty = parse_type_name(p);
        expect(p, ")");
        if (is_punct(tok(p), "{")) {
          /* sizeof (T){...} is sizeof of a compound literal */
          CExpr *cl = compound_literal(p, ty, pos);
          return sizeof_type(p, cl->type, pos);
        }
        return sizeof_type(p, ty, pos);
      }
      p->unevaluated++;
      CExpr *e = parse_unary(p);
      p->unevaluated--;
      if (e->kind == EX_MEMBER && e->member->bit_width >= 0) perror_at(p, pos, "'sizeof' applied to a bit-field");
      return sizeof_type(p, e->type, pos);
    }
    if (t->kw == KW_ALIGNOF) {
      next(p);
      CType *ty;
      if (is_punct(tok(p), "(") && is_typename(p, peek(p, 1))) {
        next(p);
        ty = parse_type_name(p);
        expect(p, ")");
      } else {
        p->unevaluated++;
        CExpr *e = parse_unary(p);
        p->unevaluated--;
        ty = e->type;
        if (e->kind == EX_VAR && e->obj->align > type_unqual(ty)->align) return new_int(e->obj->align, ty_ulong, pos);
      }
      CType *u = type_unqual(ty);
      while (u->kind == TY_ARRAY) u = type_unqual(u->base);
      return new_int(u->align, ty_ulong, pos);
    }
    if (t->kw == KW_EXTENSION) {
      next(p);
      return parse_cast(p);
    }
    if (t->kw == KW_REAL || t->kw == KW_IMAG) {
      next(p);
      return complex_part(p, parse_cast(p), t->kw == KW_IMAG, pos);
    }
  }
  return parse_postfix(p);
}

/* ---- postfix and primary --------------------------------------------------------- */

/* what a bad operand becomes after its error: an int lvalue, so that the
 * expression around it reports nothing more */
static CExpr *error_operand(CPos pos) {
  CExpr *e = new_int(0, ty_int, pos);
  e->is_lvalue = true;
  return e;
}

static CExpr *member_access(Parser *p, CExpr *base, const char *name, CPos pos) {
  CType *t = type_unqual(base->type);
  if (!name) return error_operand(pos); /* no member name after '.' or '->': already reported */
  if (t->kind != TY_STRUCT && t->kind != TY_UNION) {
    perror_at(p, pos, "request for member '%s' in something not a structure or union", name ? name : "?");
    return error_operand(pos);
  }
  if (!t->complete) {
    perror_at(p, pos, "invalid use of incomplete type");
    return base;
  }
  /* walk into anonymous members one level at a time so each EX_MEMBER has a real member */
  for (CMember *m = t->members; m; m = m->next) {
    if (m->name && name && !strcmp(m->name, name)) {
      CExpr *e = new_expr(EX_MEMBER, type_qualified(m->type, base->type->quals & (Q_CONST | Q_VOLATILE)), pos);
      e->lhs = base;
      e->member = m;
      e->is_lvalue = base->is_lvalue;
      return e;
    }
    if (!m->name && (type_unqual(m->type)->kind == TY_STRUCT || type_unqual(m->type)->kind == TY_UNION)) {
      int64_t off = 0;
      if (type_find_member(m->type, name, &off)) {
        CExpr *inner = new_expr(EX_MEMBER, m->type, pos);
        inner->lhs = base;
        inner->member = m;
        inner->is_lvalue = base->is_lvalue;
        return member_access(p, inner, name, pos);
      }
    }
  }
  char spelled[256];
  type_spell(t, spelled, sizeof spelled);
  perror_at(p, pos, "'%s' has no member named '%s'", spelled, name ? name : "?");
  return error_operand(pos);
}

static CExpr *subscript(Parser *p, CExpr *a, CExpr *i, CPos pos) {
  a = rvalue(p, a);
  i = rvalue(p, i);
  if (vector_type(a->type)) return vector_subscript(p, a, i, pos);
  if (type_unqual(a->type)->kind != TY_PTR && type_unqual(i->type)->kind == TY_PTR) {
    CExpr *x = a;
    a = i;
    i = x;
  }
  if (type_unqual(a->type)->kind != TY_PTR || !type_is_integer(i->type)) {
    perror_at(p, pos, "subscripted value is neither array nor pointer");
    return a;
  }
  CExpr *addr = ptr_add(p, EX_PTRADD, a, i, pos);
  addr->subscript = true;
  CExpr *d = unary(EX_DEREF, addr, type_unqual(a->type)->base, pos);
  d->is_lvalue = true;
  return d;
}

static CExpr *identifier(Parser *p, PTok *t) {
  CPos pos = t->pos;
  const char *name = t->text;
  Sym *y = scope_find(p, name);
  if (y) {
    if (y->kind == SYM_ENUMCONST) return new_int(y->value, y->type, pos);
    if (y->kind == SYM_TYPEDEF) {
      perror_at(p, pos, "unexpected type name '%s': expected expression", name);
      return new_int(0, ty_int, pos);
    }
    CObj *o = y->obj;
    /* creal, cimag, conj: gcc's builtins, whether <complex.h> declared them or not */
    if (o->is_function && is_punct(tok(p), "(") && is_complex_function(name, o->type)) return complex_builtin(p, name, pos);
    /* like gcc in its GNU modes, a call of the declared library alloca is the builtin */
    if (o->is_function && !strcmp(name, "alloca") && is_punct(tok(p), "("))
      return parse_builtin_call(p, "__builtin_alloca", pos);
    o->is_referenced = true;
    o->nrefs++;
    CExpr *e = new_expr(EX_VAR, o->type, pos);
    e->obj = o;
    e->is_lvalue = !o->is_function;
    return e;
  }
  if (!strcmp(name, "__func__") || !strcmp(name, "__FUNCTION__") || !strcmp(name, "__PRETTY_FUNCTION__"))
    return new_name_string(p->fn ? p->fn->name : "", pos);
  if (is_punct(tok(p), "(") && is_complex_function(name, NULL)) return complex_builtin(p, name, pos);
  if (is_punct(tok(p), "(")) {
    /* an implicit declaration: int name() (gcc: a warning in C99 and later) */
    CExpr *b = parse_builtin_call(p, !strcmp(name, "alloca") ? "__builtin_alloca" : name, pos);
    if (b) return b;
    CType *proto = libc_prototype(name);
    if (!proto) {
      pwarn_w(p, W_IMPLICIT_FUNCTION_DECLARATION, pos, "implicit declaration of function '%s'", name);
      proto = type_func(ty_int, NULL, false, true);
    }
    CObj *o = c_alloc(sizeof *o);
    o->name = name;
    o->type = proto;
    o->pos = pos;
    o->is_function = true;
    o->storage = SC_EXTERN;
    PScope *saved = p->scope;
    p->scope = p->file_scope;
    scope_add(p, name, SYM_OBJ)->obj = o;
    p->scope = saved;
    add_unit_obj(p, o);
    CExpr *e = new_expr(EX_VAR, o->type, pos);
    e->obj = o;
    return e;
  }
  perror_at(p, pos, "'%s' undeclared", name);
  /* declare it as an int to avoid a cascade of errors */
  CObj *o = p->fn ? new_local(p, name, ty_int, pos) : c_alloc(sizeof(CObj));
  if (!p->fn) {
    o->name = name;
    o->type = ty_int;
  }
  scope_add(p, name, SYM_OBJ)->obj = o;
  CExpr *e = new_expr(EX_VAR, ty_int, pos);
  e->obj = o;
  e->is_lvalue = true;
  return e;
}

static CExpr *generic_selection(Parser *p, CPos pos) {
  expect(p, "(");
  CExpr *ctl = rvalue(p, parse_assign(p));
  CType *ct = type_unqual(ctl->type);
  CExpr *chosen = NULL, *dflt = NULL;
  while (accept(p, ",")) {
    if (accept_kw(p, KW_DEFAULT)) {
      expect(p, ":");
      dflt = parse_assign(p);
      continue;
    }
    CType *t = parse_type_name(p);
    expect(p, ":");
    CExpr *e = parse_assign(p);
    if (!chosen && type_compatible(ct, type_unqual(t))) chosen = e;
  }
  expect(p, ")");
  if (!chosen) chosen = dflt;
  if (!chosen) {
    char spelled[256];
    type_spell(ct, spelled, sizeof spelled);
    perror_at(p, pos, "'_Generic' selector of type '%s' is not compatible with any association", spelled);
    return new_int(0, ty_int, pos);
  }
  return chosen;
}

static CExpr *statement_expr(Parser *p, CPos pos) {
  if (!p->fn) perror_at(p, pos, "braced-group within expression allowed only inside a function");
  p->stmt_expr_depth++;
  CStmt *body = parse_compound(p);
  p->stmt_expr_depth--;
  CExpr *e = new_expr(EX_STMT_EXPR, ty_void, pos);
  e->body = body;
  /* the value is that of the last expression statement */
  CStmtList *last = body->stmts;
  while (last && last->next) last = last->next;
  if (last && last->stmt->kind == ST_EXPR) {
    last->stmt->expr = rvalue(p, last->stmt->expr);
    e->type = last->stmt->expr->type;
  }
  expect(p, ")");
  return e;
}

static CExpr *parse_primary(Parser *p) {
  PTok *t = tok(p);
  CPos pos = t->pos;
  switch (t->kind) {
  case CT_NUMBER:
    next(p);
    return parse_number(p, t);
  case CT_CHAR:
    next(p);
    return parse_char(p, t);
  case CT_STRING:
    return parse_string(p);
  case CT_IDENT:
    if (t->kw == KW_GENERIC) {
      next(p);
      return generic_selection(p, pos);
    }
    if (t->kw == KW_NONE) {
      next(p);
      return identifier(p, t);
    }
    if (t->kw == KW_BUILTIN_VA_ARG || t->kw == KW_BUILTIN_OFFSETOF || t->kw == KW_BUILTIN_TYPES_COMPATIBLE_P ||
        t->kw == KW_BUILTIN_CHOOSE_EXPR) {
      next(p);
      CExpr *b = parse_builtin_call(p, t->text, pos);
      if (b) return b;
    }
    break;
  case CT_PUNCT:
    if (is_punct(t, "(")) {
      next(p);
      if (is_punct(tok(p), "{")) return statement_expr(p, pos);
      CExpr *e = parse_expr(p);
      expect(p, ")");
      e->parens = true;
      return e;
    }
    break;
  default:
    break;
  }
  perror_at(p, pos, "expected expression before '%s'", t->kind == CT_EOF ? "end of input" : t->text);
  if (!at_eof(p) && !is_punct(t, ";") && !is_punct(t, "}") && !is_punct(t, ")")) next(p);
  return new_int(0, ty_int, pos);
}

CExpr *finish_call(Parser *p, CExpr *fn, CExprList *args, CPos pos) {
  CObj *direct = fn->kind == EX_VAR ? fn->obj : NULL;
  lint_format(p, fn, args);
  fn = rvalue(p, fn);
  CType *ft = type_unqual(fn->type);
  if (ft->kind == TY_PTR) ft = type_unqual(ft->base);
  if (ft->kind != TY_FUNC) {
    perror_at(p, pos, "called object is not a function or function pointer");
    return new_int(0, ty_int, pos);
  }
  CParam *q = ft->old_style ? NULL : ft->params;
  int i = 0;
  for (CExprList *a = args; a; a = a->next, i++) {
    if (q) {
      a->expr = assign_convert(p, a->expr, q->type, "passing argument");
      q = q->next;
    } else {
      if (!ft->old_style && !ft->variadic) {
        perror_at(p, a->expr->pos, "too many arguments to function");
        break;
      }
      /* default argument promotions */
      CExpr *e = rvalue(p, a->expr);
      if (type_unqual(e->type)->kind == TY_FLOAT) e = convert(p, e, ty_double);
      else if (type_is_integer(e->type)) e = promote(p, e);
      a->expr = e;
    }
  }
  if (q) perror_at(p, pos, "too few arguments to function");
  CExpr *e = new_expr(EX_CALL, type_unqual(ft->base), pos);
  e->lhs = fn;
  e->args = args;
  if (direct && direct->gnu_inline_forward) return expand_va_arg_pack_call(p, direct, e);
  return e;
}

CExprList *parse_call_args(Parser *p) {
  CExprList head = {0}, *tail = &head;
  if (accept(p, ")")) return NULL;
  do {
    CExpr *e = parse_assign(p);
    if (e == p->va_pack_marker && e) {
      /* __builtin_va_arg_pack (): the variadic arguments of the expanded call */
      for (CExprList *a = p->va_pack_args; a; a = a->next) {
        CExprList *l = c_alloc(sizeof *l);
        l->expr = a->expr;
        tail = tail->next = l;
      }
      continue;
    }
    CExprList *l = c_alloc(sizeof *l);
    l->expr = e;
    tail = tail->next = l;
  } while (accept(p, ","));
  expect(p, ")");
  return head.next;
}

static CExpr *postfix_ops(Parser *p, CExpr *e);

static CExpr *parse_postfix(Parser *p) { return postfix_ops(p, parse_primary(p)); }

static CExpr *postfix_ops(Parser *p, CExpr *e) {
  for (;;) {
    CPos pos = tok(p)->pos;
    if (accept(p, "[")) {
      CExpr *i = parse_expr(p);
      expect(p, "]");
      e = subscript(p, e, i, pos);
    } else if (accept(p, "(")) {
      CExprList *args = parse_call_args(p);
      e = finish_call(p, e, args, pos);
    } else if (accept(p, ".")) {
      CPos name_pos = tok(p)->pos;
      const char *name = ident(p);
      e = member_access(p, e, name, pos);
      e->name_pos = name_pos;
    } else if (accept(p, "->")) {
      CExpr *b = rvalue(p, e);
      CType *u = type_unqual(b->type);
      if (u->kind != TY_PTR) {
        perror_at(p, pos, "invalid type argument of '->'");
        ident(p);
        e = error_operand(pos);
        continue;
      }
      CExpr *d = unary(EX_DEREF, b, u->base, pos);
      d->is_lvalue = true;
      CPos name_pos = tok(p)->pos;
      e = member_access(p, d, ident(p), pos);
      e->name_pos = name_pos;
    } else if (accept(p, "++")) {
      e = incdec(p, EX_POSTINC, e, pos);
    } else if (accept(p, "--")) {
      e = incdec(p, EX_POSTDEC, e, pos);
    } else {
      return e;
    }
  }
}
