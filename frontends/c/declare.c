/* frontends/c/declare.c — what a declaration declares: typedef names, file
 * scope objects and functions merged across redeclarations (linkage, C99 and
 * GNU inline rules, tentative definitions), block scope locals, statics and
 * externs, and function definitions (incl. K&R parameter declarations). */
#include <stdio.h>
#include <string.h>

#include "parse.h"

void pending_vla_add(Parser *p, CStmt *s) {
  if (!p->pending_tail) p->pending_tail = &p->pending;
  CStmtList *l = c_alloc(sizeof *l);
  l->stmt = s;
  *p->pending_tail = l;
  p->pending_tail = &l->next;
}

static void append_stmt(CStmtList ***out, CStmt *s) {
  CStmtList *l = c_alloc(sizeof *l);
  l->stmt = s;
  **out = l;
  *out = &l->next;
}

static void flush_pending(Parser *p, CStmtList ***out) {
  for (CStmtList *l = p->pending; l; l = l->next) {
    if (l->stmt->kind == ST_DECL && p->block_locals_tail) {
      CObjList *ol = c_alloc(sizeof *ol);
      ol->obj = l->stmt->obj;
      *p->block_locals_tail = ol;
      p->block_locals_tail = &ol->next;
    }
    if (out) append_stmt(out, l->stmt);
  }
  p->pending = NULL;
  p->pending_tail = &p->pending;
}

CObj *new_local(Parser *p, const char *name, CType *t, CPos pos) {
  CObj *o = c_alloc(sizeof *o);
  o->name = name;
  o->type = t;
  o->pos = pos;
  o->is_local = true;
  o->storage = SC_AUTO;
  o->is_definition = true;
  if (p->fn && p->locals_tail) {
    CObjList *l = c_alloc(sizeof *l);
    l->obj = o;
    *p->locals_tail = l;
    p->locals_tail = &l->next;
  }
  return o;
}

static void add_block_local(Parser *p, CObj *o) {
  if (!p->block_locals_tail) return;
  CObjList *l = c_alloc(sizeof *l);
  l->obj = o;
  *p->block_locals_tail = l;
  p->block_locals_tail = &l->next;
}

static bool more_complete(CType *a, CType *b) {
  /* b completes a: an array length, or a prototype for an unprototyped function */
  CType *ua = type_unqual(a), *ub = type_unqual(b);
  if (ua->kind == TY_ARRAY && ub->kind == TY_ARRAY) return ua->len < 0 && ub->len >= 0;
  if (ua->kind == TY_FUNC && ub->kind == TY_FUNC) return ua->old_style && !ub->old_style;
  return false;
}

/* the file-scope entity `name`, created or merged with earlier declarations */
static CObj *file_obj(Parser *p, const char *name, CType *t, CPos pos, const DeclSpec *ds, bool at_file_scope) {
  PScope *saved = p->scope;
  p->scope = p->file_scope;
  Sym *y = scope_find_here(p, name);
  p->scope = saved;
  bool is_fn = type_unqual(t)->kind == TY_FUNC;
  if (y && y->kind != SYM_OBJ) {
    perror_at(p, pos, "'%s' redeclared as different kind of symbol", name);
    y = NULL;
  }
  if (y) {
    CObj *o = y->obj;
    if (o->is_function != is_fn) {
      perror_at(p, pos, "'%s' redeclared as different kind of symbol", name);
    } else if (!type_compatible(o->type, t)) {
      perror_at(p, pos, "conflicting types for '%s'", name);
    } else if (more_complete(o->type, t)) {
      o->type = t;
    }
    if (ds->storage == SC_STATIC && o->storage != SC_STATIC && at_file_scope)
      perror_at(p, pos, "static declaration of '%s' follows non-static declaration", name);
    return o;
  }
  CObj *o = c_alloc(sizeof *o);
  o->name = name;
  o->type = t;
  o->pos = pos;
  o->is_function = is_fn;
  o->storage = ds->storage == SC_STATIC && at_file_scope ? SC_STATIC : ds->storage == SC_EXTERN ? SC_EXTERN : SC_NONE;
  p->scope = p->file_scope;
  scope_add(p, name, SYM_OBJ)->obj = o;
  p->scope = saved;
  add_unit_obj(p, o);
  return o;
}

static void add_visible(Parser *p, const char *name, CObj *o) {
  if (p->scope == p->file_scope) return;
  scope_add(p, name, SYM_OBJ)->obj = o;
}

static void parse_kr_params(Parser *p, CType *ft) {
  /* int f(a, b) int a; char *b; { ... } */
  while (!at_eof(p) && !is_punct(tok(p), "{")) {
    DeclSpec ds;
    CPos pos = tok(p)->pos;
    if (!parse_declspec(p, &ds, true)) {
      perror_at(p, pos, "expected declaration specifiers before '%s'", tok(p)->text);
      size_t at = p->pos;
      skip_to(p, ";");
      if (p->pos == at) next(p); /* skip_to stops before a '}': always make progress */
      continue;
    }
    do {
      const char *name = NULL;
      Attrs a = ds.attrs;
      CType *t = parse_declarator(p, ds.type ? ds.type : ty_int, &name, &pos, &a);
      CType *u = type_unqual(t);
      if (u->kind == TY_ARRAY) t = type_ptr(u->base);
      else if (u->kind == TY_FUNC) t = type_ptr(t);
      bool found = false;
      for (CParam *q = ft->params; q; q = q->next)
        if (name && q->name && !strcmp(q->name, name)) {
          q->type = t;
          found = true;
        }
      if (!found) perror_at(p, pos, "declaration for parameter '%s' but no such parameter", name ? name : "?");
    } while (accept(p, ","));
    expect(p, ";");
  }
}

static void function_definition(Parser *p, CObj *o, CType *t, CPos pos) {
  CType *ft = type_unqual(t);
  CType **declared = NULL; /* K&R: the declared type of each parameter, when narrower than its promotion */
  if (ft->old_style && ft->params) {
    /* the parameter types come from the declaration list; callers pass promoted values */
    CType *copy = c_alloc(sizeof *copy);
    *copy = *ft;
    CParam head = {0}, *tail = &head;
    for (CParam *q = ft->params; q; q = q->next) {
      CParam *n = c_alloc(sizeof *n);
      *n = *q;
      n->next = NULL;
      tail = tail->next = n;
    }
    copy->params = head.next;
    parse_kr_params(p, copy);
    int n = 0;
    for (CParam *q = copy->params; q; q = q->next) n++;
    declared = c_alloc(sizeof(CType *) * (size_t)n);
    n = 0;
    for (CParam *q = copy->params; q; q = q->next, n++) {
      CType *u = type_unqual(q->type);
      if (u->kind == TY_FLOAT) {
        declared[n] = q->type;
        q->type = ty_double;
      } else if (type_is_integer(u) && type_rank(u) < type_rank(ty_int)) {
        declared[n] = q->type;
        q->type = ty_int;
      }
    }
    t = ft = copy;
    o->type = t;
  }
  if (o->body) perror_at(p, pos, "redefinition of '%s'", o->name);
  o->is_definition = true;
  o->type = t;
  CType *ret = type_unqual(ft->base);
  if (ret->kind != TY_VOID && !type_is_complete(ret)) perror_at(p, pos, "return type is an incomplete type");
  CObj *saved_fn = p->fn;
  p->fn = o;
  o->locals = NULL;
  p->locals_tail = &o->locals;
  scope_push(p);
  CObjList **ptail = &o->params;
  CStmtList *narrowed = NULL, **ntail = &narrowed;
  int i = 0;
  for (CParam *q = ft->params; q; q = q->next, i++) {
    CObj *po = new_local(p, q->name, q->type, q->pos);
    po->is_param = true;
    po->attr_unused = q->unused;
    if (q->name && declared && declared[i]) {
      /* a K&R parameter narrower than its promotion: a local of the declared type */
      CObj *lo = new_local(p, q->name, declared[i], q->pos);
      CExpr *v = new_expr(EX_VAR, po->type, q->pos);
      v->obj = po;
      v->is_lvalue = true;
      lo->init = c_alloc(sizeof(CInit));
      lo->init->type = declared[i];
      lo->init->nitems = 1;
      lo->init->items = c_alloc(sizeof(CInitItem));
      lo->init->items[0] = (CInitItem){0, declared[i], NULL, convert(p, v, declared[i])};
      scope_add(p, q->name, SYM_OBJ)->obj = lo;
      CStmt *d = new_stmt(ST_DECL, q->pos);
      d->obj = lo;
      CStmtList *l = c_alloc(sizeof *l);
      l->stmt = d;
      *ntail = l;
      ntail = &l->next;
    } else if (q->name) {
      scope_add(p, q->name, SYM_OBJ)->obj = po;
    }
    CObjList *l = c_alloc(sizeof *l);
    l->obj = po;
    *ptail = l;
    ptail = &l->next;
  }
  o->body = parse_compound(p);
  lint_function_end(p);
  if (narrowed) {
    *ntail = o->body->stmts;
    o->body->stmts = narrowed;
  }
  scope_pop(p);
  p->fn = saved_fn;
}

static void declare_typedef(Parser *p, const char *name, CType *t, CPos pos) {
  Sym *y = scope_find_here(p, name);
  if (y && (y->kind != SYM_TYPEDEF || !type_compatible(y->type, t))) {
    perror_at(p, pos, "conflicting types for '%s'", name);
    return;
  }
  y = scope_add(p, name, SYM_TYPEDEF);
  y->type = type_typedef(t, name);
}

static CType *auto_type(Parser *p, CType *t, CInit **init_out, bool is_static) {
  /* __auto_type x = expr: the type of the (converted) initializer */
  CExpr *e = rvalue(p, parse_assign(p));
  (void)t;
  (void)is_static;
  CInit *in = c_alloc(sizeof *in);
  in->type = e->type;
  in->nitems = 1;
  in->items = c_alloc(sizeof(CInitItem));
  in->items[0].type = e->type;
  in->items[0].expr = e;
  *init_out = in;
  return e->type;
}

static void declare_local(Parser *p, const DeclSpec *ds, const char *name, CType *t, CPos pos, Attrs *a,
                          const char *asm_label, CStmtList ***out) {
  if (ds->storage == SC_EXTERN || type_unqual(t)->kind == TY_FUNC) {
    CObj *o = file_obj(p, name, t, pos, ds, false);
    if (o->storage == SC_NONE && ds->storage == SC_EXTERN && !o->is_definition) o->storage = SC_EXTERN;
    apply_attrs(o, a);
    if (asm_label) o->asm_name = asm_label;
    add_visible(p, name, o);
    if (is_punct(tok(p), "=")) perror_at(p, pos, "'%s' has both 'extern' and initializer", name);
    return;
  }
  if (ds->storage == SC_STATIC || ds->is_thread_local) {
    /* a static local is a global with a unique symbol name */
    CObj *o = c_alloc(sizeof *o);
    o->name = name;
    char buf[256];
    snprintf(buf, sizeof buf, "%s.%s.%d", name, p->fn ? p->fn->name : "", p->nstatic_locals++);
    o->asm_name = asm_label ? asm_label : c_strdup(buf);
    o->type = t;
    o->pos = pos;
    o->storage = SC_STATIC;
    o->is_thread_local = ds->is_thread_local;
    o->is_definition = true;
    o->align = ds->align;
    apply_attrs(o, a);
    scope_add(p, name, SYM_OBJ)->obj = o;
    add_unit_obj(p, o);
    if (accept(p, "=")) {
      o->init = parse_initializer(p, t, true);
      if (o->init->type) o->type = o->init->type;
    }
    if (!type_is_complete(o->type)) perror_at(p, pos, "storage size of '%s' isn't known", name);
    return;
  }
  CObj *o = new_local(p, name, t, pos);
  o->decl_loop_depth = p->loop_depth;
  o->align = ds->align;
  apply_attrs(o, a);
  if (a->cleanup) {
    Sym *f = scope_find(p, a->cleanup);
    if (!f || f->kind != SYM_OBJ || !f->obj->is_function)
      perror_at(p, pos, "cleanup argument not a function");
    else
      o->cleanup_fn = f->obj;
    if (f && f->kind == SYM_OBJ) f->obj->nrefs++; /* a use of the function (-Wunused-function) */
  }
  Sym *prev = scope_find_here(p, name);
  if (prev) perror_at(p, pos, "redeclaration of '%s'", name);
  else lint_shadow(p, name, pos);
  scope_add(p, name, SYM_OBJ)->obj = o;
  if (!ds->type) {
    if (!accept(p, "=")) {
      perror_at(p, pos, "'__auto_type' requires an initialized data declaration");
    } else {
      o->type = auto_type(p, t, &o->init, false);
    }
  } else if (accept(p, "=")) {
    if (type_is_vla(t)) perror_at(p, pos, "variable-sized object may not be initialized");
    o->init = parse_initializer(p, t, false);
    if (o->init->type) o->type = o->init->type;
  }
  if (!type_is_complete(o->type)) perror_at(p, pos, "storage size of '%s' isn't known", name);
  flush_pending(p, out);
  CStmt *s = new_stmt(ST_DECL, pos);
  s->obj = o;
  append_stmt(out, s);
  add_block_local(p, o);
}

static void declare_global(Parser *p, const DeclSpec *ds, const char *name, CType *t, CPos pos, Attrs *a,
                           const char *asm_label) {
  CObj *o = file_obj(p, name, t, pos, ds, true);
  apply_attrs(o, a);
  if (asm_label) o->asm_name = asm_label;
  if (ds->align > o->align) o->align = ds->align;
  if (ds->is_thread_local) o->is_thread_local = true;
  if (ds->storage == SC_STATIC) o->storage = SC_STATIC;
  if (ds->storage == SC_NONE && o->storage == SC_EXTERN) o->storage = SC_NONE;
  if (accept(p, "=")) {
    if (o->init) perror_at(p, pos, "redefinition of '%s'", name);
    if (!ds->type) {
      o->type = auto_type(p, t, &o->init, true);
    } else {
      o->init = parse_initializer(p, o->type, true);
      if (o->init->type) o->type = o->init->type;
    }
    o->is_definition = true;
    o->is_tentative = false;
    if (o->storage == SC_EXTERN) o->storage = SC_NONE;
  } else if (ds->storage != SC_EXTERN && !o->init) {
    o->is_definition = true;
    o->is_tentative = true;
  }
  if (o->is_definition && type_unqual(o->type)->kind == TY_ARRAY && type_unqual(o->type)->len < 0 && o->is_tentative) {
    /* a tentative definition of an incomplete array becomes one element (C11 6.9.2p5) */
  } else if (o->is_definition && !type_is_complete(o->type) && !o->is_tentative) {
    perror_at(p, pos, "storage size of '%s' isn't known", name);
  }
}

void parse_declaration(Parser *p, CStmtList ***out) {
  if (is_kw(tok(p), KW_STATIC_ASSERT)) {
    parse_static_assert(p);
    return;
  }
  DeclSpec ds;
  CPos start = tok(p)->pos;
  bool any = parse_declspec(p, &ds, true);
  if (!any) {
    /* K&R style `main() {...}` or `x;` at file scope: implicit int */
    if (!(tok(p)->kind == CT_IDENT && tok(p)->kw == KW_NONE && !p->fn)) {
      perror_at(p, start, "expected declaration before '%s'", tok(p)->text);
      skip_to(p, ";");
      return;
    }
    pwarn_w(p, W_IMPLICIT_INT, start, "type defaults to 'int' in declaration of '%s'", tok(p)->text);
  }
  if (accept(p, ";")) return;
  for (bool first = true;; first = false) {
    const char *name = NULL;
    CPos pos = tok(p)->pos;
    Attrs a = ds.attrs;
    CType *t = parse_declarator(p, ds.type ? ds.type : ty_int, &name, &pos, &a);
    Attrs more = {0};
    parse_attributes(p, &more);
    const char *asm_label = parse_asm_label(p);
    parse_attributes(p, &more);
    attrs_merge(&a, &more);
    if (!name) {
      perror_at(p, pos, "expected identifier or '(' before '%s'", tok(p)->text);
      skip_to(p, ";");
      return;
    }
    if (ds.storage == SC_TYPEDEF) {
      declare_typedef(p, name, t, pos);
    } else if (type_unqual(t)->kind == TY_FUNC) {
      CObj *o = file_obj(p, name, t, pos, &ds, p->fn == NULL);
      if (ds.storage == SC_STATIC) o->storage = SC_STATIC;
      apply_attrs(o, &a);
      if (ds.is_noreturn) o->attr_noreturn = true;
      if (asm_label) o->asm_name = asm_label;
      add_visible(p, name, o);
      bool is_def = first && !p->fn &&
                    (is_punct(tok(p), "{") || (type_unqual(t)->old_style && type_unqual(t)->params && is_typename(p, tok(p))));
      if (ds.is_inline) {
        o->is_inline = true;
        bool gnu = a.gnu_inline;
        if (ds.storage == SC_EXTERN && gnu && is_def) {
          /* gnu_inline extern inline: an inline-only body; calls go to the real symbol */
          CObj shadow = *o;
          function_definition(p, &shadow, t, pos);
          return;
        }
        if (ds.storage == SC_NONE && !gnu && o->storage != SC_EXTERN) o->storage = SC_STATIC;
      }
      if (is_def) {
        function_definition(p, o, t, pos);
        return;
      }
    } else if (p->fn) {
      declare_local(p, &ds, name, t, pos, &a, asm_label, out);
    } else {
      declare_global(p, &ds, name, t, pos, &a, asm_label);
    }
    if (!accept(p, ",")) break;
  }
  expect(p, ";");
}
