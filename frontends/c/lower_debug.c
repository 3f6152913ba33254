/* frontends/c/lower_debug.c — -g: the C types of the program as CG ditypes
 * (each described once, structs by declaration, others by shape) and the
 * debug records of named locals, parameters, globals, statics and functions,
 * which the LLVM lowering turns into DWARF for gdb. */
#include "lower.h"

#include <string.h>

/* ditypes already made, by (kind, a, b): a tagged type by its declaration
 * id, a derived one by its parts */
typedef struct DiKey {
  uint64_t kind, a, b;
} DiKey;

typedef struct DiCache {
  DiKey *keys;
  uint32_t *vals; /* 0 = free slot */
  size_t cap, n;
} DiCache;

enum { KEY_BASE = 1, KEY_TAGGED, KEY_PTR, KEY_ARRAY, KEY_CONST, KEY_VOLATILE, KEY_TYPEDEF };

static size_t key_hash(DiKey k) {
  uint64_t h = k.kind * 0x9E3779B97F4A7C15ull ^ k.a * 0xC2B2AE3D27D4EB4Full ^ k.b * 0x165667B19E3779F9ull;
  return (size_t)(h ^ (h >> 29));
}

static uint32_t *cache_slot(Lower *L, DiKey k) {
  DiCache *c = L->dicache;
  if (!c) c = L->dicache = c_alloc(sizeof *c);
  if (2 * (c->n + 1) > c->cap) { /* grow into the arena; the old arrays stay there */
    DiCache old = *c;
    c->cap = old.cap ? old.cap * 2 : 256;
    c->keys = c_alloc(c->cap * sizeof *c->keys);
    c->vals = c_alloc(c->cap * sizeof *c->vals);
    c->n = 0;
    for (size_t i = 0; i < old.cap; i++)
      if (old.vals[i]) {
        *cache_slot(L, old.keys[i]) = old.vals[i];
        c->n++;
      }
  }
  size_t i = key_hash(k) & (c->cap - 1);
  while (c->vals[i] && memcmp(&c->keys[i], &k, sizeof k)) i = (i + 1) & (c->cap - 1);
  if (!c->vals[i]) c->keys[i] = k;
  return &c->vals[i];
}

static uint32_t cached(Lower *L, DiKey k, uint32_t made) {
  uint32_t *slot = cache_slot(L, k);
  if (!*slot) {
    *slot = made;
    L->dicache->n++;
  }
  return *slot;
}

static uint32_t new_ditype(Lower *L, DiKey k, KitCgDiType d) {
  uint32_t *slot = cache_slot(L, k);
  if (*slot) return *slot;
  return cached(L, k, kit_cg_ditype_new(L->m, &d, NULL, 0));
}

static uint32_t describe(Lower *L, CType *t);

static uint8_t base_encoding(const CType *t) {
  switch (t->kind) {
  case TY_BOOL: return KIT_CG_ATE_BOOLEAN;
  case TY_CHAR:
  case TY_SCHAR: return KIT_CG_ATE_SIGNED_CHAR;
  case TY_UCHAR: return KIT_CG_ATE_UNSIGNED_CHAR;
  case TY_FLOAT:
  case TY_DOUBLE:
  case TY_LDOUBLE: return KIT_CG_ATE_FLOAT;
  case TY_COMPLEX: return type_is_float(t->base) ? KIT_CG_ATE_COMPLEX_FLOAT : KIT_CG_ATE_LO_USER;
  default: return t->is_unsigned ? KIT_CG_ATE_UNSIGNED : KIT_CG_ATE_SIGNED;
  }
}

/* struct, union or enum: the entry is made (and cached) before its members,
 * which may point back at it */
static uint32_t tagged(Lower *L, CType *u) {
  DiKey k = {KEY_TAGGED, (uint64_t)u->id, 0};
  uint32_t *slot = cache_slot(L, k);
  if (*slot) return *slot;
  uint32_t n = 0;
  for (CMember *mb = u->members; mb; mb = mb->next) n++;
  KitCgDiType d = {.kind = u->kind == TY_ENUM     ? KIT_CG_DI_ENUM
                           : u->kind == TY_UNION ? KIT_CG_DI_UNION
                                                 : KIT_CG_DI_STRUCT,
                   .name = u->tag ? kit_cg_str(L->m, u->tag) : 0,
                   .size = u->size > 0 ? (uint64_t)u->size : 0,
                   .align = u->align > 0 ? (uint32_t)u->align : 0};
  if (!u->complete) d.flags = KIT_CG_DIF_DECL;
  uint32_t id = cached(L, k, kit_cg_ditype_new(L->m, &d, NULL, n));
  uint32_t base = u->kind == TY_ENUM && u->base ? describe(L, u->base) : 0;
  uint32_t i = 0;
  for (CMember *mb = u->members; mb; mb = mb->next) {
    if (u->kind != TY_ENUM && !mb->name && mb->bit_width >= 0) continue; /* padding bit-field */
    KitCgDiMember x = {.name = mb->name ? kit_cg_str(L->m, mb->name) : 0};
    if (u->kind == TY_ENUM) {
      x.value = mb->value;
    } else {
      x.type = describe(L, mb->type);
      x.offset_bits = (uint64_t)mb->offset * 8 + (mb->bit_width > 0 ? (uint64_t)mb->bit_offset : 0);
      x.bit_size = mb->bit_width > 0 ? (uint32_t)mb->bit_width : 0;
    }
    L->m->ditypes[id].members[i++] = x; /* re-read: describe() may have grown the table */
  }
  KitCgDiType *e = &L->m->ditypes[id];
  e->nmembers = i;
  e->base = base;
  return id;
}

/* a function type: the return type, then one member per prototyped parameter */
static uint32_t functype(Lower *L, CType *u) {
  uint32_t n = 0;
  for (CParam *p = u->params; p; p = p->next) n++;
  KitCgDiType d = {.kind = KIT_CG_DI_FUNC};
  if (u->variadic) d.flags = KIT_CG_DIF_VARIADIC;
  uint32_t ret = describe(L, u->base);
  uint32_t id = kit_cg_ditype_new(L->m, &d, NULL, n);
  L->m->ditypes[id].base = ret;
  uint32_t i = 0;
  for (CParam *p = u->params; p; p = p->next) {
    uint32_t pt = describe(L, p->type);
    L->m->ditypes[id].members[i++].type = pt;
  }
  return id;
}

/* the unqualified type without its typedef name */
static uint32_t plain(Lower *L, CType *u) {
  switch (u->kind) {
  case TY_VOID: return 0;
  case TY_STRUCT:
  case TY_UNION:
  case TY_ENUM: return tagged(L, u);
  case TY_FUNC: return functype(L, u);
  case TY_PTR: {
    uint32_t base = describe(L, u->base);
    return new_ditype(L, (DiKey){KEY_PTR, base, 0}, (KitCgDiType){.kind = KIT_CG_DI_POINTER, .base = base, .size = 8});
  }
  case TY_ARRAY:
  case TY_VECTOR: { /* a vector is described as the array of its lanes */
    uint32_t base = describe(L, u->base);
    if (!base) return 0;
    int64_t count = u->vla_len || u->len < 0 ? -1 : u->len;
    return new_ditype(L, (DiKey){KEY_ARRAY, base, (uint64_t)count},
                      (KitCgDiType){.kind = KIT_CG_DI_ARRAY, .base = base, .count = count,
                                    .size = u->size > 0 && count >= 0 ? (uint64_t)u->size : 0});
  }
  default: {
    char name[64];
    type_spell(u, name, sizeof name);
    return new_ditype(L, (DiKey){KEY_BASE, (uint64_t)u->kind, u->kind == TY_COMPLEX ? (uint64_t)u->base->kind : 0},
                      (KitCgDiType){.kind = KIT_CG_DI_BASE, .name = kit_cg_str(L->m, name),
                                    .size = (uint64_t)u->size, .encoding = base_encoding(u)});
  }
  }
}

/* qualifiers outside, then the typedef name, then the type itself */
static uint32_t describe_as(Lower *L, CType *u, unsigned quals, const char *tdname) {
  if (quals & (Q_CONST | Q_VOLATILE)) {
    bool vol = quals & Q_VOLATILE;
    uint32_t base = describe_as(L, u, quals & ~(unsigned)(vol ? Q_VOLATILE : Q_CONST), tdname);
    return new_ditype(L, (DiKey){vol ? KEY_VOLATILE : KEY_CONST, base, 0},
                      (KitCgDiType){.kind = vol ? KIT_CG_DI_VOLATILE : KIT_CG_DI_CONST, .base = base});
  }
  if (tdname) {
    uint32_t base = describe_as(L, u, 0, NULL);
    uint32_t name = kit_cg_str(L->m, tdname);
    return new_ditype(L, (DiKey){KEY_TYPEDEF, base, name},
                      (KitCgDiType){.kind = KIT_CG_DI_TYPEDEF, .base = base, .name = name});
  }
  return plain(L, u);
}

static uint32_t describe(Lower *L, CType *t) {
  if (!t) return 0;
  return describe_as(L, type_unqual(t), t->quals, t->typedef_name);
}

uint32_t lower_ditype(Lower *L, CType *t) { return L->opt->debug_info ? describe(L, t) : 0; }

/* the C parameter number (1-based) of a parameter object, 0 if none */
static uint32_t param_number(Lower *L, CObj *o) {
  uint32_t n = 1;
  for (CObjList *p = L->fn ? L->fn->params : NULL; p; p = p->next, n++)
    if (p->obj == o) return n;
  return 0;
}

void lower_debug_var(Lower *L, CObj *o, int at, uint32_t where) {
  if (!L->opt->debug_info || !o->name || !*o->name) return;
  uint32_t type = describe(L, o->type);
  if (!type) return;
  KitCgDiVar v = {.name = kit_cg_str(L->m, o->name), .type = type, .at = (uint8_t)at, .where = where,
                  .loc = lower_pos_loc(L, o->pos)};
  if (o->is_param) v.arg = param_number(L, o);
  kit_cg_divar_add(L->m, L->f, &v);
}

void lower_debug_global(Lower *L, CObj *o, KitCgGlobal *g, CType *t) {
  if (!L->opt->debug_info) return;
  g->ditype = describe(L, t);
  if (o->asm_name && strcmp(o->asm_name, o->name)) g->diname = kit_cg_str(L->m, o->name);
}

void lower_debug_func(Lower *L, CObj *o, KitCgFunc *f) {
  if (L->opt->debug_info) f->ditype = describe(L, o->type);
}
