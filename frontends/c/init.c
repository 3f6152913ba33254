/* frontends/c/init.c — initializers: braces, brace elision, designators
 * (.member, [index], GNU [lo ... hi]), string literals for char arrays,
 * unknown array sizes, unions and flexible array members, all flattened into
 * scalar leaves at byte offsets (later initializers override earlier ones). */
#include <string.h>

#include "parse.h"

typedef struct Init {
  CInitItem *items;
  int n, cap;
  bool overrides;     /* a designator may have revisited something */
  bool is_static;
} Init;

static void add_item(Init *I, int64_t off, CType *t, CMember *bf, CExpr *e) {
  if (I->n == I->cap) {
    int nc = I->cap ? I->cap * 2 : 16;
    CInitItem *ni = c_alloc(sizeof(CInitItem) * (size_t)nc);
    if (I->n) memcpy(ni, I->items, sizeof(CInitItem) * (size_t)I->n);
    I->items = ni;
    I->cap = nc;
  }
  I->items[I->n++] = (CInitItem){off, t, bf, e};
}

static bool is_char_array(CType *t) {
  CType *u = type_unqual(t);
  if (u->kind != TY_ARRAY) return false;
  CType *e = type_unqual(u->base);
  return type_is_integer(e) && (e->size == 1 || e->size == 2 || e->size == 4);
}

static bool is_aggregate(CType *t) {
  CType *u = type_unqual(t);
  return u->kind == TY_ARRAY || u->kind == TY_STRUCT || u->kind == TY_UNION;
}

static int64_t init_obj(Parser *p, Init *I, CType *t, int64_t off, CMember *bf);

/* a string literal initializing a char array; returns the element count used */
static int64_t init_string(Parser *p, Init *I, CType *t, int64_t off) {
  CExpr *s = parse_string(p);
  CType *u = type_unqual(t);
  int64_t elems = s->str_len / type_unqual(u->base)->size;
  if (u->len >= 0 && elems - 1 > u->len) pwarn_at(p, s->pos, "initializer-string for array is too long");
  add_item(I, off, t, NULL, s);
  return elems;
}

/* the members/elements of aggregate t from the current position onwards.
 * braced: we own a { } list (stop at '}'); otherwise brace elision (stop when full). */
static int64_t init_members(Parser *p, Init *I, CType *t, int64_t off, bool braced);

static CMember *first_member(CType *u) {
  for (CMember *m = u->members; m; m = m->next)
    if (m->name || m->bit_width < 0) return m; /* skip unnamed bitfields */
  return NULL;
}

static CMember *next_member(CMember *m) {
  for (m = m->next; m; m = m->next)
    if (m->name || m->bit_width < 0) return m;
  return NULL;
}

/* parse a designator chain starting at the current token for aggregate t,
 * then the initializer it designates; returns the position to continue from */
typedef struct Pos {
  int64_t index;      /* arrays */
  CMember *member;    /* structs/unions */
} Pos;

/* `.name =`, `[i] =`, and GNU's old `name:` */
static bool designator_start(Parser *p) {
  return is_punct(tok(p), "[") || is_punct(tok(p), ".") ||
         (tok(p)->kind == CT_IDENT && tok(p)->kw == KW_NONE && is_punct(peek(p, 1), ":"));
}

static void designated(Parser *p, Init *I, CType *t, int64_t off, Pos *pos, int64_t *max_index);

static void init_designated_sub(Parser *p, Init *I, CType *st, int64_t soff, CMember *bf) {
  /* after one designator: more designators go into the sub-object, else '=' and a value */
  if (designator_start(p)) {
    Pos inner = {0};
    CType *u = type_unqual(st);
    if (u->kind == TY_STRUCT || u->kind == TY_UNION) inner.member = first_member(u);
    int64_t max = -1;
    designated(p, I, st, soff, &inner, &max);
    return;
  }
  if (!accept(p, "=") && !accept(p, ":")) pwarn_at(p, tok(p)->pos, "obsolete use of designated initializer without '='");
  init_obj(p, I, st, soff, bf);
}

static void designated(Parser *p, Init *I, CType *t, int64_t off, Pos *pos, int64_t *max_index) {
  CType *u = type_unqual(t);
  I->overrides = true;
  if (accept(p, "[")) {
    CPos dpos = tok(p)->pos;
    int64_t lo = parse_const_int(p), hi = lo;
    if (accept(p, "...")) hi = parse_const_int(p);
    expect(p, "]");
    if (u->kind != TY_ARRAY) {
      perror_at(p, dpos, "array index in non-array initializer");
      return;
    }
    if (lo < 0 || (u->len >= 0 && hi >= u->len)) perror_at(p, dpos, "array index in initializer exceeds array bounds");
    int64_t esize = type_unqual(u->base)->size;
    size_t save = p->pos;
    for (int64_t i = lo; i <= hi; i++) {
      p->pos = save; /* a GNU range repeats the same initializer */
      init_designated_sub(p, I, u->base, off + i * esize, NULL);
    }
    pos->index = hi + 1;
    if (hi > *max_index) *max_index = hi;
    return;
  }
  bool gnu_colon = !is_punct(tok(p), ".");
  if (!gnu_colon) next(p);
  CPos dpos = tok(p)->pos;
  const char *name = ident(p);
  if (u->kind != TY_STRUCT && u->kind != TY_UNION) {
    perror_at(p, dpos, "field name not in record or union initializer");
    return;
  }
  for (CMember *m = u->members; m; m = m->next) {
    if (m->name && name && !strcmp(m->name, name)) {
      init_designated_sub(p, I, m->type, off + m->offset, m->bit_width >= 0 ? m : NULL);
      pos->member = u->kind == TY_UNION ? NULL : next_member(m);
      return;
    }
    if (!m->name && is_aggregate(m->type)) {
      int64_t o = 0;
      if (name && type_find_member(m->type, name, &o)) {
        /* into an anonymous struct/union: re-run the designator there */
        p->pos -= gnu_colon ? 1 : 2;
        Pos inner = {0};
        int64_t max = -1;
        designated(p, I, m->type, off + m->offset, &inner, &max);
        pos->member = u->kind == TY_UNION ? NULL : next_member(m);
        return;
      }
    }
  }
  perror_at(p, dpos, "unknown field '%s' specified in initializer", name ? name : "?");
  if (accept(p, "=")) init_obj(p, I, ty_int, off, NULL);
}

static int64_t init_members(Parser *p, Init *I, CType *t, int64_t off, bool braced) {
  CType *u = type_unqual(t);
  Pos pos = {0};
  int64_t max_index = -1;
  if (u->kind == TY_STRUCT || u->kind == TY_UNION) pos.member = first_member(u);
  bool first = true, designators = false;
  int count = 0;
  bool zero = is_punct(peek(p, 1), "}") && !strcmp(tok(p)->text, "0");
  for (;;) {
    if (is_punct(tok(p), "}") || at_eof(p)) break;
    count++;
    if (designator_start(p)) {
      if (!braced) break; /* designators belong to the enclosing braced list */
      designators = true;
      designated(p, I, t, off, &pos, &max_index);
    } else {
      bool full = u->kind == TY_ARRAY ? (u->len >= 0 && pos.index >= u->len)
                                      : (!pos.member || (u->kind == TY_UNION && !first));
      if (full) {
        if (!braced) break;
        pwarn_at(p, tok(p)->pos, "excess elements in %s initializer", u->kind == TY_ARRAY ? "array" : u->kind == TY_UNION ? "union" : "struct");
        Init junk = {0};
        init_obj(p, &junk, ty_int, 0, NULL);
      } else if (u->kind == TY_ARRAY) {
        int64_t esize = type_unqual(u->base)->size;
        init_obj(p, I, u->base, off + pos.index * esize, NULL);
        if (pos.index > max_index) max_index = pos.index;
        pos.index++;
      } else {
        CMember *m = pos.member;
        CType *mt = m->type;
        if (type_unqual(mt)->kind == TY_ARRAY && type_unqual(mt)->len < 0 && !m->next) {
          /* a flexible array member (GNU): its elements extend the object */
          if (is_punct(tok(p), "{")) {
            next(p);
            init_members(p, I, mt, off + m->offset, true);
            expect(p, "}");
          } else if (tok(p)->kind == CT_STRING && is_char_array(mt)) {
            init_string(p, I, mt, off + m->offset);
          } else {
            init_members(p, I, mt, off + m->offset, false);
          }
        } else {
          init_obj(p, I, mt, off + m->offset, m->bit_width >= 0 ? m : NULL);
        }
        pos.member = u->kind == TY_UNION ? NULL : next_member(m);
      }
    }
    first = false;
    if (!braced) {
      /* elided: stop at the end of this aggregate without eating the outer comma */
      bool full = u->kind == TY_ARRAY ? (u->len >= 0 && pos.index >= u->len) : (!pos.member || u->kind == TY_UNION);
      if (full) break;
    }
    if (!accept(p, ",")) break;
  }
  if (braced && u->kind == TY_STRUCT && !designators && count && !zero && pos.member && pos.member->name) {
    char tn[128];
    type_spell(t, tn, sizeof tn);
    pwarn_w(p, W_MISSING_FIELD_INITIALIZERS, tok(p)->pos, "missing initializer for field '%s' of '%s'", pos.member->name, tn);
  }
  return max_index + 1;
}

/* one object: a braced list, a string for a char array, or an expression
 * (with brace elision for aggregates); returns the element count for arrays */
static int64_t init_obj(Parser *p, Init *I, CType *t, int64_t off, CMember *bf) {
  CType *u = type_unqual(t);
  if (is_char_array(t) && tok(p)->kind == CT_STRING) return init_string(p, I, t, off);
  if (is_char_array(t) && is_punct(tok(p), "{") && peek(p, 1)->kind == CT_STRING &&
      (is_punct(peek(p, 2), "}") || (is_punct(peek(p, 2), ",") && is_punct(peek(p, 3), "}")))) {
    next(p);
    int64_t n = init_string(p, I, t, off);
    accept(p, ",");
    expect(p, "}");
    return n;
  }
  if (accept(p, "{")) {
    int64_t n;
    if (u->kind == TY_VECTOR) { /* its lanes, as an array's elements */
      n = init_members(p, I, type_array(u->base, u->len), off, true);
    } else if (is_aggregate(t)) {
      n = init_members(p, I, t, off, true);
    } else {
      /* a scalar in braces */
      if (is_punct(tok(p), "}")) {
        add_item(I, off, t, bf, convert(p, new_int(0, ty_int, tok(p)->pos), t));
      } else {
        init_obj(p, I, t, off, bf);
        while (accept(p, ",")) {
          if (is_punct(tok(p), "}")) break;
          pwarn_at(p, tok(p)->pos, "excess elements in scalar initializer");
          Init junk = {0};
          init_obj(p, &junk, ty_int, 0, NULL);
        }
      }
      n = 1;
    }
    expect(p, "}");
    return n;
  }
  if (is_aggregate(t)) {
    /* a struct/union initialized from an expression of the same type, or brace elision */
    if (u->kind != TY_ARRAY) {
      size_t save = p->pos;
      int errors = p->diag->errors;
      CExpr *e = parse_assign(p);
      if (type_compatible(type_unqual(e->type), u)) {
        add_item(I, off, t, NULL, e);
        return 1;
      }
      if (p->diag->errors != errors) return 1; /* reading it again would repeat its errors */
      p->pos = save;
    }
    /* elision descends without consuming anything: a struct that (after an
     * earlier error) contains itself would recurse forever */
    static int elision_depth;
    if (elision_depth > 64) {
      perror_at(p, tok(p)->pos, "initializer nesting too deep");
      if (!at_eof(p)) next(p);
      return 1;
    }
    elision_depth++;
    int64_t n = init_members(p, I, t, off, false);
    elision_depth--;
    return n;
  }
  CExpr *e = parse_assign(p);
  add_item(I, off, t, bf, assign_convert(p, e, t, "initialization"));
  return 1;
}

/* drop items that a later item overwrites (designators revisiting) */
static void resolve_overrides(Init *I) {
  int w = 0;
  for (int i = 0; i < I->n; i++) {
    CInitItem *a = &I->items[i];
    int64_t a_lo = a->offset * 8 + (a->bitfield ? a->bitfield->bit_offset : 0);
    int64_t a_hi = a->bitfield ? a_lo + a->bitfield->bit_width
                               : a_lo + (int64_t)(a->expr->kind == EX_STRING && type_unqual(a->type)->len < 0
                                                      ? a->expr->str_len : (a->type->size > 0 ? a->type->size : 0)) * 8;
    bool dead = false;
    for (int j = i + 1; j < I->n && !dead; j++) {
      CInitItem *b = &I->items[j];
      int64_t b_lo = b->offset * 8 + (b->bitfield ? b->bitfield->bit_offset : 0);
      int64_t b_hi = b->bitfield ? b_lo + b->bitfield->bit_width : b_lo + (int64_t)(b->type->size > 0 ? b->type->size : 0) * 8;
      if (b_lo <= a_lo && a_hi <= b_hi) dead = true;
    }
    if (!dead) I->items[w++] = *a;
  }
  I->n = w;
  /* stable sort by offset (insertion sort: lists are short when designators are used) */
  for (int i = 1; i < I->n; i++) {
    CInitItem x = I->items[i];
    int j = i - 1;
    while (j >= 0 && I->items[j].offset > x.offset) {
      I->items[j + 1] = I->items[j];
      j--;
    }
    I->items[j + 1] = x;
  }
}

CInit *parse_initializer(Parser *p, CType *t, bool is_static) {
  Init I = {0};
  I.is_static = is_static;
  CType *u = type_unqual(t);
  int64_t n = init_obj(p, &I, t, 0, NULL);
  if (I.overrides) resolve_overrides(&I);
  CInit *in = c_alloc(sizeof *in);
  in->type = t;
  if (u->kind == TY_ARRAY && u->len < 0) in->type = type_qualified(type_array(u->base, n), t->quals);
  in->items = I.items;
  in->nitems = I.n;
  return in;
}
