/* frontends/c/builtin_fortify.c — the builtins of glibc's _FORTIFY_SOURCE:
 * __builtin_object_size and __builtin_dynamic_object_size (LLVM's
 * llvm.objectsize, so they see the caller's object once a fortify wrapper is
 * inlined), the __builtin___X_chk family, and __builtin_va_arg_pack(_len). */
#include <string.h>

#include "parse.h"

/* How a __builtin___X_chk call may become a call of plain X, as gcc folds it:
 * with the object size unknown (-1), or, when X is bounded by a length
 * argument, with that length known to fit. Anything else calls __X_chk, which
 * checks at run time (glibc aborts with "*** buffer overflow detected ***");
 * LLVM folds what becomes known after inlining the same way. */
typedef struct {
  const char *name;       /* X */
  const char *chk, *plain; /* libc_sig_type signatures of __X_chk and X */
  int len;                /* the length (memcpy) or maxlen (snprintf) argument, or -1 */
  int flag;               /* the flag argument (sprintf), or -1 */
  int os;                 /* the object size argument */
} ChkFn;

static const ChkFn chk_fns[] = {
    {"memcpy", "p:p,k,L,L", "p:p,k,L", 2, -1, 3},
    {"mempcpy", "p:p,k,L,L", "p:p,k,L", 2, -1, 3},
    {"memmove", "p:p,k,L,L", "p:p,k,L", 2, -1, 3},
    {"memset", "p:p,i,L,L", "p:p,i,L", 2, -1, 3},
    {"strncpy", "p:p,c,L,L", "p:p,c,L", 2, -1, 3},
    {"stpncpy", "p:p,c,L,L", "p:p,c,L", 2, -1, 3},
    {"strcpy", "p:p,c,L", "p:p,c", -1, -1, 2},
    {"stpcpy", "p:p,c,L", "p:p,c", -1, -1, 2},
    {"strcat", "p:p,c,L", "p:p,c", -1, -1, 2},
    {"strncat", "p:p,c,L,L", "p:p,c,L", -1, -1, 3}, /* appends after what is there */
    {"sprintf", "i:p,i,L,c.", "i:p,c.", -1, 1, 2},
    {"snprintf", "i:p,L,i,L,c.", "i:p,L,c.", 1, 2, 3},
    {"vsprintf", "i:p,i,L,c,p", "i:p,c,p", -1, 1, 2},
    {"vsnprintf", "i:p,L,i,L,c,p", "i:p,L,c,p", 1, 2, 3},
};

/* the file-scope function `name`: its declaration when the unit has one
 * (glibc declares most __X_chk), else one of signature sig */
static CExpr *libc_callee(Parser *p, const char *name, const char *sig, CPos pos) {
  PScope *saved = p->scope;
  p->scope = p->file_scope;
  Sym *y = scope_find_here(p, name);
  CObj *o = y && y->kind == SYM_OBJ && y->obj->is_function ? y->obj : NULL;
  if (!o) {
    o = c_alloc(sizeof *o);
    *o = (CObj){.name = name, .type = libc_sig_type(sig), .pos = pos, .is_function = true, .storage = SC_EXTERN};
    scope_add(p, name, SYM_OBJ)->obj = o;
    add_unit_obj(p, o);
  }
  p->scope = saved;
  CExpr *fn = new_expr(EX_VAR, o->type, pos);
  fn->obj = o;
  return fn;
}

static CExpr *nth_arg(CExprList *a, int i) {
  for (; a && i > 0; i--) a = a->next;
  return a ? a->expr : NULL;
}

static bool const_is(CExpr *e, int64_t want) {
  int64_t v;
  return e && c_eval_int(e, &v) && v == want;
}

/* does the call fit without a check? (the object size is argument f->os) */
static bool chk_foldable(const ChkFn *f, CExprList *args) {
  int64_t size, len;
  if (!c_eval_int(nth_arg(args, f->os), &size)) return false;
  if (f->flag >= 0 && !const_is(nth_arg(args, f->flag), 0)) return false; /* flag > 0: checks %n */
  if (size == -1) return true;
  return f->len >= 0 && c_eval_int(nth_arg(args, f->len), &len) &&
         (uint64_t)len <= (uint64_t)size;
}

/* args without the ones plain X does not take: the object size (and the flag) */
static CExprList *plain_args(const ChkFn *f, CExprList *args) {
  CExprList head = {0}, *tail = &head;
  int i = 0;
  for (CExprList *a = args; a; a = a->next, i++) {
    if (i == f->os || i == f->flag) continue;
    CExprList *n = c_alloc(sizeof *n);
    n->expr = a->expr;
    tail = tail->next = n;
  }
  return head.next;
}

static CExpr *chk_call(Parser *p, const ChkFn *f, CPos pos) {
  expect(p, "(");
  CExprList *args = parse_call_args(p);
  int n = 0;
  for (CExprList *a = args; a; a = a->next) n++;
  if (n < f->os + 1) {
    perror_at(p, pos, "too few arguments to '__builtin___%s_chk'", f->name);
    return new_int(0, ty_int, pos);
  }
  if (chk_foldable(f, args)) return finish_call(p, libc_callee(p, f->name, f->plain, pos), plain_args(f, args), pos);
  char *chk = c_alloc(strlen(f->name) + 7);
  strcpy(chk, "__");
  strcat(strcat(chk, f->name), "_chk");
  return finish_call(p, libc_callee(p, chk, f->chk, pos), args, pos);
}

static bool has_side_effects(CExpr *e) {
  if (!e) return false;
  switch (e->kind) {
  case EX_PREINC: case EX_PREDEC: case EX_POSTINC: case EX_POSTDEC: case EX_ASSIGN: case EX_OPASSIGN:
  case EX_CALL: case EX_STMT_EXPR: case EX_VA_ARG: case EX_BUILTIN: case EX_COMPOUND_LIT:
    return true;
  default:
    break;
  }
  if (e->is_lvalue && (e->type->quals & Q_VOLATILE)) return true;
  if (has_side_effects(e->lhs) || has_side_effects(e->rhs) || has_side_effects(e->cond)) return true;
  for (CExprList *a = e->args; a; a = a->next)
    if (has_side_effects(a->expr)) return true;
  return false;
}

/* __builtin_object_size (p, type), __builtin_dynamic_object_size (p, type).
 * As in gcc, p is not evaluated: with side effects the answer is "unknown"
 * (glibc's sprintf macro names its argument twice, once in here). */
static CExpr *object_size(Parser *p, bool dynamic, CPos pos) {
  expect(p, "(");
  CExpr *ptr = rvalue(p, parse_assign(p));
  expect(p, ",");
  int64_t type = parse_const_int(p);
  expect(p, ")");
  if (type < 0 || type > 3) {
    perror_at(p, pos, "the second argument of '__builtin_object_size' must be 0, 1, 2 or 3");
    type = 0;
  }
  if (type_unqual(ptr->type)->kind != TY_PTR) {
    perror_at(p, pos, "the first argument of '__builtin_object_size' must be a pointer");
    return new_int(0, ty_ulong, pos);
  }
  if (has_side_effects(ptr)) return new_int(type & 2 ? 0 : -1, ty_ulong, pos);
  CExpr *e = new_expr(EX_BUILTIN, ty_ulong, pos);
  e->builtin = BI_OBJECT_SIZE;
  e->ival = type + (dynamic ? 4 : 0);
  e->args = c_alloc(sizeof(CExprList));
  e->args->expr = ptr;
  return e;
}

/* __builtin_va_arg_pack () and __builtin_va_arg_pack_len (): the variadic
 * arguments (their number) of a call of a gnu_inline function, in the
 * function's body. Such a body is parsed once as the definition (then they
 * only mark it), and again at each direct call that expands it
 * (expand_va_arg_pack_call); anywhere else they are an error, as in gcc. */
static CExpr *va_arg_pack(Parser *p, const char *name, CPos pos) {
  expect(p, "(");
  expect(p, ")");
  bool len = !strcmp(name, "__builtin_va_arg_pack_len");
  if (p->va_pack_marker) {
    int n = 0;
    for (CExprList *a = p->va_pack_args; a; a = a->next) n++;
    return len ? new_int(n, ty_int, pos) : p->va_pack_marker;
  }
  if (p->fn && p->fn->is_gnu_inline_body) p->fn->uses_va_arg_pack = true;
  else perror_at(p, pos, "invalid use of '%s ()' outside a gnu_inline extern inline function", name);
  return new_int(0, ty_int, pos);
}

/* glibc's wrappers that forward their variadic arguments (printf, sprintf,
 * snprintf ... at _FORTIFY_SOURCE with __GNUC__ >= 4.3) are `return EXPR;`:
 * the call becomes ({ T1 param1 = arg1; ...; EXPR; }), EXPR parsed again from
 * its tokens with the parameters bound to these locals and
 * __builtin_va_arg_pack () to the call's variadic arguments. The locals keep
 * each argument evaluated once; LLVM sees through them, so the
 * __builtin_object_size in EXPR measures the caller's object. */
CExpr *expand_va_arg_pack_call(Parser *p, CObj *f, CExpr *call) {
  CObj *body = f->gnu_inline_forward;
  if (!p->fn || p->va_pack_depth >= 8) return call;
  CStmt *blk = new_stmt(ST_BLOCK, call->pos);
  CStmtList **tail = &blk->stmts;
  CObjList **ltail = &blk->locals;
  scope_push(p);
  CExprList *a = call->args;
  for (CObjList *q = body->params; q && a; q = q->next, a = a->next) {
    CObj *lo = new_local(p, q->obj->name, q->obj->type, call->pos);
    lo->init = c_alloc(sizeof(CInit));
    lo->init->type = lo->type;
    lo->init->nitems = 1;
    lo->init->items = c_alloc(sizeof(CInitItem));
    lo->init->items[0] = (CInitItem){0, lo->type, NULL, convert(p, a->expr, lo->type)};
    if (lo->name) scope_add(p, lo->name, SYM_OBJ)->obj = lo;
    CStmt *d = new_stmt(ST_DECL, call->pos);
    d->obj = lo;
    *tail = c_alloc(sizeof(CStmtList));
    (*tail)->stmt = d;
    tail = &(*tail)->next;
    *ltail = c_alloc(sizeof(CObjList));
    (*ltail)->obj = lo;
    ltail = &(*ltail)->next;
  }
  size_t saved_pos = p->pos;
  CExprList *saved_args = p->va_pack_args;
  CExpr *saved_marker = p->va_pack_marker;
  p->pos = body->forward_tok;
  p->va_pack_args = a;
  p->va_pack_marker = new_int(0, ty_int, call->pos);
  p->va_pack_depth++;
  CExpr *v = rvalue(p, parse_expr(p));
  p->va_pack_depth--;
  p->va_pack_marker = saved_marker;
  p->va_pack_args = saved_args;
  p->pos = saved_pos;
  scope_pop(p);
  CStmt *s = new_stmt(ST_EXPR, call->pos);
  s->expr = type_unqual(call->type)->kind == TY_VOID ? v : convert(p, v, call->type);
  *tail = c_alloc(sizeof(CStmtList));
  (*tail)->stmt = s;
  CExpr *e = new_expr(EX_STMT_EXPR, s->expr->type, call->pos);
  e->body = blk;
  return e;
}

CExpr *parse_fortify_builtin(Parser *p, const char *name, CPos pos) {
  if (!strcmp(name, "__builtin_object_size")) return object_size(p, false, pos);
  if (!strcmp(name, "__builtin_dynamic_object_size")) return object_size(p, true, pos);
  if (!strcmp(name, "__builtin_va_arg_pack") || !strcmp(name, "__builtin_va_arg_pack_len"))
    return va_arg_pack(p, name, pos);
  size_t n = strlen(name);
  if (strncmp(name, "__builtin___", 12) || n < 17 || strcmp(name + n - 4, "_chk")) return NULL;
  for (size_t i = 0; i < sizeof chk_fns / sizeof *chk_fns; i++)
    if (strlen(chk_fns[i].name) == n - 16 && !strncmp(name + 12, chk_fns[i].name, n - 16))
      return chk_call(p, &chk_fns[i], pos);
  return NULL;
}
