/* cg/core.c — CG module ownership: the arena, interned strings, the symbol
 * table, functions, globals, type descriptors, and the names of types and
 * enum fields that every other CG file prints or parses. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

const KitCgOpInfo kit_cg_op_info[KIT_CG_NOPS] = {
#define RES KIT_CGO_RES
#define TERM KIT_CGO_TERM
#define MEM KIT_CGO_MEM
#define SIDE KIT_CGO_SIDE
#define COMM KIT_CGO_COMM
#define BIN KIT_CGO_BIN
#define CMP KIT_CGO_CMP
#define CONV KIT_CGO_CONV
#define INT KIT_CGO_INT
#define FLT KIT_CGO_FLT
#define CG_OP(e, text, nargs, flags) [KIT_CG_OP_##e] = {text, nargs, flags},
#include "kit/cg_ops.def"
#undef CG_OP
};

static const char *const type_names[KIT_CG_NTYPES] = {"void", "i1",  "i8",  "i16", "i32", "i64",
                                                       "i128", "f32", "f64", "f80", "ptr"};
static const unsigned type_sizes[KIT_CG_NTYPES] = {0, 1, 1, 2, 4, 8, 16, 4, 8, 16, 8};
static const unsigned type_bits[KIT_CG_NTYPES] = {0, 1, 8, 16, 32, 64, 128, 32, 64, 80, 64};

#define VEC_NAMES(e) {"v1" e, "v2" e, "v4" e, "v8" e, "v16" e, "v32" e, "v64" e, "v128" e}
static const char *const vec_names[KIT_CG_NTYPES][8] = {
    [KIT_CG_I8] = VEC_NAMES("i8"),   [KIT_CG_I16] = VEC_NAMES("i16"), [KIT_CG_I32] = VEC_NAMES("i32"),
    [KIT_CG_I64] = VEC_NAMES("i64"), [KIT_CG_F32] = VEC_NAMES("f32"), [KIT_CG_F64] = VEC_NAMES("f64")};
#undef VEC_NAMES

static bool vec_elem_ok(KitCgType e) { return (e >= KIT_CG_I8 && e <= KIT_CG_I64) || e == KIT_CG_F32 || e == KIT_CG_F64; }

bool kit_cg_type_valid(KitCgType t) {
  if (kit_cg_type_is_vec(t)) return vec_elem_ok(kit_cg_type_elem(t));
  return t > KIT_CG_VOID && t < KIT_CG_NTYPES;
}

KitCgType kit_cg_vec_type(KitCgType elem, unsigned lanes) {
  if (!vec_elem_ok(elem) || lanes == 0 || lanes > 128 || (lanes & (lanes - 1))) return KIT_CG_VOID;
  unsigned lg = 0;
  while ((1u << lg) < lanes) lg++;
  return (KitCgType)(KIT_CG_VEC | lg << 4 | elem);
}

KitCgType kit_cg_vec_int(KitCgType t) {
  KitCgType e = kit_cg_type_elem(t);
  if (e == KIT_CG_F32) e = KIT_CG_I32;
  if (e == KIT_CG_F64) e = KIT_CG_I64;
  return kit_cg_vec_type(e, kit_cg_type_lanes(t));
}

const char *kit_cg_type_name(KitCgType t) {
  if (kit_cg_type_is_vec(t)) return kit_cg_type_valid(t) ? vec_names[kit_cg_type_elem(t)][(t >> 4) & 7] : "?";
  return (unsigned)t < KIT_CG_NTYPES ? type_names[t] : "?";
}
unsigned kit_cg_type_size(KitCgType t) {
  if (kit_cg_type_is_vec(t)) return kit_cg_type_valid(t) ? kit_cg_type_lanes(t) * type_sizes[kit_cg_type_elem(t)] : 0;
  return (unsigned)t < KIT_CG_NTYPES ? type_sizes[t] : 0;
}
unsigned kit_cg_type_bits(KitCgType t) {
  if (kit_cg_type_is_vec(t)) return kit_cg_type_valid(t) ? kit_cg_type_lanes(t) * type_bits[kit_cg_type_elem(t)] : 0;
  return (unsigned)t < KIT_CG_NTYPES ? type_bits[t] : 0;
}

static const char *const pred_names[KIT_CG_NPREDS] = {
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "oeq", "one",
    "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ule", "ugt", "uge", "ord", "uno"};
const char *kit_cg_pred_name(KitCgPred p) { return (unsigned)p < KIT_CG_NPREDS ? pred_names[p] : "?"; }

static const char *const order_names[] = {"relaxed", "acquire", "release", "acq_rel", "seq_cst"};
const char *kit_cg_order_name(KitCgOrder o) { return (unsigned)o <= KIT_CG_SEQCST ? order_names[o] : "?"; }

static const char *const rmw_names[] = {"xchg", "add", "sub", "and", "or", "xor",
                                        "nand", "smax", "smin", "umax", "umin"};
const char *kit_cg_rmw_name(KitCgRmw r) { return (unsigned)r <= KIT_CG_RMW_UMIN ? rmw_names[r] : "?"; }

/* ---- arena ------------------------------------------------------------------ */

typedef struct Chunk {
  struct Chunk *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
} Chunk;

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fputs("kit: out of memory\n", stderr);
    abort();
  }
  return p;
}

static void *xcalloc(size_t a, size_t b) {
  void *p = calloc(a ? a : 1, b ? b : 1);
  if (!p) {
    fputs("kit: out of memory\n", stderr);
    abort();
  }
  return p;
}

void *kit_cg_alloc(KitCgModule *m, size_t size) {
  size = (size + 15) & ~(size_t)15;
  Chunk *c = m->arena;
  if (!c || c->cap - c->used < size) {
    size_t cap = size > 65536 ? size : 65536;
    Chunk *n = xmalloc(sizeof(Chunk) + cap);
    n->next = c;
    n->used = 0;
    n->cap = cap;
    m->arena = c = n;
  }
  void *p = c->data + c->used;
  c->used += size;
  memset(p, 0, size);
  return p;
}

void *kit_cg__grow(KitCgModule *m, void *old, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap) return old;
  uint32_t ncap = *cap ? *cap * 2 : 8;
  while (ncap < need) ncap *= 2;
  void *p = kit_cg_alloc(m, (size_t)ncap * elem);
  if (old) memcpy(p, old, (size_t)*cap * elem);
  *cap = ncap;
  return p;
}
#define GROW KIT_CG_GROW

/* ---- hash index (strings -> ids), open addressing ------------------------------- */

typedef struct Index {
  uint32_t cap, n;
  uint32_t *slots; /* id + 1, 0 = empty */
} Index;

static uint64_t hash_bytes(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static void index_free(Index *ix) {
  if (!ix) return;
  free(ix->slots);
  free(ix);
}

/* key(i) gives the string of id i */
typedef const char *(*KeyFn)(const KitCgModule *, uint32_t);

static const char *str_key(const KitCgModule *m, uint32_t i) { return m->strs[i]; }
static const char *sym_key(const KitCgModule *m, uint32_t i) { return m->strs[m->syms[i].name]; }

static void index_put(const KitCgModule *m, Index *ix, KeyFn key, uint32_t id);

static void index_rehash(const KitCgModule *m, Index *ix, KeyFn key) {
  uint32_t oldcap = ix->cap;
  uint32_t *old = ix->slots;
  ix->cap = oldcap ? oldcap * 2 : 64;
  ix->slots = xcalloc(ix->cap, sizeof(uint32_t));
  ix->n = 0;
  for (uint32_t i = 0; i < oldcap; i++)
    if (old[i]) index_put(m, ix, key, old[i] - 1);
  free(old);
}

static void index_put(const KitCgModule *m, Index *ix, KeyFn key, uint32_t id) {
  if ((ix->n + 1) * 2 > ix->cap) index_rehash(m, ix, key);
  const char *k = key(m, id);
  uint32_t mask = ix->cap - 1, i = (uint32_t)hash_bytes(k, strlen(k)) & mask;
  while (ix->slots[i]) i = (i + 1) & mask;
  ix->slots[i] = id + 1;
  ix->n++;
}

static uint32_t index_get(const KitCgModule *m, const Index *ix, KeyFn key, const char *s, size_t n) {
  if (!ix || !ix->cap) return UINT32_MAX;
  uint32_t mask = ix->cap - 1, i = (uint32_t)hash_bytes(s, n) & mask;
  while (ix->slots[i]) {
    const char *k = key(m, ix->slots[i] - 1);
    if (strlen(k) == n && memcmp(k, s, n) == 0) return ix->slots[i] - 1;
    i = (i + 1) & mask;
  }
  return UINT32_MAX;
}

/* ---- module ----------------------------------------------------------------- */

KitCgModule *kit_cg_module_new(const char *name) {
  KitCgModule *m = xcalloc(1, sizeof *m);
  m->str_index = xcalloc(1, sizeof(Index));
  m->sym_index = xcalloc(1, sizeof(Index));
  kit_cg_str(m, "");
  m->name = kit_cg_str(m, name ? name : "module");
  GROW(m, m->tydescs, m->tydescs_cap, 1);
  m->ntydescs = 1;
  return m;
}

void kit_cg_module_free(KitCgModule *m) {
  if (!m) return;
  for (Chunk *c = m->arena, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  index_free(m->str_index);
  index_free(m->sym_index);
  free(m);
}

uint32_t kit_cg_strn(KitCgModule *m, const char *s, size_t n) {
  uint32_t id = index_get(m, m->str_index, str_key, s, n);
  if (id != UINT32_MAX) return id;
  char *copy = kit_cg_alloc(m, n + 1);
  memcpy(copy, s, n);
  GROW(m, m->strs, m->strs_cap, m->nstrs + 1);
  id = m->nstrs++;
  m->strs[id] = copy;
  index_put(m, m->str_index, str_key, id);
  return id;
}

uint32_t kit_cg_str(KitCgModule *m, const char *s) { return kit_cg_strn(m, s, strlen(s)); }

KitCgSym kit_cg_sym_find(const KitCgModule *m, const char *name) {
  return index_get(m, m->sym_index, sym_key, name, strlen(name));
}

static KitCgSym sym_new(KitCgModule *m, const char *name, KitCgSymKind kind) {
  GROW(m, m->syms, m->syms_cap, m->nsyms + 1);
  KitCgSym s = m->nsyms++;
  KitCgSymbol *sy = &m->syms[s];
  memset(sy, 0, sizeof *sy);
  sy->name = kit_cg_str(m, name);
  sy->kind = kind;
  sy->linkage = KIT_CG_LINK_EXTERNAL;
  index_put(m, m->sym_index, sym_key, s);
  return s;
}

KitCgFunc *kit_cg_func_declare(KitCgModule *m, const char *name, KitCgType ret, const KitCgType *params,
                               uint32_t nparams, bool variadic) {
  KitCgSym s = kit_cg_sym_find(m, name);
  if (s != UINT32_MAX && m->syms[s].kind == KIT_CG_SYM_FUNC) return kit_cg_func_of(m, s);
  if (s != UINT32_MAX) return NULL; /* the name is a global or alias */
  s = sym_new(m, name, KIT_CG_SYM_FUNC);
  KitCgFunc *f = kit_cg_alloc(m, sizeof *f);
  f->sym = s;
  f->ret[0] = (uint8_t)ret;
  f->variadic = variadic;
  f->nparams = nparams;
  f->params = kit_cg_alloc(m, sizeof(KitCgParam) * (nparams ? nparams : 1));
  GROW(m, f->vtype, f->vals_cap, nparams + 1);
  f->nvals = nparams + 1;
  for (uint32_t i = 0; i < nparams; i++) {
    f->params[i].type = (uint8_t)params[i];
    f->vtype[i + 1] = (uint8_t)params[i];
  }
  GROW(m, m->funcs, m->funcs_cap, m->nfuncs + 1);
  m->syms[s].index = m->nfuncs;
  m->funcs[m->nfuncs++] = f;
  return f;
}

void kit_cg_func_set_linkage(KitCgModule *m, KitCgFunc *f, KitCgLinkage l) { m->syms[f->sym].linkage = (uint8_t)l; }

KitCgGlobal *kit_cg_global_declare(KitCgModule *m, const char *name) {
  KitCgSym s = kit_cg_sym_find(m, name);
  if (s != UINT32_MAX) return m->syms[s].kind == KIT_CG_SYM_GLOBAL ? kit_cg_global_of(m, s) : NULL;
  s = sym_new(m, name, KIT_CG_SYM_GLOBAL);
  KitCgGlobal *g = kit_cg_alloc(m, sizeof *g);
  g->sym = s;
  g->align = 1;
  GROW(m, m->globals, m->globals_cap, m->nglobals + 1);
  m->syms[s].index = m->nglobals;
  m->globals[m->nglobals++] = g;
  return g;
}

KitCgGlobal *kit_cg_global_new(KitCgModule *m, const char *name, uint64_t size, uint32_t align) {
  KitCgGlobal *g = kit_cg_global_declare(m, name);
  if (!g) return NULL;
  g->size = size;
  g->align = align ? align : 1;
  m->syms[g->sym].defined = true;
  return g;
}

void kit_cg_global_set_init(KitCgModule *m, KitCgGlobal *g, const void *bytes, uint64_t n) {
  if (!g->init) g->init = kit_cg_alloc(m, g->size ? g->size : 1);
  if (n > g->size) n = g->size;
  memcpy(g->init, bytes, n);
}

void kit_cg_global_add_reloc(KitCgModule *m, KitCgGlobal *g, uint64_t offset, KitCgSym sym, int64_t addend,
                             unsigned size) {
  if (!g->init) g->init = kit_cg_alloc(m, g->size ? g->size : 1);
  GROW(m, g->relocs, g->relocs_cap, g->nrelocs + 1);
  g->relocs[g->nrelocs++] = (KitCgReloc){offset, sym, addend, (uint8_t)size, 0, 0};
}

void kit_cg_global_add_blockaddr(KitCgModule *m, KitCgGlobal *g, uint64_t offset, KitCgSym func, KitCgBlkId blk,
                                 KitCgBlkId blk2, int64_t addend, unsigned size) {
  kit_cg_global_add_reloc(m, g, offset, func, addend, size);
  g->relocs[g->nrelocs - 1].blk = blk;
  g->relocs[g->nrelocs - 1].blk2 = blk2;
}

KitCgSym kit_cg_alias_new(KitCgModule *m, const char *name, KitCgSym target) {
  if (kit_cg_sym_find(m, name) != UINT32_MAX) return UINT32_MAX;
  KitCgSym s = sym_new(m, name, KIT_CG_SYM_ALIAS);
  m->syms[s].index = target;
  m->syms[s].defined = true;
  return s;
}

void kit_cg_add_ctor(KitCgModule *m, KitCgSym func, int32_t priority) {
  GROW(m, m->ctors, m->ctors_cap, m->nctors + 1);
  m->ctors[m->nctors++] = (KitCgCtor){func, priority};
}

void kit_cg_add_dtor(KitCgModule *m, KitCgSym func, int32_t priority) {
  GROW(m, m->dtors, m->dtors_cap, m->ndtors + 1);
  m->dtors[m->ndtors++] = (KitCgCtor){func, priority};
}

uint32_t kit_cg_tydesc_of(KitCgModule *m, const KitCgTyDesc *want) {
  for (uint32_t i = 1; i < m->ntydescs; i++) {
    KitCgTyDesc *d = &m->tydescs[i];
    if (d->name == want->name && d->kind == want->kind && d->is_signed == want->is_signed && d->bits == want->bits &&
        d->align == want->align && d->pointee == want->pointee)
      return i;
  }
  GROW(m, m->tydescs, m->tydescs_cap, m->ntydescs + 1);
  m->tydescs[m->ntydescs] = *want;
  return m->ntydescs++;
}

/* matches on name, kind, signedness and width only: the frontend sets a
 * struct descriptor's align after making it */
uint32_t kit_cg_tydesc(KitCgModule *m, const char *name, KitCgTyKind kind, bool is_signed, unsigned bits) {
  uint32_t nm = kit_cg_str(m, name);
  for (uint32_t i = 1; i < m->ntydescs; i++) {
    KitCgTyDesc *d = &m->tydescs[i];
    if (d->name == nm && d->kind == kind && d->is_signed == is_signed && d->bits == bits) return i;
  }
  KitCgTyDesc d = {.name = nm, .kind = (uint8_t)kind, .is_signed = is_signed, .bits = (uint16_t)bits};
  GROW(m, m->tydescs, m->tydescs_cap, m->ntydescs + 1);
  m->tydescs[m->ntydescs] = d;
  return m->ntydescs++;
}

