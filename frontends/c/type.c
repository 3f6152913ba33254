/* frontends/c/type.c — C types on x86-64 Linux: the basic types, derived
 * types, struct/union layout with gcc's bitfield rules, compatibility, the
 * usual arithmetic conversions, and spelling types the way clang prints them. */
#include "type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

#define BASIC(name, k, sz, al, uns) \
  static CType name##_t = {.kind = k, .size = sz, .align = al, .is_unsigned = uns, .complete = true, .len = -1}; \
  CType *ty_##name = &name##_t;
BASIC(void, TY_VOID, 1, 1, false) /* GNU: sizeof(void) == 1 for pointer arithmetic */
BASIC(bool, TY_BOOL, 1, 1, true)
BASIC(char, TY_CHAR, 1, 1, false)
BASIC(schar, TY_SCHAR, 1, 1, false)
BASIC(uchar, TY_UCHAR, 1, 1, true)
BASIC(short, TY_SHORT, 2, 2, false)
BASIC(ushort, TY_USHORT, 2, 2, true)
BASIC(int, TY_INT, 4, 4, false)
BASIC(uint, TY_UINT, 4, 4, true)
BASIC(long, TY_LONG, 8, 8, false)
BASIC(ulong, TY_ULONG, 8, 8, true)
BASIC(llong, TY_LLONG, 8, 8, false)
BASIC(ullong, TY_ULLONG, 8, 8, true)
BASIC(int128, TY_INT128, 16, 16, false)
BASIC(uint128, TY_UINT128, 16, 16, true)
BASIC(float, TY_FLOAT, 4, 4, false)
BASIC(double, TY_DOUBLE, 8, 8, false)
BASIC(ldouble, TY_LDOUBLE, 16, 16, false)
#undef BASIC

static int next_id = 1;

static CType *new_type(CTypeKind kind, int64_t size, int align) {
  CType *t = c_alloc(sizeof *t);
  t->kind = kind;
  t->size = size;
  t->align = align;
  t->len = -1;
  return t;
}

CType *type_ptr(CType *base) {
  CType *t = new_type(TY_PTR, 8, 8);
  t->base = base;
  t->is_unsigned = true;
  t->complete = true;
  return t;
}

CType *type_array(CType *base, int64_t len) {
  int64_t size = len >= 0 && base->size >= 0 ? base->size * len : -1;
  CType *t = new_type(TY_ARRAY, size, base->align);
  t->base = base;
  t->len = len;
  t->complete = len >= 0;
  return t;
}

CType *type_vla(CType *base, CExpr *len) {
  CType *t = new_type(TY_ARRAY, -1, base->align);
  t->base = base;
  t->vla_len = len;
  t->complete = true;
  return t;
}

CType *type_func(CType *ret, CParam *params, bool variadic, bool old_style) {
  CType *t = new_type(TY_FUNC, 1, 1); /* GNU: sizeof of a function is 1 */
  t->base = ret;
  t->params = params;
  t->variadic = variadic;
  t->old_style = old_style;
  return t;
}

CType *type_struct(CTypeKind kind, const char *tag) {
  CType *t = new_type(kind, -1, 1);
  t->tag = tag;
  t->id = next_id++;
  return t;
}

CType *type_enum(const char *tag) {
  CType *t = new_type(TY_ENUM, 4, 4);
  t->tag = tag;
  t->base = ty_uint;
  t->is_unsigned = true;
  t->id = next_id++;
  return t;
}

CType *type_unqual(CType *t) { return t->origin ? t->origin : t; }

/* the complex types, static like the basic ones: index = the element's kind */
static struct {
  CType t;
  CMember real, imag;
} complex_types[TY_LDOUBLE + 1];

CType *type_complex(CType *elem) {
  elem = type_unqual(elem);
  if (elem->kind == TY_ENUM) elem = elem->base;
  if (elem->kind == TY_VOID || elem->kind == TY_BOOL || elem->kind > TY_LDOUBLE) return NULL;
  CType *t = &complex_types[elem->kind].t;
  if (!t->kind) {
    CMember *re = &complex_types[elem->kind].real, *im = &complex_types[elem->kind].imag;
    *re = (CMember){.name = "__real__", .type = elem, .bit_width = -1, .align = elem->align, .next = im};
    *im = (CMember){.name = "__imag__", .type = elem, .offset = elem->size, .bit_width = -1, .align = elem->align};
    *t = (CType){.kind = TY_COMPLEX, .size = 2 * elem->size, .align = elem->align, .base = elem,
                 .is_unsigned = elem->is_unsigned, .complete = true, .len = -1, .members = re};
  }
  return t;
}

static bool is_tagged(const CType *t) { return t->kind == TY_STRUCT || t->kind == TY_UNION || t->kind == TY_ENUM; }

static CType *wrap(CType *t, unsigned quals, const char *typedef_name) {
  CType *o = type_unqual(t);
  CType *n = c_alloc(sizeof *n);
  *n = *o;
  n->quals = (uint8_t)(quals & 0xff);
  n->origin = o;
  n->typedef_name = typedef_name;
  n->wrappers = NULL;
  n->next_wrapper = NULL;
  if (is_tagged(o)) {
    n->next_wrapper = o->wrappers;
    o->wrappers = n;
  }
  return n;
}

CType *type_qualified(CType *t, unsigned quals) {
  if (!quals || (t->quals | quals) == t->quals) return t;
  return wrap(t, t->quals | quals, t->typedef_name);
}

CType *type_typedef(CType *t, const char *name) { return wrap(t, t->quals, name); }

/* `typedef T name __attribute__((aligned(N)))`: as in gcc, the typedef may
 * raise or lower T's alignment (its size stays). It is its own unqualified
 * type, so qualifying or wrapping it keeps N: a copy that keeps a tagged
 * type's identity (id, for compatibility) and follows its completion. */
CType *type_aligned_typedef(CType *t, const char *name, int align) {
  CType *n = wrap(t, 0, name);
  n->origin = NULL;
  n->align = n->typedef_align = align;
  return type_qualified(n, t->quals);
}

void type_sync_wrappers(CType *t) {
  for (CType *w = t->wrappers; w; w = w->next_wrapper) {
    w->size = t->size;
    w->align = w->typedef_align ? w->typedef_align : t->align;
    w->members = t->members;
    w->complete = t->complete;
    w->packed = t->packed;
    w->flexible = t->flexible;
    w->base = t->base;
    w->is_unsigned = t->is_unsigned;
  }
}

/* ---- layout ------------------------------------------------------------------- */

static int64_t align_to(int64_t n, int64_t a) { return a > 1 ? (n + a - 1) / a * a : n; }

/* a struct's bit positions: 128 bits, for a member past 2^60 bytes (torture 991014-1) */
typedef __int128 BitPos;
static BitPos align_bits(BitPos n, int64_t a) { return a > 1 ? (n + a - 1) / a * a : n; }

void type_layout(CType *t, bool packed, int max_align) {
  BitPos bits = 0; /* the next free bit (structs) */
  int64_t size = 0;
  int align = 1;
  t->packed = packed;
  t->flexible = false;
  for (CMember *m = t->members; m; m = m->next) {
    CType *mt = m->type;
    int malign = m->align ? m->align : mt->align;
    if (packed && !(m->align > mt->align)) malign = 1;
    if (max_align && malign > max_align) malign = max_align;
    if (m->bit_width >= 0) {
      int unit = mt->size * 8;
      if (t->kind == TY_UNION) {
        m->offset = 0;
        m->bit_offset = 0;
        int64_t need = (m->bit_width + 7) / 8;
        if (need > size) size = need;
      } else if (m->bit_width == 0) {
        bits = align_bits(bits, (int64_t)mt->align * 8);
        m->offset = (int64_t)(bits / 8);
        m->bit_offset = 0;
        continue; /* zero-width fields affect neither size beyond padding nor alignment */
      } else {
        if (!packed && bits / unit != (bits + m->bit_width - 1) / unit) bits = align_bits(bits, unit);
        if (!packed && malign > 1) {
          /* the storage unit is the aligned unit of the declared type holding the first bit */
          int64_t start = (int64_t)(bits / (mt->size * 8) * mt->size);
          m->offset = start;
          m->bit_offset = (int)(bits - (BitPos)start * 8);
        } else {
          m->offset = (int64_t)(bits / 8);
          m->bit_offset = (int)(bits % 8);
        }
        bits += m->bit_width;
      }
      if (m->name && malign > align) align = malign; /* unnamed bitfields don't align the struct */
      m->align = malign;
      continue;
    }
    m->bit_offset = 0;
    m->align = malign;
    if (malign > align) align = malign;
    if (t->kind == TY_UNION) {
      m->offset = 0;
      if (mt->size > size) size = mt->size;
      continue;
    }
    bits = align_bits(bits, (int64_t)malign * 8);
    m->offset = (int64_t)(bits / 8);
    if (mt->kind == TY_ARRAY && mt->len < 0 && !m->next) {
      t->flexible = true;
      continue;
    }
    bits += (BitPos)(mt->size > 0 ? mt->size : 0) * 8;
  }
  if (t->kind != TY_UNION) size = (int64_t)((bits + 7) / 8);
  if (t->align > align) align = t->align; /* aligned attribute on the struct itself */
  t->align = align;
  size = align_to(size, align);
  t->size = size;
  t->complete = true;
  type_sync_wrappers(t);
}

/* ---- queries ------------------------------------------------------------------ */

bool type_is_integer(const CType *t) {
  switch (t->kind) {
  case TY_BOOL: case TY_CHAR: case TY_SCHAR: case TY_UCHAR: case TY_SHORT: case TY_USHORT:
  case TY_INT: case TY_UINT: case TY_LONG: case TY_ULONG: case TY_LLONG: case TY_ULLONG:
  case TY_INT128: case TY_UINT128: case TY_ENUM:
    return true;
  default:
    return false;
  }
}

bool type_is_float(const CType *t) { return t->kind == TY_FLOAT || t->kind == TY_DOUBLE || t->kind == TY_LDOUBLE; }
bool type_is_complex(const CType *t) { return t->kind == TY_COMPLEX; }
bool type_is_arith(const CType *t) { return type_is_integer(t) || type_is_float(t) || t->kind == TY_COMPLEX; }
bool type_is_scalar(const CType *t) { return type_is_arith(t) || t->kind == TY_PTR; }
bool type_is_signed(const CType *t) {
  if (t->kind == TY_ENUM) return !t->base->is_unsigned;
  return type_is_arith(t) && !t->is_unsigned;
}
bool type_is_complete(const CType *t) {
  if (t->kind == TY_VOID) return false;
  if (t->kind == TY_ARRAY) return t->vla_len || t->len >= 0;
  if (t->kind == TY_STRUCT || t->kind == TY_UNION) return type_unqual((CType *)t)->complete;
  return true;
}
bool type_is_vla(const CType *t) {
  for (; t && t->kind == TY_ARRAY; t = t->base)
    if (t->vla_len) return true;
  return false;
}

int type_rank(const CType *t) {
  switch (t->kind) {
  case TY_BOOL: return 1;
  case TY_CHAR: case TY_SCHAR: case TY_UCHAR: return 2;
  case TY_SHORT: case TY_USHORT: return 3;
  case TY_INT: case TY_UINT: return 4;
  case TY_ENUM: return type_rank(t->base);
  case TY_LONG: case TY_ULONG: return 5;
  case TY_LLONG: case TY_ULLONG: return 6;
  case TY_INT128: case TY_UINT128: return 7;
  default: return 0;
  }
}

CType *type_promote(CType *t) {
  if (t->kind == TY_ENUM) t = t->base;
  if (type_is_integer(t) && type_rank(t) < type_rank(ty_int)) return ty_int;
  return type_unqual(t);
}

static CType *unsigned_of(CType *t) {
  switch (t->kind) {
  case TY_INT: return ty_uint;
  case TY_LONG: return ty_ulong;
  case TY_LLONG: return ty_ullong;
  case TY_INT128: return ty_uint128;
  default: return t;
  }
}

/* the common type of two integer types by rank and signedness (C11 6.3.1.8p1;
 * real operands are promoted first, complex integers are not) */
static CType *common_integer(CType *a, CType *b) {
  if (a->kind == TY_ENUM) a = a->base;
  if (b->kind == TY_ENUM) b = b->base;
  if (a->kind == b->kind) return a;
  if (a->is_unsigned == b->is_unsigned) return type_rank(a) >= type_rank(b) ? a : b;
  CType *u = a->is_unsigned ? a : b, *s = a->is_unsigned ? b : a;
  if (type_rank(u) >= type_rank(s)) return u;
  if (s->size > u->size) return s;
  return unsigned_of(s);
}

CType *type_common(CType *a, CType *b) {
  a = type_unqual(a);
  b = type_unqual(b);
  if (a->kind == TY_COMPLEX || b->kind == TY_COMPLEX) {
    /* C11 6.3.1.8: the common real type of the elements, complex; gcc does
     * not promote complex integers (_Complex char + _Complex char is
     * _Complex char) */
    CType *ea = a->kind == TY_COMPLEX ? a->base : a, *eb = b->kind == TY_COMPLEX ? b->base : b;
    if (type_is_integer(ea) && type_is_integer(eb)) return type_complex(common_integer(ea, eb));
    return type_complex(type_common(ea, eb));
  }
  if (a->kind == TY_LDOUBLE || b->kind == TY_LDOUBLE) return ty_ldouble;
  if (a->kind == TY_DOUBLE || b->kind == TY_DOUBLE) return ty_double;
  if (a->kind == TY_FLOAT || b->kind == TY_FLOAT) return ty_float;
  return common_integer(type_promote(a), type_promote(b));
}

static bool params_compatible(const CParam *p, const CParam *q) {
  for (; p && q; p = p->next, q = q->next)
    if (!type_compatible(type_unqual(p->type), type_unqual(q->type))) return false;
  return !p && !q;
}

CType *type_vector(CType *elem, int64_t lanes) {
  int64_t size = lanes * elem->size;
  CType *t = new_type(TY_VECTOR, size, (int)(size < 16 ? size : 16)); /* gcc without AVX: at most 16 */
  t->base = type_unqual(elem);
  t->len = lanes;
  return t;
}

bool type_compatible(const CType *a, const CType *b) {
  if (a == b) return true;
  if (a->quals != b->quals) return false;
  a = type_unqual((CType *)a);
  b = type_unqual((CType *)b);
  if (a == b) return true;
  if (a->kind == TY_ENUM && type_is_integer(b) && b->kind != TY_ENUM) return a->base->kind == b->kind;
  if (b->kind == TY_ENUM && type_is_integer(a) && a->kind != TY_ENUM) return b->base->kind == a->kind;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case TY_PTR:
    return type_compatible(a->base, b->base);
  case TY_COMPLEX:
    return a->base->kind == b->base->kind;
  case TY_ARRAY:
    if (!type_compatible(a->base, b->base)) return false;
    return a->len < 0 || b->len < 0 || a->vla_len || b->vla_len || a->len == b->len;
  case TY_FUNC:
    if (!type_compatible(a->base, b->base)) return false;
    if (a->old_style || b->old_style) return true;
    return a->variadic == b->variadic && params_compatible(a->params, b->params);
  case TY_STRUCT: case TY_UNION: case TY_ENUM:
    return a->id == b->id;
  case TY_VECTOR:
    return a->len == b->len && type_unqual(a->base)->kind == type_unqual(b->base)->kind;
  default:
    return true; /* same basic kind */
  }
}

CMember *type_find_member(CType *t, const char *name, int64_t *offset) {
  t = type_unqual(t);
  if (t->kind != TY_STRUCT && t->kind != TY_UNION) return NULL; /* an enum's members are its constants */
  for (CMember *m = t->members; m; m = m->next) {
    if (m->name) {
      if (strcmp(m->name, name) == 0) {
        *offset += m->offset;
        return m;
      }
    } else if (m->type->kind == TY_STRUCT || m->type->kind == TY_UNION) {
      int64_t sub = 0;
      CMember *r = type_find_member(m->type, name, &sub);
      if (r) {
        *offset += m->offset + sub;
        return r;
      }
    }
  }
  return NULL;
}

/* ---- spelling ------------------------------------------------------------------ */

typedef struct Buf {
  char *p;
  size_t n, size;
} Buf;

static void put(Buf *b, const char *s) {
  size_t l = strlen(s);
  if (b->n + l + 1 > b->size) l = b->size > b->n + 1 ? b->size - b->n - 1 : 0;
  memcpy(b->p + b->n, s, l);
  b->n += l;
  b->p[b->n] = 0;
}

static const char *basic_name(const CType *t) {
  switch (t->kind) {
  case TY_VOID: return "void";
  case TY_BOOL: return "_Bool";
  case TY_CHAR: return "char";
  case TY_SCHAR: return "signed char";
  case TY_UCHAR: return "unsigned char";
  case TY_SHORT: return "short";
  case TY_USHORT: return "unsigned short";
  case TY_INT: return "int";
  case TY_UINT: return "unsigned int";
  case TY_LONG: return "long";
  case TY_ULONG: return "unsigned long";
  case TY_LLONG: return "long long";
  case TY_ULLONG: return "unsigned long long";
  case TY_INT128: return "__int128";
  case TY_UINT128: return "unsigned __int128";
  case TY_FLOAT: return "float";
  case TY_DOUBLE: return "double";
  case TY_LDOUBLE: return "long double";
  default: return NULL;
  }
}

static void quals(Buf *b, unsigned q, bool after) {
  if (q & Q_CONST) put(b, after ? " const" : "const ");
  if (q & Q_VOLATILE) put(b, after ? " volatile" : "volatile ");
  if (q & Q_RESTRICT) put(b, after ? " restrict" : "restrict ");
}

/* declarator spelling: the base specifier, then the derived parts around an
 * abstract declarator, as clang prints ("int (*)[4]", "char *const") */
static void spell(const CType *t, Buf *b, const char *inner) {
  char tmp[256];
  switch (t->kind) {
  case TY_PTR: {
    const CType *p = t->base;
    bool paren = p->kind == TY_ARRAY || p->kind == TY_FUNC;
    snprintf(tmp, sizeof tmp, "%s*%s%s%s%s", paren ? "(" : "", (t->quals & Q_CONST) ? "const " : "",
             (t->quals & Q_VOLATILE) ? "volatile " : "", inner, paren ? ")" : "");
    size_t l = strlen(tmp);
    while (l && tmp[l - 1] == ' ') tmp[--l] = 0;
    spell(p, b, tmp);
    return;
  }
  case TY_ARRAY: {
    if (t->len >= 0 && !t->vla_len)
      snprintf(tmp, sizeof tmp, "%s[%lld]", inner, (long long)t->len);
    else
      snprintf(tmp, sizeof tmp, "%s[%s]", inner, t->vla_len ? "*" : "");
    spell(t->base, b, tmp);
    return;
  }
  case TY_FUNC: {
    Buf pb = {tmp, 0, sizeof tmp};
    tmp[0] = 0;
    put(&pb, inner);
    put(&pb, "(");
    for (const CParam *p = t->params; p; p = p->next) {
      char one[128];
      type_spell(p->type, one, sizeof one);
      put(&pb, one);
      if (p->next || t->variadic) put(&pb, ", ");
    }
    if (t->variadic) put(&pb, "...");
    else if (!t->params && !t->old_style) put(&pb, "void");
    put(&pb, ")");
    spell(t->base, b, tmp);
    return;
  }
  case TY_VECTOR:
    if (t->typedef_name) break;
    quals(b, t->quals, false);
    snprintf(tmp, sizeof tmp, "__attribute__((__vector_size__(%lld))) ", (long long)t->size);
    put(b, tmp);
    spell(t->base, b, inner);
    return;
  default:
    break;
  }
  quals(b, t->quals, false);
  if (t->typedef_name) {
    put(b, t->typedef_name);
  } else if (t->kind == TY_COMPLEX) {
    put(b, "_Complex ");
    put(b, basic_name(t->base));
  } else if (basic_name(t)) {
    put(b, basic_name(t));
  } else {
    put(b, t->kind == TY_STRUCT ? "struct " : t->kind == TY_UNION ? "union " : "enum ");
    put(b, t->tag ? t->tag : "(anonymous)");
  }
  if (inner[0]) {
    if (inner[0] != '[') put(b, " ");
    put(b, inner);
  }
}

void type_spell(const CType *t, char *buf, size_t size) {
  if (!size) return;
  Buf b = {buf, 0, size};
  buf[0] = 0;
  spell(t, &b, "");
}
