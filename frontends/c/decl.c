/* frontends/c/decl.c — declarations: specifiers (with GNU attributes,
 * typeof, _Alignas, _Atomic), declarators (pointers, arrays incl. VLAs,
 * functions incl. K&R lists), struct/union/enum definitions, typedefs, and
 * object/function declarations and definitions with their linkage rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "vector.h"

/* ---- attributes ---------------------------------------------------------------- */

static const char *attr_name(const char *s, char *buf, size_t size) {
  size_t n = strlen(s);
  if (n > 4 && s[0] == '_' && s[1] == '_' && s[n - 1] == '_' && s[n - 2] == '_') {
    snprintf(buf, size, "%.*s", (int)(n - 4), s + 2);
    return buf;
  }
  return s;
}

static const char *string_arg(Parser *p) {
  PTok *t = tok(p);
  if (t->kind != CT_STRING) {
    perror_at(p, t->pos, "expected a string literal");
    return NULL;
  }
  next(p);
  /* strip the quotes; attribute strings carry no escapes worth decoding */
  size_t n = strlen(t->text);
  return n >= 2 ? c_strndup(t->text + 1, n - 2) : "";
}

static void skip_balanced(Parser *p) {
  int depth = 1;
  while (!at_eof(p) && depth) {
    if (is_punct(tok(p), "(")) depth++;
    if (is_punct(tok(p), ")") && --depth == 0) break;
    next(p);
  }
}

static void parse_one_attr(Parser *p, Attrs *a) {
  PTok *t = tok(p);
  if (t->kind != CT_IDENT) {
    perror_at(p, t->pos, "expected an attribute name before '%s'", t->text);
    skip_balanced(p);
    return;
  }
  next(p);
  char buf[64];
  const char *n = attr_name(t->text, buf, sizeof buf);
  bool args = accept(p, "(");
  if (!strcmp(n, "aligned")) {
    a->aligned = args && !is_punct(tok(p), ")") ? (int)parse_const_int(p) : 16;
  } else if (!strcmp(n, "packed")) {
    a->packed = true;
  } else if (!strcmp(n, "weak")) {
    a->weak = true;
  } else if (!strcmp(n, "used")) {
    a->used = true;
  } else if (!strcmp(n, "unused")) {
    a->is_unused = true;
  } else if (!strcmp(n, "noinline")) {
    a->noinline = true;
  } else if (!strcmp(n, "always_inline")) {
    a->always_inline = true;
  } else if (!strcmp(n, "noreturn")) {
    a->noreturn = true;
  } else if (!strcmp(n, "cold")) {
    a->cold = true;
  } else if (!strcmp(n, "returns_twice")) {
    a->returns_twice = true;
  } else if (!strcmp(n, "no_instrument_function")) {
    a->no_instrument_function = true;
  } else if (!strcmp(n, "no_sanitize_address") || !strcmp(n, "no_address_safety_analysis")) {
    a->no_sanitize_address = true;
  } else if (!strcmp(n, "no_sanitize") && args) {
    while (tok(p)->kind == CT_STRING) {
      const char *s = string_arg(p);
      if (s && strstr(s, "address")) a->no_sanitize_address = true;
      if (!accept(p, ",")) break;
    }
  } else if (!strcmp(n, "visibility") && args) {
    const char *s = string_arg(p);
    a->has_visibility = true;
    /* "internal" is "hidden" plus a promise ELF cannot express: hidden, as in clang */
    a->visibility = s && (!strcmp(s, "hidden") || !strcmp(s, "internal")) ? VIS_HIDDEN
                    : s && !strcmp(s, "protected")                         ? VIS_PROTECTED
                                                                           : VIS_DEFAULT;
  } else if (!strcmp(n, "section") && args) {
    a->section = string_arg(p);
  } else if (!strcmp(n, "alias") && args) {
    a->alias = string_arg(p);
  } else if (!strcmp(n, "cleanup") && args) {
    a->cleanup = ident(p);
  } else if (!strcmp(n, "constructor") || !strcmp(n, "destructor")) {
    int prio = args && !is_punct(tok(p), ")") ? (int)parse_const_int(p) : 65535;
    if (n[0] == 'c')
      a->constructor = prio;
    else
      a->destructor = prio;
  } else if (!strcmp(n, "mode") && args) {
    const char *m = ident(p);
    char mb[32];
    m = m ? attr_name(m, mb, sizeof mb) : "";
    a->mode_bytes = !strcmp(m, "QI") ? 1 : !strcmp(m, "HI") ? 2 : !strcmp(m, "SI") ? 4
                    : (!strcmp(m, "DI") || !strcmp(m, "word") || !strcmp(m, "pointer")) ? 8
                    : !strcmp(m, "TI") ? 16 : 0;
  } else if (!strcmp(n, "vector_size") && args) {
    int64_t n = parse_const_int(p);
    a->vector_size = n > 0 && n <= INT32_MAX ? (int)n : -1; /* -1: a size no vector has (an error where applied) */
  } else if (!strcmp(n, "transparent_union")) {
    a->transparent_union = true;
  } else if (!strcmp(n, "deprecated")) {
    a->deprecated = true;
  } else if (!strcmp(n, "gnu_inline")) {
    a->gnu_inline = true;
  } else if (!strcmp(n, "nonnull")) {
    if (!a->nonnull_args && !a->nonnull_all) a->nonnull_pos = t->pos;
    if (!args || is_punct(tok(p), ")")) a->nonnull_all = true;
    while (args && !is_punct(tok(p), ")") && !at_eof(p)) {
      int64_t k = parse_const_int(p);
      if (k >= 1 && k <= 64) a->nonnull_args |= 1ull << (k - 1);
      if (!accept(p, ",")) break;
    }
  } else if (!strcmp(n, "returns_nonnull")) {
    a->returns_nonnull = true;
    a->returns_nonnull_pos = t->pos;
  }
  /* everything else (format, malloc, pure, const, nothrow, leaf, ...) is accepted and ignored */
  if (args) {
    skip_balanced(p);
    expect(p, ")");
  }
}

/* C23 attribute specifiers, [[...]] (C23 6.7.13): a '[' '[' pair always opens
 * one, in every C mode (as in gcc). */
bool at_std_attr(Parser *p) { return is_punct(tok(p), "[") && is_punct(peek(p, 1), "["); }

/* the token after the attribute specifiers starting at token i (i if none) */
size_t skip_std_attrs(Parser *p, size_t i) {
  while (i + 1 < p->ntoks && is_punct(&p->toks[i], "[") && is_punct(&p->toks[i + 1], "[")) {
    int depth = 0;
    do {
      PTok *t = &p->toks[i];
      if (is_punct(t, "[") || is_punct(t, "(")) depth++;
      else if (is_punct(t, "]") || is_punct(t, ")")) depth--;
      i++;
    } while (depth > 0 && i < p->ntoks && p->toks[i].kind != CT_EOF);
  }
  return i;
}

/* one attribute of a [[...]] list: gnu::x and __gnu__::x are GNU attribute x;
 * the standard ones are their GNU equivalents (deprecated, maybe_unused =
 * unused, noreturn = _Noreturn = noreturn, nodiscard = warn_unused_result,
 * which kitcc does not diagnose); fallthrough, unsequenced and reproducible
 * change no code; anything else is ignored with a warning, as in gcc. */
static void parse_std_attr(Parser *p, Attrs *a) {
  PTok *t = tok(p);
  if (t->kind != CT_IDENT) {
    perror_at(p, t->pos, "expected an attribute name before '%s'", t->text);
    next(p);
    return;
  }
  const char *ns = NULL;
  if (is_punct(peek(p, 1), ":") && is_punct(peek(p, 2), ":")) {
    ns = t->text;
    next(p);
    next(p);
    next(p);
    t = tok(p);
    if (!strcmp(ns, "gnu") || !strcmp(ns, "__gnu__")) {
      parse_one_attr(p, a);
      return;
    }
    if (t->kind != CT_IDENT) {
      perror_at(p, t->pos, "expected an attribute name after '%s::'", ns);
      return;
    }
  }
  next(p);
  char buf[64];
  const char *n = attr_name(t->text, buf, sizeof buf);
  if (ns) pwarn_at(p, t->pos, "'%s::%s' scoped attribute directive ignored", ns, n);
  else if (!strcmp(n, "deprecated")) a->deprecated = true;
  else if (!strcmp(n, "maybe_unused")) a->is_unused = true;
  else if (!strcmp(n, "noreturn") || !strcmp(n, "_Noreturn")) a->noreturn = true;
  else if (strcmp(n, "nodiscard") && strcmp(n, "fallthrough") && strcmp(n, "unsequenced") && strcmp(n, "reproducible"))
    pwarn_at(p, t->pos, "'%s' attribute directive ignored", n);
  if (accept(p, "(")) {
    skip_balanced(p);
    expect(p, ")");
  }
}

void parse_attributes(Parser *p, Attrs *a) {
  for (;;) {
    if (at_std_attr(p)) {
      next(p);
      next(p);
      while (!at_eof(p) && !is_punct(tok(p), "]")) {
        if (accept(p, ",")) continue;
        parse_std_attr(p, a);
      }
      expect(p, "]");
      expect(p, "]");
      continue;
    }
    if (accept_kw(p, KW_ATTRIBUTE)) {
      expect(p, "(");
      expect(p, "(");
      while (!at_eof(p) && !is_punct(tok(p), ")")) {
        if (accept(p, ",")) continue;
        parse_one_attr(p, a);
      }
      expect(p, ")");
      expect(p, ")");
      continue;
    }
    /* GNU __declspec is Windows-only */
    break;
  }
}

const char *parse_asm_label(Parser *p) {
  if (!accept_kw(p, KW_ASM)) return NULL;
  expect(p, "(");
  const char *s = NULL;
  /* adjacent strings were not joined by the preprocessor */
  char buf[512];
  size_t n = 0;
  while (tok(p)->kind == CT_STRING) {
    PTok *t = next(p);
    size_t l = strlen(t->text);
    if (l >= 2 && n + l < sizeof buf) {
      memcpy(buf + n, t->text + 1, l - 2);
      n += l - 2;
    }
  }
  buf[n] = 0;
  s = c_strdup(buf);
  expect(p, ")");
  return s;
}

void apply_attrs(CObj *o, const Attrs *a) {
  if (a->aligned > o->align) o->align = a->aligned;
  o->attr_weak |= a->weak;
  o->attr_used |= a->used;
  o->attr_unused |= a->is_unused;
  o->attr_noinline |= a->noinline;
  o->attr_always_inline |= a->always_inline;
  o->attr_noreturn |= a->noreturn;
  o->attr_cold |= a->cold;
  o->attr_returns_twice |= a->returns_twice;
  o->attr_no_sanitize_address |= a->no_sanitize_address;
  o->attr_no_instrument_function |= a->no_instrument_function;
  if (a->has_visibility) o->visibility = a->visibility;
  if (a->section) o->section = a->section;
  if (a->alias) o->alias_target = a->alias;
  if (a->constructor) o->constructor_prio = a->constructor;
  if (a->destructor) o->destructor_prio = a->destructor;
  if ((a->nonnull_args || a->nonnull_all) && !o->attr_nonnull_args && !o->attr_nonnull_all)
    o->attr_nonnull_pos = a->nonnull_pos;
  o->attr_nonnull_args |= a->nonnull_args;
  o->attr_nonnull_all |= a->nonnull_all;
  if (a->returns_nonnull && !o->attr_returns_nonnull) o->attr_returns_nonnull_pos = a->returns_nonnull_pos;
  o->attr_returns_nonnull |= a->returns_nonnull;
}

void attrs_merge(Attrs *into, const Attrs *a) {
  if (a->aligned > into->aligned) into->aligned = a->aligned;
  into->packed |= a->packed;
  into->weak |= a->weak;
  into->used |= a->used;
  into->noinline |= a->noinline;
  into->always_inline |= a->always_inline;
  into->noreturn |= a->noreturn;
  into->cold |= a->cold;
  into->returns_twice |= a->returns_twice;
  into->no_sanitize_address |= a->no_sanitize_address;
  into->no_instrument_function |= a->no_instrument_function;
  into->transparent_union |= a->transparent_union;
  into->gnu_inline |= a->gnu_inline;
  if (a->has_visibility) {
    into->has_visibility = true;
    into->visibility = a->visibility;
  }
  if (a->section) into->section = a->section;
  if (a->alias) into->alias = a->alias;
  if (a->cleanup) into->cleanup = a->cleanup;
  if (a->constructor) into->constructor = a->constructor;
  if (a->destructor) into->destructor = a->destructor;
  if (a->mode_bytes) into->mode_bytes = a->mode_bytes;
  if (a->vector_size) into->vector_size = a->vector_size;
  if ((a->nonnull_args || a->nonnull_all) && !into->nonnull_args && !into->nonnull_all) into->nonnull_pos = a->nonnull_pos;
  into->nonnull_args |= a->nonnull_args;
  into->nonnull_all |= a->nonnull_all;
  if (a->returns_nonnull && !into->returns_nonnull) into->returns_nonnull_pos = a->returns_nonnull_pos;
  into->returns_nonnull |= a->returns_nonnull;
}

/* ---- struct, union, enum -------------------------------------------------------------- */

static CType *struct_body(Parser *p, CType *t, Attrs *outer) {
  CMember head = {0}, *tail = &head;
  while (!at_eof(p) && !is_punct(tok(p), "}")) {
    if (is_kw(tok(p), KW_STATIC_ASSERT)) {
      parse_static_assert(p);
      continue;
    }
    if (accept(p, ";")) continue;
    DeclSpec ds;
    CPos spos = tok(p)->pos;
    if (!parse_declspec(p, &ds, false)) {
      perror_at(p, spos, "expected a member declaration");
      skip_to(p, ";");
      continue;
    }
    /* an anonymous struct/union member */
    if (is_punct(tok(p), ";") && (type_unqual(ds.type)->kind == TY_STRUCT || type_unqual(ds.type)->kind == TY_UNION)) {
      next(p);
      if (!type_is_complete(ds.type)) {
        /* also what keeps a struct from containing itself */
        perror_at(p, spos, "anonymous member has incomplete type");
        continue;
      }
      CMember *m = c_alloc(sizeof *m);
      m->type = ds.type;
      m->bit_width = -1;
      m->pos = spos;
      m->align = ds.align;
      tail = tail->next = m;
      continue;
    }
    for (;;) {
      const char *name = NULL;
      CPos pos = tok(p)->pos;
      Attrs ma = ds.attrs;
      CType *base = ds.type ? ds.type : ty_int; /* no type specifier: int, as gcc (with a warning) */
      CType *mt = base;
      if (!is_punct(tok(p), ":")) mt = parse_declarator(p, base, &name, &pos, &ma);
      CMember *m = c_alloc(sizeof *m);
      m->name = name;
      m->pos = pos;
      m->bit_width = -1;
      if (accept(p, ":")) {
        int64_t w = parse_const_int(p);
        if (!type_is_integer(mt)) perror_at(p, pos, "bit-field '%s' has invalid type", name ? name : "<anonymous>");
        if (w < 0 || w > type_unqual(mt)->size * 8) {
          perror_at(p, pos, w < 0 ? "negative width in bit-field '%s'" : "width of '%s' exceeds its type",
                    name ? name : "<anonymous>");
          w = 1; /* reported once: not also as a zero width */
        }
        if (w == 0 && name) perror_at(p, pos, "zero width for bit-field '%s'", name);
        m->bit_width = (int)w;
      }
      parse_attributes(p, &ma);
      if (ma.vector_size) mt = vector_apply_size(p, mt, ma.vector_size, pos);
      m->type = mt;
      m->align = ma.aligned > ds.align ? ma.aligned : ds.align;
      if (ma.packed && !m->align) m->align = 1;
      if (type_unqual(mt)->kind == TY_FUNC) perror_at(p, pos, "field '%s' declared as a function", name ? name : "?");
      else if (type_is_vla(mt))
        /* gcc's variable-size members; clang refuses them the same way */
        perror_at(p, pos, "fields must have a constant size: variable length array in structure is not supported "
                          "by kitcc");
      else if (!type_is_complete(mt) && !(type_unqual(mt)->kind == TY_ARRAY && type_unqual(mt)->len < 0))
        perror_at(p, pos, "field '%s' has incomplete type", name ? name : "?");
      tail = tail->next = m;
      if (!accept(p, ",")) break;
    }
    expect(p, ";");
  }
  expect(p, "}");
  Attrs after = {0};
  parse_attributes(p, &after);
  attrs_merge(outer, &after);
  t->members = head.next;
  /* a flexible array member must be last; packed members of a packed struct keep explicit alignment */
  if (outer->aligned > t->align) t->align = outer->aligned;
  type_layout(t, outer->packed, pack_at(p, p->pos));
  return t;
}

static CType *struct_spec(Parser *p, CTypeKind kind) {
  Attrs a = {0};
  parse_attributes(p, &a);
  const char *tag = NULL;
  CPos pos = tok(p)->pos;
  if (tok(p)->kind == CT_IDENT && tok(p)->kw == KW_NONE) tag = next(p)->text;
  if (!tag && !is_punct(tok(p), "{")) {
    perror_at(p, pos, "expected '{' or a tag name");
    return ty_int;
  }
  if (!accept(p, "{")) {
    /* a reference, or a forward declaration `struct S;` in this scope */
    bool fwd = is_punct(tok(p), ";");
    Tag *g = tag_find(p, tag, fwd);
    if (g) {
      if (type_unqual(g->type)->kind != kind) perror_at(p, pos, "'%s' defined as wrong kind of tag", tag);
      return g->type;
    }
    CType *t = type_struct(kind, tag);
    tag_add(p, tag, t);
    return t;
  }
  CType *t = NULL;
  if (tag) {
    Tag *g = tag_find(p, tag, true);
    if (g && g->type->being_defined) {
      /* the fresh type below is not entered as the tag: a struct must never contain itself */
      perror_at(p, pos, "nested redefinition of '%s %s'", kind == TY_STRUCT ? "struct" : "union", tag);
      g = NULL;
      tag = NULL;
    }
    if (g && type_unqual(g->type)->kind == kind && !g->type->complete) t = g->type;
    else if (g && g->type->complete) perror_at(p, pos, "redefinition of '%s %s'", kind == TY_STRUCT ? "struct" : "union", tag);
  }
  if (!t) {
    t = type_struct(kind, tag);
    if (tag) tag_add(p, tag, t);
  }
  if (a.aligned) t->align = a.aligned;
  t->being_defined = true;
  CType *r = struct_body(p, t, &a);
  t->being_defined = false;
  return r;
}

static CType *enum_spec(Parser *p) {
  Attrs a = {0};
  parse_attributes(p, &a);
  const char *tag = NULL;
  CPos pos = tok(p)->pos;
  if (tok(p)->kind == CT_IDENT && tok(p)->kw == KW_NONE) tag = next(p)->text;
  if (!accept(p, "{")) {
    if (!tag) {
      perror_at(p, pos, "expected '{' or an enum tag");
      return ty_int;
    }
    Tag *g = tag_find(p, tag, false);
    if (g) return g->type;
    CType *t = type_enum(tag);
    tag_add(p, tag, t);
    return t;
  }
  CType *t = type_enum(tag);
  if (tag) tag_add(p, tag, t);
  int64_t v = 0, lo = 0, hi = 0;
  Sym *consts[4096];
  int nconsts = 0;
  CMember **last = &t->members;
  while (!at_eof(p) && !is_punct(tok(p), "}")) {
    CPos cpos = tok(p)->pos;
    const char *name = ident(p);
    if (!name) {
      skip_to(p, "}");
      return t;
    }
    Attrs ca = {0};
    parse_attributes(p, &ca);
    if (accept(p, "=")) v = parse_const_int(p);
    Sym *y = scope_find_here(p, name);
    if (y) perror_at(p, cpos, "redeclaration of '%s'", name);
    y = scope_add(p, name, SYM_ENUMCONST);
    y->value = v;
    y->type = v >= INT32_MIN && v <= INT32_MAX ? ty_int : v >= 0 && v <= (int64_t)UINT32_MAX ? ty_uint : ty_long;
    if (nconsts < 4096) consts[nconsts++] = y;
    CMember *mb = c_alloc(sizeof *mb);
    *mb = (CMember){.name = name, .type = ty_int, .bit_width = -1, .pos = cpos, .value = v};
    *last = mb;
    last = &mb->next;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    v++;
    if (!accept(p, ",")) break;
  }
  expect(p, "}");
  parse_attributes(p, &a);
  /* gcc: unsigned int when nothing is negative, then int, then 64 bits */
  CType *base = lo >= 0 ? (hi <= (int64_t)UINT32_MAX ? ty_uint : ty_ulong) : (lo >= INT32_MIN && hi <= INT32_MAX ? ty_int : ty_long);
  if (a.packed) base = lo >= 0 ? (hi <= 0xff ? ty_uchar : hi <= 0xffff ? ty_ushort : base) : (lo >= -128 && hi <= 127 ? ty_schar : lo >= -32768 && hi <= 32767 ? ty_short : base);
  t->base = base;
  t->size = base->size;
  t->align = base->align;
  t->is_unsigned = base->is_unsigned;
  t->complete = true;
  type_sync_wrappers(t);
  /* constants keep int when they fit (C11 6.4.4.3), else the enum's type */
  for (int i = 0; i < nconsts; i++)
    if (consts[i]->type != ty_int) consts[i]->type = base;
  return t;
}

/* ---- specifiers --------------------------------------------------------------------- */

enum {
  S_VOID = 1 << 0, S_BOOL = 1 << 2, S_CHAR = 1 << 4, S_SHORT = 1 << 6, S_INT = 1 << 8, S_LONG = 1 << 10,
  S_FLOAT = 1 << 12, S_DOUBLE = 1 << 14, S_SIGNED = 1 << 16, S_UNSIGNED = 1 << 18, S_INT128 = 1 << 20,
  S_COMPLEX = 1 << 22, S_OTHER = 1 << 24,
};

static CType *typeof_spec(Parser *p, bool unqual) {
  expect(p, "(");
  CType *t;
  if (is_typename(p, tok(p))) {
    t = parse_type_name(p);
  } else {
    p->unevaluated++;
    CExpr *e = parse_expr(p);
    p->unevaluated--;
    t = e->type;
    /* a bitfield's declared type; arrays stay arrays */
    if (e->kind == EX_MEMBER && e->member && e->member->bit_width >= 0) t = e->member->type;
  }
  expect(p, ")");
  return unqual ? type_unqual(t) : t;
}

static CType *va_list_type(void) {
  /* typedef struct __va_list_tag { unsigned gp_offset, fp_offset; void *overflow_arg_area, *reg_save_area; } __builtin_va_list[1]; */
  static CType *t;
  static unsigned gen;
  if (t && gen == c_arena_generation()) return t;
  gen = c_arena_generation();
  CType *s = type_struct(TY_STRUCT, "__va_list_tag");
  CMember *m[4];
  const char *names[4] = {"gp_offset", "fp_offset", "overflow_arg_area", "reg_save_area"};
  CType *types[4] = {ty_uint, ty_uint, type_ptr(ty_void), type_ptr(ty_void)};
  for (int i = 0; i < 4; i++) {
    m[i] = c_alloc(sizeof(CMember));
    m[i]->name = names[i];
    m[i]->type = types[i];
    m[i]->bit_width = -1;
    if (i) m[i - 1]->next = m[i];
  }
  s->members = m[0];
  type_layout(s, false, 0);
  t = type_array(s, 1);
  return t;
}

bool parse_declspec(Parser *p, DeclSpec *ds, bool allow_storage) {
  memset(ds, 0, sizeof *ds);
  ds->pos = tok(p)->pos;
  int counter = 0;
  unsigned quals = 0;
  CType *ty = NULL;
  bool any = false;
  for (;;) {
    PTok *t = tok(p);
    if (at_std_attr(p)) {
      /* before the specifiers: of the declared entities; after them: of the type */
      parse_attributes(p, &ds->attrs);
      continue;
    }
    if (t->kind != CT_IDENT) break;
    Kw kw = t->kw;
    if (kw == KW_NONE) {
      /* a typedef name, only while no other type specifier was seen */
      if (counter || ty) break;
      Sym *y = scope_find(p, t->text);
      if (!y || y->kind != SYM_TYPEDEF) break;
      /* `T x` vs `T;` ambiguity is resolved by C's rule: T is the type */
      next(p);
      ty = y->type;
      any = true;
      continue;
    }
    switch (kw) {
    case KW_TYPEDEF: case KW_EXTERN: case KW_STATIC: case KW_AUTO: case KW_REGISTER: {
      if (!allow_storage) perror_at(p, t->pos, "storage class specified here is not allowed");
      CStorage sc = kw == KW_TYPEDEF ? SC_TYPEDEF : kw == KW_EXTERN ? SC_EXTERN : kw == KW_STATIC ? SC_STATIC
                    : kw == KW_AUTO ? SC_AUTO : SC_REGISTER;
      if (ds->storage && ds->storage != sc) perror_at(p, t->pos, "multiple storage classes in declaration specifiers");
      ds->storage = sc;
      next(p);
      break;
    }
    case KW_THREAD_LOCAL: ds->is_thread_local = true; next(p); break;
    case KW_INLINE: ds->is_inline = true; next(p); break;
    case KW_NORETURN: ds->is_noreturn = true; next(p); break;
    case KW_CONST: quals |= Q_CONST; next(p); break;
    case KW_VOLATILE: quals |= Q_VOLATILE; next(p); break;
    case KW_RESTRICT: quals |= Q_RESTRICT; next(p); break;
    case KW_EXTENSION: next(p); break;
    case KW_ATTRIBUTE: parse_attributes(p, &ds->attrs); break;
    case KW_ATOMIC:
      next(p);
      if (accept(p, "(")) {
        ty = parse_type_name(p);
        expect(p, ")");
        any = true;
      } else {
        quals |= Q_ATOMIC;
      }
      break;
    case KW_ALIGNAS: {
      next(p);
      expect(p, "(");
      int a = is_typename(p, tok(p)) ? type_unqual(parse_type_name(p))->align : (int)parse_const_int(p);
      expect(p, ")");
      if (a > ds->align) ds->align = a;
      break;
    }
    case KW_STRUCT: case KW_UNION: case KW_ENUM:
      if (counter || ty) goto done;
      next(p);
      ty = kw == KW_ENUM ? enum_spec(p) : struct_spec(p, kw == KW_STRUCT ? TY_STRUCT : TY_UNION);
      any = true;
      break;
    case KW_TYPEOF: case KW_TYPEOF_UNQUAL:
      if (counter || ty) goto done;
      next(p);
      ty = typeof_spec(p, kw == KW_TYPEOF_UNQUAL);
      any = true;
      break;
    case KW_BUILTIN_VA_LIST:
      if (counter || ty) goto done;
      next(p);
      ty = va_list_type();
      any = true;
      break;
    case KW_AUTO_TYPE:
      next(p);
      ty = NULL;
      counter |= S_OTHER; /* resolved from the initializer by the caller */
      ds->had_type = true;
      any = true;
      break;
    case KW_VOID: counter += S_VOID; goto spec;
    case KW_BOOL: counter += S_BOOL; goto spec;
    case KW_CHAR: counter += S_CHAR; goto spec;
    case KW_SHORT: counter += S_SHORT; goto spec;
    case KW_INT: counter += S_INT; goto spec;
    case KW_LONG: counter += S_LONG; goto spec;
    case KW_FLOAT: counter += S_FLOAT; goto spec;
    case KW_DOUBLE: counter += S_DOUBLE; goto spec;
    case KW_SIGNED: counter |= S_SIGNED; goto spec;
    case KW_UNSIGNED: counter |= S_UNSIGNED; goto spec;
    case KW_INT128: counter += S_INT128; goto spec;
    case KW_COMPLEX: counter += S_COMPLEX; goto spec;
    case KW_FLOAT128: counter += S_LONG + S_DOUBLE; goto spec;
    case KW_FLOATN: {
      const char *s = t->text;
      if (!strcmp(s, "_Float32")) counter += S_FLOAT;
      else if (!strcmp(s, "_Float64x")) counter += S_LONG + S_DOUBLE;
      else counter += S_DOUBLE;
      goto spec;
    }
    spec:
      if (ty) goto done;
      next(p);
      any = true;
      break;
    default:
      goto done;
    }
    any = true;
  }
done:
  if (ty) {
    /* typedef, struct, enum, typeof */
  } else {
    int c = counter & ~S_OTHER;
    bool u = (c & S_UNSIGNED) != 0;
    c &= ~(S_SIGNED | S_UNSIGNED);
    bool is_complex = (counter & S_COMPLEX) != 0;
    c &= ~S_COMPLEX;
    if (is_complex && !c && !(counter & (S_SIGNED | S_UNSIGNED))) c = S_DOUBLE; /* GNU: _Complex alone */
    switch (c) {
    case 0: ty = counter & (S_SIGNED | S_UNSIGNED) ? (u ? ty_uint : ty_int) : NULL; break;
    case S_VOID: ty = ty_void; break;
    case S_BOOL: ty = ty_bool; break;
    case S_CHAR: ty = counter & S_UNSIGNED ? ty_uchar : counter & S_SIGNED ? ty_schar : ty_char; break;
    case S_SHORT: case S_SHORT + S_INT: ty = u ? ty_ushort : ty_short; break;
    case S_INT: ty = u ? ty_uint : ty_int; break;
    case S_LONG: case S_LONG + S_INT: ty = u ? ty_ulong : ty_long; break;
    case 2 * S_LONG: case 2 * S_LONG + S_INT: ty = u ? ty_ullong : ty_llong; break;
    case S_INT128: ty = u ? ty_uint128 : ty_int128; break;
    case S_FLOAT: ty = ty_float; break;
    case S_DOUBLE: ty = ty_double; break;
    case S_LONG + S_DOUBLE: ty = ty_ldouble; break;
    default:
      perror_at(p, ds->pos, "invalid combination of type specifiers");
      ty = ty_int;
    }
    if (is_complex && ty && !(ty = type_complex(ty))) {
      perror_at(p, ds->pos, "invalid complex type");
      ty = type_complex(ty_double);
    }
    if (ty || (counter & S_OTHER)) ds->had_type = true;
    if (!ty && !(counter & S_OTHER)) ty = ty_int; /* implicit int (a warning where it matters) */
  }
  if (ty && ty != ty_int) ds->had_type = true;
  if (ty && counter) ds->had_type = true;
  if (ds->attrs.mode_bytes && ty && type_is_integer(ty)) {
    bool u = ty->is_unsigned;
    int b = ds->attrs.mode_bytes;
    ty = b == 1 ? (u ? ty_uchar : ty_schar) : b == 2 ? (u ? ty_ushort : ty_short) : b == 4 ? (u ? ty_uint : ty_int)
         : b == 8 ? (u ? ty_ulong : ty_long) : (u ? ty_uint128 : ty_int128);
  }
  if (ds->attrs.vector_size && ty) ty = vector_apply_size(p, ty, ds->attrs.vector_size, ds->pos);
  ds->attrs.vector_size = 0; /* applied: the declarators copy these attributes */
  if (ty) ds->type = type_qualified(ty, quals);
  else ds->type = NULL; /* __auto_type */
  if (ds->is_thread_local && !ds->storage) ds->storage = SC_NONE;
  return any;
}

/* ---- declarators ------------------------------------------------------------------------- */

static CType *declarator_suffix(Parser *p, CType *t);

static CParam *param_list(Parser *p, bool *variadic, bool *old_style) {
  *variadic = false;
  *old_style = false;
  if (accept(p, ")")) {
    *old_style = true;
    return NULL;
  }
  if (is_kw(tok(p), KW_VOID) && is_punct(peek(p, 1), ")")) {
    next(p);
    next(p);
    return NULL;
  }
  CParam head = {0}, *tail = &head;
  /* K&R identifier list */
  if (tok(p)->kind == CT_IDENT && tok(p)->kw == KW_NONE && !is_typename(p, tok(p))) {
    *old_style = true;
    do {
      CParam *q = c_alloc(sizeof *q);
      q->pos = tok(p)->pos;
      q->name = ident(p);
      q->type = ty_int;
      tail = tail->next = q;
    } while (accept(p, ","));
    expect(p, ")");
    return head.next;
  }
  /* the prototype scope: a parameter is visible in the declarators after it
   * (int f(int n, int a[n])) */
  scope_push(p);
  PScope *proto = p->scope;
  p->param_depth++;
  while (!at_eof(p)) {
    if (accept(p, "...")) {
      *variadic = true;
      break;
    }
    DeclSpec ds;
    CPos pos = tok(p)->pos;
    if (!parse_declspec(p, &ds, true)) perror_at(p, pos, "expected a parameter declaration before '%s'", tok(p)->text);
    const char *name = NULL;
    Attrs a = ds.attrs;
    CType *t = parse_declarator(p, ds.type ? ds.type : ty_int, &name, &pos, &a);
    parse_attributes(p, &a); /* char *argv[] __attribute__((unused)) */
    if (a.vector_size) t = vector_apply_size(p, t, a.vector_size, pos);
    CParam *q = c_alloc(sizeof *q);
    /* the lengths, outermost first, before the outermost array decays away */
    CExprList **ltail = &q->vla_lens;
    for (CType *b = type_unqual(t); b && (b->kind == TY_PTR || b->kind == TY_ARRAY); b = type_unqual(b->base))
      if (b->kind == TY_ARRAY && b->vla_len) {
        *ltail = c_alloc(sizeof **ltail);
        (*ltail)->expr = b->vla_len;
        ltail = &(*ltail)->next;
      }
    CType *u = type_unqual(t);
    if (u->kind == TY_ARRAY) t = type_qualified(type_ptr(u->base), t->quals);
    else if (u->kind == TY_FUNC) t = type_ptr(t);
    q->name = name;
    q->type = t;
    q->pos = pos;
    q->unused = a.is_unused;
    tail = tail->next = q;
    if (name) {
      CObj *o = c_alloc(sizeof *o);
      o->name = name;
      o->type = t;
      o->pos = pos;
      o->is_local = o->is_param = true;
      scope_add(p, name, SYM_OBJ)->obj = o;
      q->obj = o;
    }
    if (!accept(p, ",")) break;
  }
  p->param_depth--;
  scope_pop(p);
  /* tags declared in a parameter list stay visible after it (kitcc's rule so far) */
  if (proto->tags) {
    Tag *last = proto->tags;
    while (last->next) last = last->next;
    last->next = p->scope->tags;
    p->scope->tags = proto->tags;
  }
  expect(p, ")");
  return head.next;
}

static int nvla;

static CType *array_suffix(Parser *p, CType *t) {
  /* [ static? quals? expr? ] */
  while (is_kw(tok(p), KW_STATIC) || is_kw(tok(p), KW_CONST) || is_kw(tok(p), KW_VOLATILE) || is_kw(tok(p), KW_RESTRICT))
    next(p);
  if (accept(p, "]")) {
    t = declarator_suffix(p, t);
    return type_array(t, -1);
  }
  if (is_punct(tok(p), "*") && is_punct(peek(p, 1), "]")) {
    next(p);
    next(p);
    t = declarator_suffix(p, t);
    return type_vla(t, new_int(1, ty_long, tok(p)->pos));
  }
  CPos pos = tok(p)->pos;
  CExpr *len = parse_assign(p);
  expect(p, "]");
  t = declarator_suffix(p, t);
  int64_t n;
  if (c_eval_int(len, &n)) {
    if (n < 0) {
      perror_at(p, pos, "size of array is negative");
      n = 1;
    }
    if (!type_is_complete(t) && type_unqual(t)->kind != TY_ARRAY) perror_at(p, pos, "array type has incomplete element type");
    return type_array(t, n);
  }
  if (!type_is_integer(len->type)) perror_at(p, pos, "size of array has non-integer type");
  if (p->param_depth > 0) {
    /* [n] of a parameter: the raw length; a definition evaluates it on entry
     * (param_list collects it, function_definition rebinds it) */
    return type_vla(t, len);
  }
  if (!p->fn) {
    perror_at(p, pos, "variably modified array at file scope");
    return type_array(t, 1);
  }
  /* a VLA: its length is evaluated once, into a hidden local, before the declaration */
  char name[32];
  snprintf(name, sizeof name, "__vla_len.%d", nvla++);
  CObj *hidden = new_local(p, c_strdup(name), ty_long, pos);
  CExpr *var = new_expr(EX_VAR, ty_long, pos);
  var->obj = hidden;
  var->is_lvalue = true;
  CExpr *asg = new_expr(EX_ASSIGN, ty_long, pos);
  asg->lhs = var;
  asg->rhs = convert(p, rvalue(p, len), ty_long);
  CStmt *st = new_stmt(ST_EXPR, pos);
  st->expr = asg;
  CStmt *decl = new_stmt(ST_DECL, pos);
  decl->obj = hidden;
  /* the declaration code emits these before the declaration itself */
  pending_vla_add(p, decl);
  pending_vla_add(p, st);
  CExpr *use = new_expr(EX_VAR, ty_long, pos);
  use->obj = hidden;
  use->is_lvalue = true;
  return type_vla(t, use);
}

static CType *declarator_suffix(Parser *p, CType *t) {
  if (at_std_attr(p)) {
    /* [[...]] after an array or function declarator: of that type; kitcc has
     * no type attributes that change code */
    Attrs ignored = {0};
    parse_attributes(p, &ignored);
  }
  if (accept(p, "[")) return array_suffix(p, t);
  if (accept(p, "(")) {
    bool variadic, old_style;
    scope_push(p); /* parameter names live in a prototype scope */
    CParam *params = param_list(p, &variadic, &old_style);
    scope_pop(p);
    CType *ret = declarator_suffix(p, t);
    if (type_unqual(ret)->kind == TY_FUNC) perror_at(p, tok(p)->pos, "function returning a function");
    if (type_unqual(ret)->kind == TY_ARRAY) perror_at(p, tok(p)->pos, "function returning an array");
    return type_func(ret, params, variadic, old_style);
  }
  return t;
}

static bool starts_nested_declarator(Parser *p) {
  PTok *n = peek(p, 1);
  if (is_punct(n, "*") || is_punct(n, "(") || is_punct(n, "[") || is_punct(n, "^")) return true;
  if (is_kw(n, KW_ATTRIBUTE)) return true;
  if (n->kind == CT_IDENT && !is_typename(p, n)) return true;
  return false;
}

CType *parse_declarator(Parser *p, CType *t, const char **name, CPos *pos, Attrs *attrs) {
  while (accept(p, "*")) {
    unsigned q = 0;
    for (;;) {
      if (accept_kw(p, KW_CONST)) q |= Q_CONST;
      else if (accept_kw(p, KW_VOLATILE)) q |= Q_VOLATILE;
      else if (accept_kw(p, KW_RESTRICT)) q |= Q_RESTRICT;
      else if (accept_kw(p, KW_ATOMIC)) q |= Q_ATOMIC;
      else if (is_kw(tok(p), KW_ATTRIBUTE) || at_std_attr(p)) parse_attributes(p, attrs);
      else if (accept_kw(p, KW_EXTENSION)) continue;
      else break;
    }
    t = type_qualified(type_ptr(t), q);
  }
  if (is_kw(tok(p), KW_ATTRIBUTE) || at_std_attr(p)) parse_attributes(p, attrs);
  if (is_punct(tok(p), "(") && starts_nested_declarator(p)) {
    /* T (inner) suffix: the suffix applies first, then the inner declarator */
    size_t start = p->pos;
    next(p);
    int depth = 1;
    while (!at_eof(p) && depth) {
      if (is_punct(tok(p), "(")) depth++;
      else if (is_punct(tok(p), ")")) depth--;
      next(p);
    }
    CType *outer = declarator_suffix(p, t);
    size_t end = p->pos;
    p->pos = start + 1;
    CType *r = parse_declarator(p, outer, name, pos, attrs);
    expect(p, ")");
    p->pos = end;
    return r;
  }
  if (tok(p)->kind == CT_IDENT && tok(p)->kw == KW_NONE) {
    *pos = tok(p)->pos;
    *name = next(p)->text;
  } else {
    *name = NULL;
  }
  if (is_kw(tok(p), KW_ATTRIBUTE) || at_std_attr(p)) parse_attributes(p, attrs);
  return declarator_suffix(p, t);
}

CType *parse_type_name(Parser *p) {
  DeclSpec ds;
  CPos pos = tok(p)->pos;
  if (!parse_declspec(p, &ds, false) || !ds.type) perror_at(p, pos, "expected a type name");
  const char *name = NULL;
  Attrs a = {0};
  CType *t = parse_declarator(p, ds.type ? ds.type : ty_int, &name, &pos, &a);
  if (a.vector_size) t = vector_apply_size(p, t, a.vector_size, pos);
  if (name) perror_at(p, pos, "unexpected identifier '%s' in a type name", name);
  return t;
}

void parse_static_assert(Parser *p) {
  CPos pos = next(p)->pos;
  expect(p, "(");
  int64_t v = parse_const_int(p);
  const char *msg = NULL;
  if (accept(p, ",")) {
    if (tok(p)->kind == CT_STRING) msg = next(p)->text;
    while (tok(p)->kind == CT_STRING) next(p);
  }
  expect(p, ")");
  expect(p, ";");
  if (!v) perror_at(p, pos, "static assertion failed%s%s", msg ? ": " : "", msg ? msg : "");
}
