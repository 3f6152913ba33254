/* frontends/c/declare.c — what a declaration declares: typedef names, file
 * scope objects and functions merged across redeclarations (linkage, C99 and
 * GNU inline rules, tentative definitions), block scope locals, statics and
 * externs, and function definitions (incl. K&R parameter declarations). */
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "vector.h"

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

/* a prototype after a K&R definition must have the types the definition
 * receives, the promoted ones (C11 6.7.6.3p15): `void g(c) char c; {}` then
 * `void g(char);` conflict, as in gcc and clang */
static bool prototype_fits_definition(CObj *o, CType *t) {
  CType *d = type_unqual(o->type), *pt = type_unqual(t);
  if (!o->body || d->kind != TY_FUNC || !d->old_style || !d->params || pt->kind != TY_FUNC || pt->old_style) return true;
  CParam *a = d->params, *b = pt->params;
  for (; a && b; a = a->next, b = b->next)
    if (!type_compatible(type_unqual(a->type), type_unqual(b->type))) return false;
  return !a && !b && !pt->variadic;
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
    } else if (!type_compatible(o->type, t) || !prototype_fits_definition(o, t)) {
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

/* A parameter's local: the prototype scope's object itself when it has one,
 * so the variable lengths of later parameters' declarators refer to it. */
static CObj *param_local(Parser *p, CParam *q) {
  CObj *o = q->obj;
  if (!o || o->type != q->type) return new_local(p, q->name, q->type, q->pos);
  o->storage = SC_AUTO;
  o->is_definition = true;
  CObjList *l = c_alloc(sizeof *l);
  l->obj = o;
  *p->locals_tail = l;
  p->locals_tail = &l->next;
  return o;
}

/* C11 6.9.1p10: on entry the size expressions of each variably modified
 * parameter are evaluated, in order, the decayed outermost one too (its side
 * effects happen: `int b[n++]`). Each goes into a hidden local, as a block's
 * VLA length does, and the array types inside the parameter's type read it. */
static void param_vla_lengths(Parser *p, CParam *q, CStmtList ***tail) {
  CType *inner = type_unqual(q->type);
  if (inner->kind == TY_PTR) inner = type_unqual(inner->base);
  for (CExprList *l = q->vla_lens; l; l = l->next) {
    CExpr *len = l->expr;
    static int nparam_vla;
    char name[40];
    snprintf(name, sizeof name, "__vla_param_len.%d", nparam_vla++);
    CObj *hidden = new_local(p, c_strdup(name), ty_long, len->pos);
    CStmt *d = new_stmt(ST_DECL, len->pos);
    d->obj = hidden;
    append_stmt(tail, d);
    CExpr *var = new_expr(EX_VAR, ty_long, len->pos);
    var->obj = hidden;
    var->is_lvalue = true;
    CExpr *asg = new_expr(EX_ASSIGN, ty_long, len->pos);
    asg->lhs = var;
    asg->rhs = convert(p, rvalue(p, len), ty_long);
    CStmt *st = new_stmt(ST_EXPR, len->pos);
    st->expr = asg;
    append_stmt(tail, st);
    /* the array level of the parameter's type that this length sizes */
    for (CType *a = inner; a && a->kind == TY_ARRAY; a = type_unqual(a->base))
      if (a->vla_len == len) {
        CExpr *use = new_expr(EX_VAR, ty_long, len->pos);
        use->obj = hidden;
        use->is_lvalue = true;
        a->vla_len = use;
        break;
      }
  }
}

/* A K&R definition's parameter types: the declaration list's, each received
 * as what the caller passes (C11 6.5.2.2p6, 6.9.1p10). With a prototype in scope
 * the caller converts to the prototype's types, so the function keeps the
 * prototype's type (and ABI, as gcc and clang do); without one it receives the
 * default argument promotions (float as double, char and short as int). A
 * parameter whose declared type differs from what it receives becomes a local
 * of the declared type, set from the received value: its entry in *declared. */
static CType *kr_definition_type(Parser *p, CType *ft, CType *proto, CPos pos, CType ***declared) {
  CType *copy = c_alloc(sizeof *copy);
  *copy = *ft;
  CParam head = {0}, *tail = &head;
  int n = 0;
  for (CParam *q = ft->params; q; q = q->next, n++) {
    CParam *c = c_alloc(sizeof *c);
    *c = *q;
    c->next = NULL;
    tail = tail->next = c;
  }
  copy->params = head.next;
  parse_kr_params(p, copy);
  *declared = c_alloc(sizeof(CType *) * (size_t)n);
  CParam *pp = proto ? proto->params : NULL;
  int i = 0;
  for (CParam *q = copy->params; q; q = q->next, i++) {
    CType *u = type_unqual(q->type), *received = u->kind == TY_FLOAT ? ty_double : type_promote(u);
    if (proto) {
      if (!pp) break;
      if (!type_compatible(type_unqual(pp->type), type_unqual(received)) &&
          !type_compatible(type_unqual(pp->type), u))
        perror_at(p, q->pos, "parameter '%s' of the definition is incompatible with the prototype", q->name);
      received = pp->type;
      pp = pp->next;
    }
    if (!type_compatible(type_unqual(received), u)) {
      (*declared)[i] = q->type;
      q->type = received;
    }
  }
  if (proto && (pp || i < n)) perror_at(p, pos, "number of parameters doesn't match the prototype");
  if (!proto) return copy;
  copy->old_style = false;
  copy->variadic = proto->variadic;
  return copy;
}

static void function_definition(Parser *p, CObj *o, CType *t, CPos pos) {
  CType *ft = type_unqual(t);
  CType **declared = NULL; /* K&R: the declared type of each parameter, when not what it receives */
  if (ft->old_style && ft->params) {
    CType *prior = type_unqual(o->type);
    CType *proto = prior->kind == TY_FUNC && !prior->old_style && prior->params ? prior : NULL;
    t = ft = kr_definition_type(p, ft, proto, pos, &declared);
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
    CObj *po = param_local(p, q);
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
  for (CParam *q = ft->params; q; q = q->next) param_vla_lengths(p, q, &ntail);
  o->body = parse_compound(p);
  lint_function_end(p);
  if (narrowed) {
    *ntail = o->body->stmts;
    o->body->stmts = narrowed;
  }
  scope_pop(p);
  p->fn = saved_fn;
}

/* gnu_inline extern inline (glibc's __extern_inline, __fortify_function): the
 * body only says what a call may do instead of calling the external symbol.
 * An always_inline body becomes an internal copy, "NAME.gnu_inline", that the
 * direct calls use and LLVM inlines (so that __builtin_object_size sees the
 * caller's object: _FORTIFY_SOURCE); the address of the function is still the
 * external symbol's. A body that forwards its variadic arguments with
 * __builtin_va_arg_pack, which LLVM could not expand, is expanded by the
 * parser at each direct call when it is `{ return EXPR; }` (glibc's printf
 * wrappers). Other bodies are dropped: calls go to the external symbol. */
static void gnu_inline_definition(Parser *p, CObj *o, CType *t, CPos pos) {
  CObj *body = c_alloc(sizeof *body);
  *body = *o;
  body->body = NULL;
  body->is_gnu_inline_body = true;
  int errors = p->diag->errors;
  size_t start = p->pos;
  function_definition(p, body, t, pos);
  if (!o->attr_always_inline || p->diag->errors != errors) return;
  if (body->uses_va_arg_pack) {
    /* `{ return EXPR; }`: direct calls expand EXPR (expand_va_arg_pack_call) */
    CStmtList *s = body->body->stmts;
    if (s && !s->next && s->stmt->kind == ST_RETURN && s->stmt->expr && is_punct(&p->toks[start], "{") &&
        is_kw(&p->toks[start + 1], KW_RETURN)) {
      body->forward_tok = start + 2;
      o->gnu_inline_forward = body;
    }
    return;
  }
  const char *name = o->asm_name ? o->asm_name : o->name;
  char *copy = c_alloc(strlen(name) + sizeof ".gnu_inline");
  strcpy(copy, name);
  strcat(copy, ".gnu_inline");
  body->asm_name = copy;
  body->storage = SC_STATIC;
  body->attr_weak = false;
  body->alias_target = NULL;
  body->visibility = VIS_DEFAULT;
  o->gnu_inline_body = body;
  add_unit_obj(p, body);
}

static void declare_typedef(Parser *p, const char *name, CType *t, CPos pos, const Attrs *a) {
  Sym *y = scope_find_here(p, name);
  if (y && (y->kind != SYM_TYPEDEF || !type_compatible(y->type, t))) {
    perror_at(p, pos, "conflicting types for '%s'", name);
    return;
  }
  y = scope_add(p, name, SYM_TYPEDEF);
  y->type = a->aligned && a->aligned != type_unqual(t)->align ? type_aligned_typedef(t, name, a->aligned)
                                                                : type_typedef(t, name);
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
  if (asm_label && ds->storage == SC_REGISTER) o->asm_name = asm_label; /* register T x asm("reg"): asm.c */
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
  size_t first = p->pos;
  bool any = parse_declspec(p, &ds, true);
  if (!any && p->pos > first && accept(p, ";")) return; /* an attribute declaration: [[...]]; */
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
    if (a.vector_size) t = vector_apply_size(p, t, a.vector_size, pos);
    if (ds.storage == SC_TYPEDEF && a.aligned) t = vector_realign(t, a.aligned); /* __m128i_u: aligned(1) */
    if (!name) {
      perror_at(p, pos, "expected identifier or '(' before '%s'", tok(p)->text);
      skip_to(p, ";");
      return;
    }
    if (ds.storage == SC_TYPEDEF) {
      declare_typedef(p, name, t, pos, &a);
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
        bool gnu = a.gnu_inline || p->opt->gnu89_inline;
        if (ds.storage == SC_EXTERN && gnu && is_def) {
          gnu_inline_definition(p, o, t, pos);
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
