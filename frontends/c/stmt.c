/* frontends/c/stmt.c — C statements: compound statements with their block
 * scope and locals, selection and iteration statements, switch with case
 * collection (GNU ranges, duplicate detection), labels, jumps, returns. */
#include <string.h>

#include "parse.h"

CStmt *new_stmt(CStmtKind k, CPos pos) {
  CStmt *s = c_alloc(sizeof *s);
  s->kind = k;
  s->pos = pos;
  return s;
}

static CStmt *parse_stmt(Parser *p);

static CExpr *lint_cond(Parser *p, CExpr *e) {
  lint_condition(p, e);
  return e;
}

static CStmt *expr_stmt(Parser *p) {
  CPos pos = tok(p)->pos;
  CStmt *s = new_stmt(ST_EXPR, pos);
  s->expr = parse_expr(p);
  lint_expr_stmt(p, s->expr);
  expect(p, ";");
  return s;
}

CStmt *parse_compound(Parser *p) {
  CStmt *blk = new_stmt(ST_BLOCK, tok(p)->pos);
  expect(p, "{");
  scope_push(p);
  CObjList **saved_locals = p->block_locals_tail;
  p->block_locals_tail = &blk->locals;
  CStmtList **tail = &blk->stmts;
  while (!at_eof(p) && !is_punct(tok(p), "}")) {
    size_t before = p->pos;
    if (accept_kw(p, KW_LABEL)) {
      /* __label__ a, b; local labels: plain labels serve */
      while (!at_eof(p) && !accept(p, ";")) next(p);
      continue;
    }
    PTok *t = tok(p);
    bool is_decl = is_typename(p, t) && !is_punct(peek(p, 1), ":");
    if (t->kw == KW_STATIC_ASSERT) is_decl = true;
    if (is_kw(t, KW_EXTENSION) && is_typename(p, peek(p, 1))) is_decl = true;
    if (is_decl) {
      parse_declaration(p, &tail);
    } else {
      CStmtList *l = c_alloc(sizeof *l);
      l->stmt = parse_stmt(p);
      *tail = l;
      tail = &l->next;
    }
    if (p->pos == before) next(p);
  }
  blk->end = tok(p)->pos;
  expect(p, "}");
  p->block_locals_tail = saved_locals;
  scope_pop(p);
  return blk;
}

static CStmt *sub_stmt(Parser *p) {
  /* a statement that is not a block still gets a scope (C99 6.8.4p3) */
  return parse_stmt(p);
}

static CStmt *parse_for(Parser *p, CPos pos) {
  CStmt *s = new_stmt(ST_FOR, pos);
  expect(p, "(");
  scope_push(p);
  CStmt *init_blk = NULL;
  CObjList **saved_locals = p->block_locals_tail;
  if (is_typename(p, tok(p)) || is_kw(tok(p), KW_STATIC_ASSERT)) {
    init_blk = new_stmt(ST_BLOCK, pos);
    p->block_locals_tail = &init_blk->locals;
    CStmtList **tail = &init_blk->stmts;
    parse_declaration(p, &tail);
    s->init = init_blk;
  } else if (!accept(p, ";")) {
    s->init = expr_stmt(p);
  }
  p->loop_depth++; /* the condition and step run after the body too */
  if (!is_punct(tok(p), ";")) s->expr = cond_expr_bool(p, lint_cond(p, parse_expr(p)));
  expect(p, ";");
  if (!is_punct(tok(p), ")")) s->step = parse_expr(p);
  expect(p, ")");
  s->body = sub_stmt(p);
  p->loop_depth--;
  p->block_locals_tail = saved_locals;
  scope_pop(p);
  if (init_blk) {
    /* { init; for (; cond; step) body } so the init's locals end with the loop */
    CStmt *outer = new_stmt(ST_BLOCK, pos);
    outer->locals = init_blk->locals;
    outer->stmts = init_blk->stmts;
    CStmtList **tail = &outer->stmts;
    while (*tail) tail = &(*tail)->next;
    CStmtList *l = c_alloc(sizeof *l);
    l->stmt = s;
    *tail = l;
    s->init = NULL;
    return outer;
  }
  return s;
}

static CStmt *parse_switch(Parser *p, CPos pos) {
  CStmt *s = new_stmt(ST_SWITCH, pos);
  expect(p, "(");
  CExpr *e = rvalue(p, parse_expr(p));
  CType *written = e->type;
  if (!type_is_integer(e->type)) perror_at(p, e->pos, "switch quantity not an integer");
  else e = convert(p, e, type_promote(e->type));
  s->expr = e;
  expect(p, ")");
  CStmt *saved = p->cur_switch;
  CStmtList **saved_tail = p->cases_tail;
  p->cur_switch = s;
  p->cases_tail = &s->cases;
  p->switch_depth++;
  s->body = sub_stmt(p);
  p->switch_depth--;
  p->cur_switch = saved;
  p->cases_tail = saved_tail;
  /* duplicate case values */
  for (CStmtList *a = s->cases; a; a = a->next)
    for (CStmtList *b = a->next; b; b = b->next)
      if (a->stmt->case_lo <= b->stmt->case_hi && b->stmt->case_lo <= a->stmt->case_hi)
        perror_at(p, b->stmt->pos, "duplicate case value");
  lint_switch(p, s, written);
  return s;
}

static int64_t case_value(Parser *p, CStmt *sw) {
  CPos pos = tok(p)->pos;
  CExpr *e = parse_cond_expr(p);
  int64_t v;
  if (!c_eval_ice(e, &v)) {
    perror_at(p, pos, "case label does not reduce to an integer constant");
    return 0;
  }
  /* the value converts to the promoted type of the controlling expression */
  if (sw && sw->expr) {
    CType *t = type_unqual(sw->expr->type);
    if (t->size == 4) v = t->is_unsigned ? (int64_t)(uint32_t)v : (int64_t)(int32_t)v;
  }
  return v;
}

static CStmt *statement(Parser *p);

static CStmt *parse_stmt(Parser *p) {
  if (!nest_enter(p)) return new_stmt(ST_NULL, tok(p)->pos);
  CStmt *s = statement(p);
  nest_leave(p);
  return s;
}

static CStmt *statement(Parser *p) {
  if (at_std_attr(p)) {
    /* [[fallthrough]]; [[maybe_unused]] label: ... of the statement: no code changes */
    Attrs ignored = {0};
    parse_attributes(p, &ignored);
  }
  PTok *t = tok(p);
  CPos pos = t->pos;
  if (t->kind == CT_PUNCT) {
    if (is_punct(t, "{")) return parse_compound(p);
    if (accept(p, ";")) return new_stmt(ST_NULL, pos);
  }
  if (t->kind == CT_IDENT) {
    /* a label */
    if (t->kw == KW_NONE && is_punct(peek(p, 1), ":")) {
      next(p);
      next(p);
      Attrs a = {0};
      parse_attributes(p, &a);
      CStmt *s = new_stmt(ST_LABEL, pos);
      s->label = t->text;
      if (!a.is_unused) lint_label_defined(p, s);
      if (is_punct(tok(p), "}")) {
        s->body = new_stmt(ST_NULL, pos);
        return s;
      }
      s->body = parse_stmt(p);
      return s;
    }
    switch (t->kw) {
    case KW_IF: {
      next(p);
      CStmt *s = new_stmt(ST_IF, pos);
      expect(p, "(");
      s->expr = cond_expr_bool(p, lint_cond(p, parse_expr(p)));
      expect(p, ")");
      s->then = sub_stmt(p);
      if (accept_kw(p, KW_ELSE)) s->els = sub_stmt(p);
      return s;
    }
    case KW_WHILE: {
      next(p);
      CStmt *s = new_stmt(ST_WHILE, pos);
      expect(p, "(");
      s->expr = cond_expr_bool(p, lint_cond(p, parse_expr(p)));
      expect(p, ")");
      p->loop_depth++;
      s->body = sub_stmt(p);
      p->loop_depth--;
      return s;
    }
    case KW_DO: {
      next(p);
      CStmt *s = new_stmt(ST_DO, pos);
      p->loop_depth++;
      s->body = sub_stmt(p);
      p->loop_depth--;
      if (!accept_kw(p, KW_WHILE)) perror_at(p, tok(p)->pos, "expected 'while' before '%s'", tok(p)->text);
      expect(p, "(");
      s->expr = cond_expr_bool(p, lint_cond(p, parse_expr(p)));
      expect(p, ")");
      expect(p, ";");
      return s;
    }
    case KW_FOR:
      next(p);
      return parse_for(p, pos);
    case KW_SWITCH:
      next(p);
      return parse_switch(p, pos);
    case KW_CASE: {
      next(p);
      CStmt *s = new_stmt(ST_CASE, pos);
      s->case_lo = s->case_hi = case_value(p, p->cur_switch);
      if (accept(p, "...")) s->case_hi = case_value(p, p->cur_switch);
      expect(p, ":");
      if (!p->cur_switch) {
        perror_at(p, pos, "case label not within a switch statement");
      } else {
        CStmtList *l = c_alloc(sizeof *l);
        l->stmt = s;
        *p->cases_tail = l;
        p->cases_tail = &l->next;
      }
      s->body = is_punct(tok(p), "}") ? new_stmt(ST_NULL, pos) : parse_stmt(p);
      return s;
    }
    case KW_DEFAULT: {
      next(p);
      expect(p, ":");
      CStmt *s = new_stmt(ST_DEFAULT, pos);
      if (!p->cur_switch) perror_at(p, pos, "'default' label not within a switch statement");
      else if (p->cur_switch->default_case) perror_at(p, pos, "multiple default labels in one switch");
      else p->cur_switch->default_case = s;
      s->body = is_punct(tok(p), "}") ? new_stmt(ST_NULL, pos) : parse_stmt(p);
      return s;
    }
    case KW_BREAK:
      next(p);
      expect(p, ";");
      if (!p->loop_depth && !p->switch_depth) perror_at(p, pos, "break statement not within loop or switch");
      return new_stmt(ST_BREAK, pos);
    case KW_CONTINUE:
      next(p);
      expect(p, ";");
      if (!p->loop_depth) perror_at(p, pos, "continue statement not within a loop");
      return new_stmt(ST_CONTINUE, pos);
    case KW_GOTO: {
      next(p);
      if (accept(p, "*")) {
        CStmt *s = new_stmt(ST_GOTO_PTR, pos);
        s->expr = rvalue(p, parse_expr(p));
        if (type_unqual(s->expr->type)->kind != TY_PTR) perror_at(p, s->expr->pos, "computed goto must be pointer type");
        expect(p, ";");
        return s;
      }
      CStmt *s = new_stmt(ST_GOTO, pos);
      s->label = ident(p);
      if (s->label) lint_label_used(p, s->label);
      expect(p, ";");
      return s;
    }
    case KW_RETURN: {
      next(p);
      CStmt *s = new_stmt(ST_RETURN, pos);
      CType *rt = p->fn ? type_unqual(type_unqual(p->fn->type)->base) : ty_int;
      if (!accept(p, ";")) {
        CExpr *e = parse_expr(p);
        expect(p, ";");
        if (rt->kind == TY_VOID) {
          if (type_unqual(e->type)->kind != TY_VOID) pwarn_w(p, W_RETURN_MISMATCH, pos, "'return' with a value, in function returning void");
          /* still evaluated for its side effects */
          CStmt *es = new_stmt(ST_EXPR, pos);
          es->expr = e;
          CStmt *blk = new_stmt(ST_BLOCK, pos);
          CStmtList *a = c_alloc(sizeof *a), *b = c_alloc(sizeof *b);
          a->stmt = es;
          b->stmt = s;
          a->next = b;
          blk->stmts = a;
          return blk;
        }
        s->expr = assign_convert(p, e, rt, "returning");
      } else if (rt->kind != TY_VOID) {
        pwarn_w(p, W_RETURN_MISMATCH, pos, "'return' with no value, in function returning non-void");
      }
      return s;
    }
    case KW_ASM:
      return parse_asm_stmt(p, pos);
    default:
      break;
    }
  }
  return expr_stmt(p);
}
