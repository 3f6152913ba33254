/* frontends/c/lint.c — the parser's -Wall/-Wextra analyses, in gcc's wording and
 * position: unused and set-but-unused objects, labels and static functions
 * (at the end of a scope, function, unit), -Wshadow, -Wparentheses,
 * -Wsign-compare, -Wunused-value, -Wswitch and -Wuninitialized. */
#include <string.h>

#include "parse.h"

static bool named_user_object(const CObj *o) {
  return o->name && !strchr(o->name, '.') && !o->attr_unused && !o->cleanup_fn && o->name[0] != '_';
}

static bool is_param_of_fn(Parser *p, const CObj *o) {
  if (!p->fn) return false;
  for (CObjList *l = p->fn->params; l; l = l->next)
    if (l->obj == o) return true;
  return false;
}

/* gcc's unused-variable, unused-but-set-variable and unused-parameter, as a scope closes */
void lint_scope_end(Parser *p, PScope *s) {
  for (Sym *y = s->syms; y; y = y->next) {
    CObj *o = y->obj;
    if (y->kind != SYM_OBJ || !o || !named_user_object(o) || o->is_function) continue;
    if (o->is_param) {
      if (!o->nrefs && is_param_of_fn(p, o)) c_warn(p->diag, W_UNUSED_PARAMETER, o->pos, "unused parameter '%s'", o->name);
      continue;
    }
    bool auto_local = o->is_local, static_local = !o->is_local && o->storage == SC_STATIC && p->fn;
    if (!auto_local && !static_local) continue;
    if (!o->nrefs) c_warn(p->diag, W_UNUSED_VARIABLE, o->pos, "unused variable '%s'", o->name);
    else if (auto_local && o->nrefs == o->nsets) c_warn(p->diag, W_UNUSED_BUT_SET_VARIABLE, o->pos, "variable '%s' set but not used", o->name);
  }
}

static bool is_alias_target(Parser *p, const CObj *o) {
  for (CObjList *l = p->unit->objs; l; l = l->next)
    if (l->obj->alias_target && !strcmp(l->obj->alias_target, o->name)) return true;
  return false;
}

/* static functions and variables of the unit nothing refers to */
void lint_unit_end(Parser *p) {
  if (!c_warn_on(p->diag, W_UNUSED_FUNCTION) && !c_warn_on(p->diag, W_UNUSED_VARIABLE)) return;
  for (CObjList *l = p->unit->objs; l; l = l->next) {
    CObj *o = l->obj;
    if (o->storage != SC_STATIC || o->nrefs || o->attr_used || !named_user_object(o) || o->is_local) continue;
    if (is_alias_target(p, o)) continue;
    if (o->asm_name && strchr(o->asm_name, '.')) continue; /* a static local */
    if (o->constructor_prio || o->destructor_prio) continue;
    if (o->is_function && o->body && !o->is_inline)
      c_warn(p->diag, W_UNUSED_FUNCTION, o->pos, "'%s' defined but not used", o->name);
    else if (!o->is_function && o->is_definition && !(o->type->quals & Q_CONST))
      c_warn(p->diag, W_UNUSED_VARIABLE, o->pos, "'%s' defined but not used", o->name);
  }
}

void lint_label_defined(Parser *p, CStmt *label) {
  CStmtList *l = c_alloc(sizeof *l);
  l->stmt = label;
  l->next = p->fn_labels;
  p->fn_labels = l;
}

void lint_label_used(Parser *p, const char *name) {
  CStmt *s = c_alloc(sizeof *s);
  s->label = name;
  CStmtList *l = c_alloc(sizeof *l);
  l->stmt = s;
  l->next = p->used_labels;
  p->used_labels = l;
}

/* labels nothing jumps to, as the function ends */
void lint_function_end(Parser *p) {
  for (CStmtList *d = p->fn_labels; d; d = d->next) {
    bool used = false;
    for (CStmtList *u = p->used_labels; u && !used; u = u->next) used = !strcmp(u->stmt->label, d->stmt->label);
    if (!used) c_warn(p->diag, W_UNUSED_LABEL, d->stmt->pos, "label '%s' defined but not used", d->stmt->label);
  }
  p->fn_labels = p->used_labels = NULL;
}

/* -Wshadow: a local declared over a visible local, parameter or global variable */
void lint_shadow(Parser *p, const char *name, CPos pos) {
  if (!c_warn_on(p->diag, W_SHADOW)) return;
  Sym *y = scope_find(p, name);
  if (!y || y->kind != SYM_OBJ || !y->obj || y->obj->is_function) return;
  const char *what = y->obj->is_param ? "a parameter" : y->obj->is_local ? "a previous local" : "a global declaration";
  c_warn(p->diag, W_SHADOW, pos, "declaration of '%s' shadows %s", name, what);
}

static CExpr *strip_implicit(CExpr *e) {
  while (e && e->kind == EX_CAST && e->implicit) e = e->lhs;
  return e;
}

static bool is_comparison(CExprKind k) { return k >= EX_LT && k <= EX_NE; }

static const char *op_spelling(CExprKind k) {
  switch (k) {
  case EX_BAND: return "&";
  case EX_BOR: return "|";
  case EX_BXOR: return "^";
  case EX_SHL: return "<<";
  case EX_SHR: return ">>";
  case EX_ADD: return "+";
  case EX_SUB: return "-";
  default: return "?";
  }
}

/* -Wparentheses on the operands of a binary operator, as gcc's */
static void lint_parens(Parser *p, CExprKind k, CExpr *a, CExpr *b, CPos pos) {
  CExpr *ops[2] = {strip_implicit(a), strip_implicit(b)};
  for (int i = 0; i < 2; i++) {
    CExpr *o = ops[i];
    if (!o || o->parens) continue;
    if (k == EX_LOR && o->kind == EX_LAND)
      c_warn(p->diag, W_PARENTHESES, pos, "suggest parentheses around '&&' within '||'");
    else if ((k == EX_BAND || k == EX_BOR || k == EX_BXOR) && is_comparison(o->kind))
      c_warn(p->diag, W_PARENTHESES, pos, "suggest parentheses around comparison in operand of '%s'", op_spelling(k));
    else if ((k == EX_SHL || k == EX_SHR) && (o->kind == EX_ADD || o->kind == EX_SUB))
      c_warn(p->diag, W_PARENTHESES, pos, "suggest parentheses around '%s' inside '%s'", op_spelling(o->kind), op_spelling(k));
    else if ((k == EX_BOR || k == EX_BXOR) && (o->kind == EX_ADD || o->kind == EX_SUB))
      c_warn(p->diag, W_PARENTHESES, pos, "suggest parentheses around arithmetic in operand of '%s'", op_spelling(k));
  }
}

static bool const_fits_signed(CExpr *e, const CType *signed_type) {
  int64_t v;
  if (!c_eval_int(e, &v)) return false;
  return v >= 0 && (signed_type->size >= 8 || v <= (INT64_C(1) << (signed_type->size * 8 - 1)) - 1);
}

/* -Wsign-compare: a comparison the usual conversions make unsigned, with a
 * signed operand that may be negative */
static void lint_sign_compare(Parser *p, CExpr *a, CExpr *b, CPos pos) {
  CType *ta = type_unqual(a->type), *tb = type_unqual(b->type);
  if (!type_is_integer(ta) || !type_is_integer(tb) || ta->kind == TY_ENUM || tb->kind == TY_ENUM) return;
  CType *pa = type_unqual(type_promote(ta)), *pb = type_unqual(type_promote(tb));
  if (pa->is_unsigned == pb->is_unsigned) return;
  /* an unsigned type narrower than int promotes to a never-negative int */
  if ((!pa->is_unsigned && ta->is_unsigned) || (!pb->is_unsigned && tb->is_unsigned)) return;
  CExpr *s = pa->is_unsigned ? b : a, *u = pa->is_unsigned ? a : b;
  CType *st = pa->is_unsigned ? pb : pa, *ut = pa->is_unsigned ? pa : pb;
  if (st->size > ut->size) return; /* the common type is the signed one */
  if (const_fits_signed(s, st) || const_fits_signed(u, st)) return;
  char sa[64], sb[64];
  type_spell(a->type, sa, sizeof sa);
  type_spell(b->type, sb, sizeof sb);
  c_warn(p->diag, W_SIGN_COMPARE, pos, "comparison of integer expressions of different signedness: '%s' and '%s'", sa, sb);
}

void lint_binary(Parser *p, CExprKind k, CExpr *a, CExpr *b, CPos pos) {
  if (!a || !b) return;
  if (c_warn_on(p->diag, W_PARENTHESES)) lint_parens(p, k, a, b, pos);
  if (is_comparison(k) && c_warn_on(p->diag, W_SIGN_COMPARE)) lint_sign_compare(p, a, b, pos);
}

/* if/while/do/for: an unparenthesized assignment as the condition */
void lint_condition(Parser *p, CExpr *e) {
  e = strip_implicit(e);
  if (e && e->kind == EX_ASSIGN && !e->parens)
    c_warn(p->diag, W_PARENTHESES, e->pos, "suggest parentheses around assignment used as truth value");
}

static bool has_side_effects(const CExpr *e) {
  if (!e) return false;
  switch (e->kind) {
  case EX_ASSIGN: case EX_OPASSIGN: case EX_PREINC: case EX_PREDEC: case EX_POSTINC: case EX_POSTDEC:
  case EX_CALL: case EX_STMT_EXPR: case EX_VA_ARG: case EX_VLA_SIZEOF: case EX_BUILTIN:
    return true;
  default:
    break;
  }
  if ((e->kind == EX_VAR || e->kind == EX_DEREF || e->kind == EX_MEMBER) && (e->type->quals & Q_VOLATILE)) return true;
  return has_side_effects(e->lhs) || has_side_effects(e->rhs) || has_side_effects(e->cond);
}

/* an expression statement that computes nothing anyone sees */
void lint_expr_stmt(Parser *p, CExpr *e) {
  if (!e || p->stmt_expr_depth || !c_warn_on(p->diag, W_UNUSED_VALUE)) return;
  if (e->kind == EX_CAST && !e->implicit && type_unqual(e->type)->kind == TY_VOID) return;
  if (e->kind == EX_COMMA || e->kind == EX_COND) return;
  if (!has_side_effects(e)) c_warn(p->diag, W_UNUSED_VALUE, e->pos, "statement with no effect");
}

/* -Wswitch: a switch on an enum without default that misses some of its constants */
void lint_switch(Parser *p, CStmt *s, CType *enum_type) {
  CType *t = enum_type ? type_unqual(enum_type) : NULL;
  if (!t || t->kind != TY_ENUM || s->default_case || !c_warn_on(p->diag, W_SWITCH)) return;
  for (CMember *m = t->members; m; m = m->next) {
    bool handled = false;
    for (CStmtList *c = s->cases; c && !handled; c = c->next)
      handled = c->stmt->case_lo <= m->value && m->value <= c->stmt->case_hi;
    if (!handled) c_warn(p->diag, W_SWITCH, s->pos, "enumeration value '%s' not handled in switch", m->name);
  }
}

/* -Wuninitialized, the definite cases: the value of a scalar local without
 * initializer read before anything in the text stores to it or takes its
 * address, and no loop since its declaration could store to it first */
void lint_read(Parser *p, CExpr *e) {
  if (!e || e->kind != EX_VAR || p->unevaluated) return;
  CObj *o = e->obj;
  if (!o->is_local || o->is_param || o->init || o->nsets || o->address_taken || o->warned_uninit || !o->name) return;
  if (!type_is_scalar(o->type) || p->loop_depth > o->decl_loop_depth || o->attr_unused) return;
  if (o->type->quals & Q_VOLATILE) return;
  o->warned_uninit = true;
  c_warn(p->diag, W_UNINITIALIZED, e->pos, "'%s' is used uninitialized", o->name);
}
