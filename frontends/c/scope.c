/* frontends/c/scope.c — C's name spaces while parsing: ordinary identifiers
 * (objects, functions, typedef names, enumeration constants) and tags, in
 * nested block scopes. The file scope is hashed; block scopes are short lists. */
#include <string.h>

#include "parse.h"

typedef struct Hash {
  uint32_t cap, n;
  Sym **slots;
} Hash;

static uint32_t hash_str(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static void hash_put(Hash *h, Sym *s);

static void hash_grow(Hash *h) {
  uint32_t oc = h->cap;
  Sym **old = h->slots;
  h->cap = oc ? oc * 2 : 1024;
  h->slots = c_alloc(sizeof(Sym *) * h->cap);
  h->n = 0;
  for (uint32_t i = 0; i < oc; i++)
    if (old[i]) hash_put(h, old[i]);
}

/* a later symbol with the same name replaces the earlier one */
static void hash_put(Hash *h, Sym *s) {
  if ((h->n + 1) * 2 > h->cap) hash_grow(h);
  uint32_t m = h->cap - 1, i = hash_str(s->name) & m;
  while (h->slots[i] && strcmp(h->slots[i]->name, s->name) != 0) i = (i + 1) & m;
  if (!h->slots[i]) h->n++;
  h->slots[i] = s;
}

static Sym *hash_get(Hash *h, const char *name) {
  if (!h->cap) return NULL;
  uint32_t m = h->cap - 1, i = hash_str(name) & m;
  while (h->slots[i]) {
    if (strcmp(h->slots[i]->name, name) == 0) return h->slots[i];
    i = (i + 1) & m;
  }
  return NULL;
}

void scope_push(Parser *p) {
  PScope *s = c_alloc(sizeof *s);
  s->up = p->scope;
  if (!p->scope) s->index = c_alloc(sizeof(Hash));
  p->scope = s;
}

void scope_pop(Parser *p) {
  if (p->scope && p->scope->up) {
    if (!p->param_depth) lint_scope_end(p, p->scope);
    p->scope = p->scope->up;
  }
}

static Sym *find_in(PScope *s, const char *name) {
  if (s->index) return hash_get(s->index, name);
  for (Sym *y = s->syms; y; y = y->next)
    if (strcmp(y->name, name) == 0) return y;
  return NULL;
}

Sym *scope_find(Parser *p, const char *name) {
  for (PScope *s = p->scope; s; s = s->up) {
    Sym *y = find_in(s, name);
    if (y) return y;
  }
  return NULL;
}

Sym *scope_find_here(Parser *p, const char *name) { return find_in(p->scope, name); }

Sym *scope_add(Parser *p, const char *name, SymKind kind) {
  Sym *y = c_alloc(sizeof *y);
  y->name = name;
  y->kind = kind;
  y->next = p->scope->syms;
  p->scope->syms = y;
  if (p->scope->index) hash_put(p->scope->index, y);
  return y;
}

Tag *tag_find(Parser *p, const char *name, bool here_only) {
  for (PScope *s = p->scope; s; s = s->up) {
    for (Tag *t = s->tags; t; t = t->next)
      if (strcmp(t->name, name) == 0) return t;
    if (here_only) break;
  }
  return NULL;
}

Tag *tag_add(Parser *p, const char *name, CType *t) {
  Tag *g = c_alloc(sizeof *g);
  g->name = name;
  g->type = t;
  g->next = p->scope->tags;
  p->scope->tags = g;
  return g;
}

bool is_typename(Parser *p, PTok *t) {
  if (is_punct(t, "[") && is_punct(t + 1, "[")) {
    /* [[...]] then a declaration; else attributes of a statement */
    size_t after = skip_std_attrs(p, (size_t)(t - p->toks));
    return after > (size_t)(t - p->toks) && is_typename(p, &p->toks[after]);
  }
  if (t->kind != CT_IDENT) return false;
  switch (t->kw) {
  case KW_VOID: case KW_CHAR: case KW_SHORT: case KW_INT: case KW_LONG: case KW_FLOAT: case KW_DOUBLE:
  case KW_SIGNED: case KW_UNSIGNED: case KW_BOOL: case KW_COMPLEX: case KW_STRUCT: case KW_UNION:
  case KW_ENUM: case KW_CONST: case KW_VOLATILE: case KW_RESTRICT: case KW_ATOMIC: case KW_TYPEDEF:
  case KW_EXTERN: case KW_STATIC: case KW_AUTO: case KW_REGISTER: case KW_INLINE: case KW_NORETURN:
  case KW_ALIGNAS: case KW_THREAD_LOCAL: case KW_ATTRIBUTE: case KW_TYPEOF: case KW_TYPEOF_UNQUAL:
  case KW_INT128: case KW_BUILTIN_VA_LIST: case KW_AUTO_TYPE: case KW_FLOAT128:
  case KW_FLOATN:
    return true;
  case KW_EXTENSION:
    /* `(__extension__ ({...}))` is an expression, `__extension__ long long` a type:
     * decide by what follows (the token array ends with an EOF token) */
    return t->kind != CT_EOF && is_typename(p, t + 1);
  case KW_NONE: {
    Sym *y = scope_find(p, t->text);
    return y && y->kind == SYM_TYPEDEF;
  }
  default:
    return false;
  }
}
