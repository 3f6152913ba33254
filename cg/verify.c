/* cg/verify.c — the CG verifier: checks a module against the rules of
 * docs/cg-text.md and the op table (operand counts and types, block
 * structure, SSA dominance, indices in range) and names every problem by
 * function, block and inst. It reads garbage structures without crashing. */
#include "kit/cg.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* messages beyond this are counted but not written */
#define MAX_MESSAGES 1000
/* larger value spaces are reported instead of walked */
#define MAX_VALS (1u << 28)

typedef struct V {
  const KitCgModule *m;
  FILE *err;
  int n;
  const KitCgFunc *f;
  uint32_t b, i;
  const KitCgInst *in;
  /* per function */
  uint32_t *defblk, *defidx; /* UINT32_MAX = undefined; params: defblk = PARAM_BLK */
  uint32_t *pred_start, *preds; /* CSR: distinct predecessors of each block */
  uint32_t *rpo_num;            /* UINT32_MAX = unreachable */
  uint32_t *idom, *dpre, *dpost;
  uint32_t *mark, stamp; /* per-block scratch: phi checks, distinct successors */
  bool cfg_ok;
} V;

#define PARAM_BLK (UINT32_MAX - 1)
#define NONE UINT32_MAX

static const char *sname(const KitCgModule *m, KitCgSym s) {
  if (s >= m->nsyms || m->syms[s].name >= m->nstrs || !m->strs[m->syms[s].name]) return "?";
  return m->strs[m->syms[s].name];
}

static const char *fname(const V *v) { return v->f ? sname(v->m, v->f->sym) : "?"; }

static const char *tn(int t) { return t < 0 ? "?" : kit_cg_type_name((KitCgType)t); }

/* a problem about whatever v currently points at: module item, function,
 * block or inst (the prefix is set by the caller through `where`) */
static void vmsg(V *v, const char *where, const char *fmt, va_list ap) {
  v->n++;
  if (!v->err || v->n > MAX_MESSAGES) return;
  fprintf(v->err, "verify: %s", where);
  vfprintf(v->err, fmt, ap);
  fputc('\n', v->err);
}

static void modprob(V *v, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg(v, "", fmt, ap);
  va_end(ap);
}

static void funcprob(V *v, const char *fmt, ...) {
  char where[300];
  snprintf(where, sizeof where, "func @%s: ", fname(v));
  va_list ap;
  va_start(ap, fmt);
  vmsg(v, where, fmt, ap);
  va_end(ap);
}

static void blkprob(V *v, const char *fmt, ...) {
  char where[300];
  snprintf(where, sizeof where, "func @%s, block b%u: ", fname(v), v->b);
  va_list ap;
  va_start(ap, fmt);
  vmsg(v, where, fmt, ap);
  va_end(ap);
}

static void prob(V *v, const char *fmt, ...) {
  char where[340];
  unsigned op = v->in->op;
  snprintf(where, sizeof where, "func @%s, block b%u, inst %u (%s): ", fname(v), v->b, v->i,
           op < KIT_CG_NOPS ? kit_cg_op_info[op].name : "?");
  va_list ap;
  va_start(ap, fmt);
  vmsg(v, where, fmt, ap);
  va_end(ap);
}

static bool pow2_or_0(uint64_t a) { return (a & (a - 1)) == 0; }

static bool valid_type(unsigned t) { return t <= KIT_CG_VEC_MAX && kit_cg_type_valid((KitCgType)t); }

/* ---- module level ------------------------------------------------------------- */

static void check_syms(V *v) {
  const KitCgModule *m = v->m;
  if (m->name >= m->nstrs) modprob(v, "module name string %u out of range", m->name);
  for (uint32_t s = 0; s < m->nsyms; s++) {
    const KitCgSymbol *sy = &m->syms[s];
    const char *n = sname(m, s);
    if (sy->name >= m->nstrs) modprob(v, "symbol %u: name string out of range", s);
    if (sy->asm_name >= m->nstrs) modprob(v, "symbol @%s: asm name string out of range", n);
    if (sy->linkage > KIT_CG_LINK_COMMON) modprob(v, "symbol @%s: bad linkage %u", n, sy->linkage);
    if (sy->visibility > KIT_CG_VIS_PROTECTED) modprob(v, "symbol @%s: bad visibility %u", n, sy->visibility);
    switch (sy->kind) {
    case KIT_CG_SYM_FUNC:
      if (sy->index >= m->nfuncs || !m->funcs[sy->index] || m->funcs[sy->index]->sym != s)
        modprob(v, "func @%s: symbol does not point at its function", n);
      break;
    case KIT_CG_SYM_GLOBAL:
      if (sy->index >= m->nglobals || !m->globals[sy->index] || m->globals[sy->index]->sym != s)
        modprob(v, "global @%s: symbol does not point at its global", n);
      break;
    case KIT_CG_SYM_ALIAS: {
      if (sy->index >= m->nsyms) {
        modprob(v, "alias @%s: target symbol %u does not exist", n, sy->index);
        break;
      }
      uint32_t t = sy->index, steps = 0;
      while (t < m->nsyms && m->syms[t].kind == KIT_CG_SYM_ALIAS && steps++ <= m->nsyms) t = m->syms[t].index;
      if (t >= m->nsyms) modprob(v, "alias @%s: alias chain ends at a missing symbol", n);
      else if (steps > m->nsyms) modprob(v, "alias @%s: alias cycle", n);
      break;
    }
    default: modprob(v, "symbol @%s: bad kind %u", n, sy->kind);
    }
  }
}

static void check_tydescs(V *v) {
  const KitCgModule *m = v->m;
  for (uint32_t i = 1; i < m->ntydescs; i++) {
    const KitCgTyDesc *d = &m->tydescs[i];
    if (d->name >= m->nstrs) modprob(v, "tydesc %u: name string out of range", i);
    if (d->kind > KIT_CG_TD_OTHER) modprob(v, "tydesc %u: bad kind %u", i, d->kind);
    if (d->pointee >= m->ntydescs) modprob(v, "tydesc %u: pointee tydesc %u out of range", i, d->pointee);
  }
}

/* a block-address relocation names blocks of a function defined here */
static void check_blockreloc(V *v, const char *n, uint32_t r, const KitCgReloc *rl) {
  const KitCgModule *m = v->m;
  const KitCgSymbol *sy = &m->syms[rl->sym];
  if (sy->kind != KIT_CG_SYM_FUNC || sy->index >= m->nfuncs || !m->funcs[sy->index] ||
      kit_cg_func_is_decl(m->funcs[sy->index])) {
    modprob(v, "global @%s: reloc %u takes a block address of @%s, which is not a function defined here", n, r,
            sname(m, rl->sym));
    return;
  }
  uint32_t nb = m->funcs[sy->index]->nblocks;
  if (!rl->blk) modprob(v, "global @%s: reloc %u subtracts a block address from no block address", n, r);
  if (rl->blk >= nb || rl->blk2 >= nb)
    modprob(v, "global @%s: reloc %u names block b%u of @%s, which has %u blocks", n, r,
            rl->blk >= nb ? rl->blk : rl->blk2, sname(m, rl->sym), nb);
}

/* ---- debug info ---------------------------------------------------------- */

static bool ditype_ok(const KitCgModule *m, uint32_t t) { return t < m->nditypes || (!t && !m->nditypes); }

/* Only a pointer or a struct/union may close a cycle of types: the others
 * (typedef, qualifier, array, enum, function) would describe themselves. */
static bool ditype_cycles(const KitCgModule *m, uint32_t i) {
  uint32_t t = i;
  for (uint32_t steps = 0; steps <= m->nditypes; steps++) {
    const KitCgDiType *d = &m->ditypes[t];
    if (d->kind == KIT_CG_DI_POINTER || d->kind == KIT_CG_DI_STRUCT || d->kind == KIT_CG_DI_UNION || !d->base ||
        d->base >= m->nditypes)
      return false;
    t = d->base;
  }
  return true;
}

static void check_ditypes(V *v) {
  const KitCgModule *m = v->m;
  for (uint32_t i = 1; i < m->nditypes && m->ditypes; i++) {
    const KitCgDiType *d = &m->ditypes[i];
    if (d->kind >= KIT_CG_DI_NKINDS) {
      modprob(v, "ditype %u: bad kind %u", i, d->kind);
      continue;
    }
    if (d->name >= m->nstrs) modprob(v, "ditype %u: name string out of range", i);
    if (d->loc.file >= m->nstrs) modprob(v, "ditype %u: location file string out of range", i);
    if (d->base >= m->nditypes) modprob(v, "ditype %u: base ditype %u out of range", i, d->base);
    else if (ditype_cycles(m, i))
      modprob(v, "ditype %u: describes itself (a cycle not through a pointer or struct)", i);
    /* a typedef or qualifier of 0 names void; an array needs its element */
    if (d->kind == KIT_CG_DI_ARRAY && !d->base) modprob(v, "ditype %u: array without an element type", i);
    if (d->kind == KIT_CG_DI_BASE) {
      bool enc = false;
      for (unsigned e = KIT_CG_ATE_BOOLEAN; e <= KIT_CG_ATE_UNSIGNED_CHAR; e++) enc |= d->encoding == e;
      enc |= d->encoding == KIT_CG_ATE_LO_USER;
      if (!enc) modprob(v, "ditype %u: bad base type encoding %u", i, d->encoding);
      if (!d->size) modprob(v, "ditype %u: base type of size 0", i);
    }
    if (d->align && !pow2_or_0(d->align)) modprob(v, "ditype %u: alignment %u is not a power of two", i, d->align);
    bool has_members = d->kind == KIT_CG_DI_STRUCT || d->kind == KIT_CG_DI_UNION || d->kind == KIT_CG_DI_ENUM ||
                       d->kind == KIT_CG_DI_FUNC;
    if (d->nmembers && (!has_members || !d->members)) modprob(v, "ditype %u: members on a kind that has none", i);
    for (uint32_t k = 0; has_members && d->members && k < d->nmembers; k++) {
      const KitCgDiMember *mb = &d->members[k];
      if (mb->name >= m->nstrs) modprob(v, "ditype %u: member %u name string out of range", i, k);
      if (mb->type >= m->nditypes) modprob(v, "ditype %u: member %u ditype %u out of range", i, k, mb->type);
      bool typed = d->kind != KIT_CG_DI_ENUM;
      if (typed && !mb->type) modprob(v, "ditype %u: member %u has no type", i, k);
      if (mb->bit_size > 64 || (mb->bit_size && d->kind != KIT_CG_DI_STRUCT && d->kind != KIT_CG_DI_UNION))
        modprob(v, "ditype %u: member %u has a bad bit-field width %u", i, k, mb->bit_size);
      uint64_t width = mb->bit_size ? mb->bit_size : mb->type < m->nditypes ? m->ditypes[mb->type].size * 8 : 0;
      uint64_t end = mb->offset_bits + width;
      if ((d->kind == KIT_CG_DI_STRUCT || d->kind == KIT_CG_DI_UNION) && !(d->flags & KIT_CG_DIF_DECL) &&
          (mb->offset_bits > d->size * 8 || end > d->size * 8))
        modprob(v, "ditype %u: member %u at bit %llu lies outside the %llu-byte type", i, k,
                (unsigned long long)mb->offset_bits, (unsigned long long)d->size);
    }
  }
}

/* the variables of f and its ditype */
static void check_divars(V *v, const KitCgFunc *f) {
  const KitCgModule *m = v->m;
  if (!ditype_ok(m, f->ditype) || (f->ditype && m->ditypes[f->ditype].kind != KIT_CG_DI_FUNC))
    funcprob(v, "ditype %u is not a function type", f->ditype);
  for (uint32_t i = 0; i < f->ndivars && f->divars; i++) {
    const KitCgDiVar *dv = &f->divars[i];
    if (dv->name >= m->nstrs) funcprob(v, "dvar %u: name string out of range", i);
    if (!dv->type || !ditype_ok(m, dv->type)) funcprob(v, "dvar %u: ditype %u out of range", i, dv->type);
    if (dv->loc.file >= m->nstrs) funcprob(v, "dvar %u: location file string out of range", i);
    if (dv->at == KIT_CG_DV_STACK && dv->where >= f->nstack)
      funcprob(v, "dvar %u: stack object $%u out of range", i, dv->where);
    else if (dv->at == KIT_CG_DV_VALUE &&
             (!dv->where || dv->where > f->nparams || f->params[dv->where - 1].type != KIT_CG_PTR))
      funcprob(v, "dvar %u: %%%u is not a pointer parameter", i, dv->where);
    else if (dv->at > KIT_CG_DV_VALUE) funcprob(v, "dvar %u: bad location kind %u", i, dv->at);
    for (uint32_t k = 0; k < i && dv->arg; k++)
      if (f->divars[k].arg == dv->arg) funcprob(v, "dvar %u: parameter %u described twice", i, dv->arg);
  }
}

static void check_globals(V *v) {
  const KitCgModule *m = v->m;
  for (uint32_t i = 0; i < m->nglobals; i++) {
    const KitCgGlobal *g = m->globals[i];
    if (!g) {
      modprob(v, "global %u is missing", i);
      continue;
    }
    const char *n = sname(m, g->sym);
    if (g->sym >= m->nsyms || m->syms[g->sym].kind != KIT_CG_SYM_GLOBAL)
      modprob(v, "global %u: symbol %u is not a global", i, g->sym);
    if (!g->align || !pow2_or_0(g->align)) modprob(v, "global @%s: alignment %u is not a power of two", n, g->align);
    if (g->section >= m->nstrs) modprob(v, "global @%s: section string out of range", n);
    if (g->tydesc >= m->ntydescs) modprob(v, "global @%s: tydesc %u out of range", n, g->tydesc);
    if (!ditype_ok(m, g->ditype)) modprob(v, "global @%s: ditype %u out of range", n, g->ditype);
    if (g->diname >= m->nstrs) modprob(v, "global @%s: debug name string out of range", n);
    if (g->loc.file >= m->nstrs) modprob(v, "global @%s: location file string out of range", n);
    if (g->nrelocs && !g->init) modprob(v, "global @%s: relocations without an initializer", n);
    for (uint32_t r = 0; r < g->nrelocs && g->relocs; r++) {
      const KitCgReloc *rl = &g->relocs[r];
      if (rl->size != 4 && rl->size != 8) modprob(v, "global @%s: reloc %u has size %u (4 or 8)", n, r, rl->size);
      if (rl->offset > g->size || g->size - rl->offset < rl->size)
        modprob(v, "global @%s: reloc %u at offset %llu does not fit the global's size %llu", n, r,
                (unsigned long long)rl->offset, (unsigned long long)g->size);
      if (rl->sym >= m->nsyms) modprob(v, "global @%s: reloc %u names symbol %u, which does not exist", n, r, rl->sym);
      if ((rl->blk || rl->blk2) && rl->sym < m->nsyms) check_blockreloc(v, n, r, rl);
    }
  }
}

static void check_ctors(V *v, const KitCgCtor *c, uint32_t n, const char *what) {
  for (uint32_t i = 0; i < n; i++) {
    KitCgSym s = c[i].func;
    uint32_t steps = 0;
    while (s < v->m->nsyms && v->m->syms[s].kind == KIT_CG_SYM_ALIAS && steps++ < v->m->nsyms) s = v->m->syms[s].index;
    if (s >= v->m->nsyms || v->m->syms[s].kind != KIT_CG_SYM_FUNC)
      modprob(v, "%s %u: symbol %u is not a function", what, i, c[i].func);
  }
}

/* ---- function bodies: operands ------------------------------------------------- */

/* the type of operand k, or -1 after reporting why it has none */
static int opnd(V *v, uint32_t k) {
  const KitCgInst *in = v->in;
  KitCgVal x = in->args[k];
  const KitCgFunc *f = v->f;
  if (x == 0 || x >= f->nvals) {
    prob(v, "operand %u: value %%%u is not defined", k, x);
    return -1;
  }
  if (v->defblk[x] == NONE) {
    prob(v, "operand %u: value %%%u is not defined", k, x);
    return -1;
  }
  return f->vtype[x];
}

static void want(V *v, uint32_t k, int t, int ty) {
  if (t >= 0 && t != ty) prob(v, "operand %u (%%%u) is %s, expected %s", k, v->in->args[k], tn(t), tn(ty));
}

static void want_int(V *v, uint32_t k, int t) {
  if (t >= 0 && !kit_cg_type_is_int((KitCgType)t))
    prob(v, "operand %u (%%%u) is %s, expected an integer", k, v->in->args[k], tn(t));
}

static void want_float(V *v, uint32_t k, int t) {
  if (t >= 0 && !kit_cg_type_is_float((KitCgType)t))
    prob(v, "operand %u (%%%u) is %s, expected a float", k, v->in->args[k], tn(t));
}

static void want_result(V *v, bool ok, const char *what) {
  if (!ok) prob(v, "result type %s is not %s", tn(v->in->type), what);
}

static bool intlike(int t) { return t >= 0 && (kit_cg_type_is_int((KitCgType)t) || t == KIT_CG_PTR); }

/* splat, extract, insert, shuffle (see cg_ops.def) */
static void check_vector_op(V *v, const int *ty) {
  const KitCgInst *in = v->in;
  KitCgType t = (KitCgType)in->type;
  bool tv = kit_cg_type_is_vec(t);
  switch (in->op) {
  case KIT_CG_OP_SPLAT:
    want_result(v, tv, "a vector");
    if (tv) want(v, 0, ty[0], kit_cg_type_elem(t));
    break;
  case KIT_CG_OP_EXTRACT:
    if (ty[0] >= 0 && !kit_cg_type_is_vec((KitCgType)ty[0])) prob(v, "extract from %s, not a vector", tn(ty[0]));
    else if (ty[0] >= 0) want_result(v, t == kit_cg_type_elem((KitCgType)ty[0]), "the vector's element type");
    want_int(v, 1, ty[1]);
    break;
  case KIT_CG_OP_INSERT:
    want_result(v, tv, "a vector");
    want(v, 0, ty[0], t);
    if (tv) want(v, 1, ty[1], kit_cg_type_elem(t));
    want_int(v, 2, ty[2]);
    break;
  default: /* SHUFFLE */
    want_result(v, tv, "a vector");
    if (ty[0] >= 0 && (!kit_cg_type_is_vec((KitCgType)ty[0]) || kit_cg_type_elem((KitCgType)ty[0]) != kit_cg_type_elem(t)))
      prob(v, "shuffle of %s into %s", tn(ty[0]), tn(t));
    want(v, 1, ty[1], ty[0]);
    if (!in->cases) {
      prob(v, "shuffle without a lane list");
      break;
    }
    for (unsigned i = 0; tv && ty[0] >= 0 && i < kit_cg_type_lanes(t); i++)
      if (in->cases[i] < 0 || in->cases[i] >= 2 * (int64_t)kit_cg_type_lanes((KitCgType)ty[0])) {
        prob(v, "shuffle lane %u takes lane %lld of two %s", i, (long long)in->cases[i], tn(ty[0]));
        break;
      }
    break;
  }
}

static void check_conv(V *v, int s) {
  const KitCgInst *in = v->in;
  int t = in->type;
  if (s < 0) return;
  if (in->op == KIT_CG_OP_BITCAST && (kit_cg_type_is_vec((KitCgType)s) || kit_cg_type_is_vec((KitCgType)t))) {
    if (kit_cg_type_bits((KitCgType)s) != kit_cg_type_bits((KitCgType)t) || s == KIT_CG_PTR || t == KIT_CG_PTR ||
        s == KIT_CG_F80 || t == KIT_CG_F80)
      prob(v, "cannot convert %s to %s (bitcast keeps the width)", tn(s), tn(t));
    return;
  }
  if (kit_cg_type_is_vec((KitCgType)s) || kit_cg_type_is_vec((KitCgType)t)) {
    if (kit_cg_type_lanes((KitCgType)s) != kit_cg_type_lanes((KitCgType)t) || !kit_cg_type_is_vec((KitCgType)s) ||
        !kit_cg_type_is_vec((KitCgType)t)) {
      prob(v, "cannot convert %s to %s (lane by lane: same lane count)", tn(s), tn(t));
      return;
    }
    s = kit_cg_type_elem((KitCgType)s); /* the lanes follow the scalar rules below */
    t = kit_cg_type_elem((KitCgType)t);
  }
  unsigned sb = kit_cg_type_bits((KitCgType)s), tb = kit_cg_type_bits((KitCgType)t);
  bool si = kit_cg_type_is_int((KitCgType)s), ti = kit_cg_type_is_int((KitCgType)t);
  bool sf = kit_cg_type_is_float((KitCgType)s), tf = kit_cg_type_is_float((KitCgType)t);
  bool ok = true;
  const char *rule = "";
  switch (in->op) {
  case KIT_CG_OP_TRUNC: ok = si && ti && tb < sb, rule = "trunc narrows an integer"; break;
  case KIT_CG_OP_ZEXT:
  case KIT_CG_OP_SEXT: ok = si && ti && tb > sb, rule = "extension widens an integer"; break;
  case KIT_CG_OP_FPTRUNC: ok = sf && tf && tb < sb, rule = "fptrunc narrows a float"; break;
  case KIT_CG_OP_FPEXT: ok = sf && tf && tb > sb, rule = "fpext widens a float"; break;
  case KIT_CG_OP_FPTOSI:
  case KIT_CG_OP_FPTOUI: ok = sf && ti, rule = "float to integer"; break;
  case KIT_CG_OP_SITOFP:
  case KIT_CG_OP_UITOFP: ok = si && tf, rule = "integer to float"; break;
  case KIT_CG_OP_PTRTOINT: ok = s == KIT_CG_PTR && ti, rule = "ptr to integer"; break;
  case KIT_CG_OP_INTTOPTR: ok = si && t == KIT_CG_PTR, rule = "integer to ptr"; break;
  case KIT_CG_OP_BITCAST: ok = valid_type((unsigned)t) && sb == tb && s != t, rule = "bitcast keeps the width"; break;
  }
  if (!ok) prob(v, "cannot convert %s to %s (%s)", tn(s), tn(t), rule);
}

/* the callee a direct call reaches, following aliases; NULL if not a function */
static const KitCgFunc *callee_of(V *v, KitCgSym s) {
  const KitCgModule *m = v->m;
  uint32_t steps = 0;
  while (s < m->nsyms && m->syms[s].kind == KIT_CG_SYM_ALIAS && steps++ < m->nsyms) s = m->syms[s].index;
  if (s >= m->nsyms || m->syms[s].kind != KIT_CG_SYM_FUNC || m->syms[s].index >= m->nfuncs) return NULL;
  return m->funcs[m->syms[s].index];
}

static void check_call(V *v, int *ty, uint32_t first) {
  const KitCgInst *in = v->in;
  uint32_t n = in->nargs - first;
  if (in->flags & KIT_CG_F_VARARGS && in->imm > n)
    prob(v, "%llu fixed arguments declared but only %u passed", (unsigned long long)in->imm, n);
  if (in->type2 && !valid_type(in->type2)) prob(v, "bad second result type %u", in->type2);
  if (in->type2 && in->type == KIT_CG_VOID) prob(v, "second result without a first");
  for (uint32_t k = first; k < in->nargs; k++)
    if (ty[k] == KIT_CG_VOID) prob(v, "argument %u is void", k - first);
  for (uint32_t k = first; in->argattrs && k < in->nargs; k++) {
    const KitCgParam *pa = &in->argattrs[k - first];
    if ((pa->attrs & (KIT_CG_PA_BYVAL | KIT_CG_PA_SRET)) && ty[k] >= 0 && ty[k] != KIT_CG_PTR)
      prob(v, "argument %u is byval or sret but %s, not ptr", k - first, tn(ty[k]));
    if (ty[k] >= 0 && pa->type != ty[k])
      prob(v, "argument %u is %s, its call-site attributes say %s", k - first, tn(ty[k]), tn(pa->type));
  }
  if (in->op != KIT_CG_OP_CALL) return;
  if (in->aux >= v->m->nsyms) {
    prob(v, "callee symbol %u does not exist", in->aux);
    return;
  }
  const KitCgFunc *c = callee_of(v, in->aux);
  if (!c) {
    prob(v, "callee @%s is not a function", sname(v->m, in->aux));
    return;
  }
  const char *cn = sname(v->m, in->aux);
  if (c->variadic ? n < c->nparams : n != c->nparams)
    prob(v, "@%s takes %s%u arguments, %u passed", cn, c->variadic ? "at least " : "", c->nparams, n);
  if (c->variadic && (!(in->flags & KIT_CG_F_VARARGS) || in->imm != c->nparams))
    prob(v, "call to variadic @%s must mark its %u fixed arguments ('...')", cn, c->nparams);
  if (!c->variadic && (in->flags & KIT_CG_F_VARARGS)) prob(v, "'...' in a call to non-variadic @%s", cn);
  for (uint32_t k = 0; k < n && k < c->nparams; k++)
    if (ty[first + k] >= 0 && ty[first + k] != c->params[k].type)
      prob(v, "argument %u (%%%u) is %s, @%s expects %s", k, in->args[first + k], tn(ty[first + k]), cn,
           tn(c->params[k].type));
  if (in->type != c->ret[0] || in->type2 != c->ret[1])
    prob(v, "call returns %s%s%s but @%s returns %s%s%s", tn(in->type), in->type2 ? ", " : "",
         in->type2 ? tn(in->type2) : "", cn, tn(c->ret[0]), c->ret[1] ? ", " : "", c->ret[1] ? tn(c->ret[1]) : "");
}

static void check_phi(V *v, int *ty) {
  const KitCgInst *in = v->in;
  if (in->nargs != in->nblks) {
    prob(v, "%u values but %u incoming blocks", in->nargs, in->nblks);
    return;
  }
  for (uint32_t k = 0; k < in->nargs; k++) want(v, k, ty[k], in->type);
  if (!v->cfg_ok) return;
  uint32_t np = v->pred_start[v->b + 1] - v->pred_start[v->b];
  const uint32_t *pr = v->preds + v->pred_start[v->b];
  /* mark[] holds `pred` for a predecessor, `pred + 1` once it has a value */
  if (v->stamp > UINT32_MAX - 4) {
    memset(v->mark, 0, v->f->nblocks * sizeof *v->mark);
    v->stamp = 0;
  }
  uint32_t pred = v->stamp += 2;
  for (uint32_t j = 0; j < np; j++) v->mark[pr[j]] = pred;
  for (uint32_t k = 0; k < in->nblks; k++) {
    uint32_t from = in->blks[k];
    if (from >= v->f->nblocks || v->mark[from] < pred) prob(v, "incoming block b%u is not a predecessor", from);
    else if (v->mark[from] == pred + 1) prob(v, "two incoming values from b%u", from);
    else v->mark[from] = pred + 1;
  }
  for (uint32_t j = 0; j < np; j++)
    if (v->mark[pr[j]] == pred) prob(v, "no incoming value from predecessor b%u", pr[j]);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void check_switch(V *v, int t) {
  const KitCgInst *in = v->in;
  if (t >= 0 && !kit_cg_type_is_int((KitCgType)t)) prob(v, "switch on %s, expected an integer", tn(t));
  if (in->nblks < 1) {
    prob(v, "switch without a default block");
    return;
  }
  if (in->nblks > 1 && !in->cases) {
    prob(v, "case values missing");
    return;
  }
  uint32_t nc = in->nblks - 1;
  /* sort a copy to find duplicates in n log n: lifted jump tables can be large */
  int64_t *c = malloc((nc ? nc : 1) * sizeof *c);
  if (!c) return;
  if (nc) memcpy(c, in->cases, nc * sizeof *c);
  qsort(c, nc, sizeof *c, cmp_i64);
  for (uint32_t k = 1; k < nc; k++)
    if (c[k] == c[k - 1] && (k < 2 || c[k - 2] != c[k])) prob(v, "case value %lld appears twice", (long long)c[k]);
  free(c);
}

static void check_ret(V *v, int *ty) {
  const KitCgInst *in = v->in;
  const KitCgFunc *f = v->f;
  uint32_t want_n = f->ret[0] == KIT_CG_VOID ? 0 : f->ret[1] == KIT_CG_VOID ? 1 : 2;
  if (in->nargs != want_n) {
    prob(v, "returns %u values, the function returns %u", in->nargs, want_n);
    return;
  }
  for (uint32_t k = 0; k < in->nargs; k++) want(v, k, ty[k], f->ret[k]);
}

/* inline asm: its strings, one operand per operand entry of the constraint
 * string with its type, the labels of asm.goto */
static void check_asm(V *v, int *ty) {
  const KitCgInst *in = v->in;
  const KitCgModule *m = v->m;
  want_result(v, in->type == KIT_CG_VOID, "void");
  if (in->aux >= m->nstrs || in->imm >= m->nstrs) {
    prob(v, "asm template or constraint string out of range");
    return;
  }
  uint8_t kb[16], *kinds = kb;
  int n = kit_cg_asm_entries(m->strs[in->imm], kb, 16);
  if (n < 0) {
    prob(v, "malformed asm constraint string \"%s\"", m->strs[in->imm]);
    return;
  }
  if (n > 16 && !(kinds = malloc((size_t)n))) return;
  if (n > 16) kit_cg_asm_entries(m->strs[in->imm], kinds, n);
  uint32_t k = 0, labels = 0;
  bool outs = false;
  for (int e = 0; e < n; e++) {
    labels += kinds[e] == KIT_CG_ASM_LABEL;
    outs |= kinds[e] == KIT_CG_ASM_OUT;
    if (!kit_cg_asm_takes_arg(kinds[e])) continue;
    if (k < in->nargs && in->argattrs) {
      int et = in->argattrs[k].type;
      if (kinds[e] == KIT_CG_ASM_IN) {
        if (et != KIT_CG_VOID) prob(v, "asm operand %u is a value: its type is its own, not %s", k, tn(et));
      } else {
        want(v, k, ty[k], KIT_CG_PTR);
        if (!valid_type((unsigned)et)) prob(v, "asm operand %u needs the type it stores or points to", k);
      }
    }
    k++;
  }
  if (k != in->nargs) prob(v, "asm constraints take %u operands, has %u", k, in->nargs);
  else if (in->nargs && !in->argattrs) prob(v, "asm operand types missing");
  bool go = in->op == KIT_CG_OP_ASMGOTO;
  if (!go && labels) prob(v, "asm with labels ('!i') must be asm.goto");
  if (go && in->nblks != labels + 1) prob(v, "asm.goto needs a fallthrough and %u labels, has %u blocks", labels, in->nblks);
  if (go && outs && in->nblks && in->blks[0] < v->f->nblocks) {
    const KitCgBlock *ft = &v->f->blocks[in->blks[0]];
    if (ft->ninsts && ft->insts && ft->insts[0].op == KIT_CG_OP_PHI)
      prob(v, "the fallthrough block of an asm.goto with outputs cannot start with a phi");
    for (uint32_t i = 1; i < in->nblks; i++)
      if (in->blks[i] == in->blks[0]) prob(v, "the fallthrough block of an asm.goto with outputs is also a label");
  }
  if (kinds != kb) free(kinds);
}

static bool check_order(V *v) {
  if (v->in->pred > KIT_CG_SEQCST) {
    prob(v, "bad atomic ordering %u", v->in->pred);
    return false;
  }
  return true;
}

static void check_inst(V *v) {
  const KitCgInst *in = v->in;
  const KitCgModule *m = v->m;
  const KitCgFunc *f = v->f;
  const KitCgOpInfo *oi = &kit_cg_op_info[in->op];
  int T = in->type;
  if (oi->nargs >= 0 && in->nargs != (uint32_t)oi->nargs) {
    prob(v, "expects %d operands, has %u", oi->nargs, in->nargs);
    return;
  }
  if (in->nargs && !in->args) {
    prob(v, "operand array missing");
    return;
  }
  if (in->nblks && !in->blks) {
    prob(v, "block array missing");
    return;
  }
  if (in->tydesc >= m->ntydescs) prob(v, "tydesc %u out of range", in->tydesc);
  if (in->loc.file >= m->nstrs) prob(v, "location file string %u out of range", in->loc.file);
  if ((oi->flags & KIT_CGO_MEM) && in->cls > KIT_CG_INTERNAL) prob(v, "bad access class %u", in->cls);
  if (in->type2 && in->op != KIT_CG_OP_CALL && in->op != KIT_CG_OP_CALLI) prob(v, "second result on a non-call");
  for (uint32_t k = 0; k < in->nblks; k++)
    if (in->blks[k] >= f->nblocks) prob(v, "block b%u out of range (function has %u blocks)", in->blks[k], f->nblocks);
  int tyb[8], *ty = tyb;
  if (in->nargs > 8 && !(ty = malloc(in->nargs * sizeof *ty))) return;
  for (uint32_t k = 0; k < in->nargs; k++) ty[k] = opnd(v, k);

  uint32_t op = in->op;
  if ((oi->flags & KIT_CGO_BIN) || op == KIT_CG_OP_FCOPYSIGN || op == KIT_CG_OP_FMA ||
      ((oi->flags & (KIT_CGO_INT | KIT_CGO_FLT)) && oi->nargs == 1 && !(oi->flags & KIT_CGO_CMP))) {
    bool isf = oi->flags & KIT_CGO_FLT;
    KitCgType e = kit_cg_type_elem((KitCgType)T);
    want_result(v, isf ? kit_cg_type_is_float(e) : kit_cg_type_is_int(e), isf ? "a float" : "an integer");
    for (uint32_t k = 0; k < in->nargs; k++)
      if (ty[k] >= 0 && ty[k] != T) {
        prob(v, "operand types differ (%s vs %s)", tn(T), tn(ty[k]));
        break;
      }
    if (op == KIT_CG_OP_BSWAP && (kit_cg_type_bits(e) % 16 || T == KIT_CG_VOID))
      prob(v, "bswap needs i16, i32, i64 or i128, not %s", tn(T));
  } else if (oi->flags & KIT_CGO_CONV) {
    if (!valid_type((unsigned)T)) want_result(v, false, "a value type");
    else check_conv(v, ty[0]);
  } else {
    switch (op) {
    case KIT_CG_OP_CONST:
      want_result(v, valid_type((unsigned)T) && !kit_cg_type_is_vec((KitCgType)T), "a scalar type");
      if (kit_cg_type_is_int((KitCgType)T) && T != KIT_CG_I128 && T != KIT_CG_I64 &&
          (in->imm >> kit_cg_type_bits((KitCgType)T)))
        prob(v, "constant 0x%llx does not fit %s", (unsigned long long)in->imm, tn(T));
      break;
    case KIT_CG_OP_SYMADDR:
      want_result(v, T == KIT_CG_PTR, "ptr");
      if (in->aux >= m->nsyms) prob(v, "symbol %u does not exist", in->aux);
      break;
    case KIT_CG_OP_STACKADDR:
      want_result(v, T == KIT_CG_PTR, "ptr");
      /* fallthrough */
    case KIT_CG_OP_LIFETIME_START:
    case KIT_CG_OP_LIFETIME_END:
      if (in->aux >= f->nstack) prob(v, "stack object $%u out of range (function has %u)", in->aux, f->nstack);
      break;
    case KIT_CG_OP_PARAM:
      if (in->aux >= f->nparams) prob(v, "parameter %u out of range", in->aux);
      else if (T != f->params[in->aux].type) prob(v, "parameter %u is %s, not %s", in->aux, tn(f->params[in->aux].type), tn(T));
      break;
    case KIT_CG_OP_SADDO: case KIT_CG_OP_UADDO: case KIT_CG_OP_SSUBO:
    case KIT_CG_OP_USUBO: case KIT_CG_OP_SMULO: case KIT_CG_OP_UMULO:
      want_result(v, T == KIT_CG_I1, "i1");
      want_int(v, 0, ty[0]);
      if (ty[0] >= 0 && ty[1] >= 0 && ty[0] != ty[1]) prob(v, "operand types differ (%s vs %s)", tn(ty[0]), tn(ty[1]));
      break;
    case KIT_CG_OP_ICMP:
    case KIT_CG_OP_FCMP: {
      bool isf = op == KIT_CG_OP_FCMP;
      if (ty[0] >= 0 && kit_cg_type_is_vec((KitCgType)ty[0])) {
        want_result(v, T == (int)kit_cg_vec_int((KitCgType)ty[0]), "the integer vector of the operands' shape");
        ty[0] = kit_cg_type_elem((KitCgType)ty[0]);
        ty[1] = ty[1] >= 0 ? (int)kit_cg_type_elem((KitCgType)ty[1]) : ty[1];
      } else {
        want_result(v, T == KIT_CG_I1, "i1");
      }
      if (isf ? (in->pred < KIT_CG_FOEQ || in->pred > KIT_CG_FUNO) : in->pred > KIT_CG_UGE)
        prob(v, "predicate %u is not a%s predicate", in->pred, isf ? " float" : "n integer");
      if (ty[0] >= 0 && ty[1] >= 0 && ty[0] != ty[1]) prob(v, "operand types differ (%s vs %s)", tn(ty[0]), tn(ty[1]));
      if (isf) want_float(v, 0, ty[0]);
      else if (ty[0] >= 0 && !intlike(ty[0])) prob(v, "icmp on %s, expected an integer or ptr", tn(ty[0]));
      break;
    }
    case KIT_CG_OP_SPLAT: case KIT_CG_OP_EXTRACT: case KIT_CG_OP_INSERT: case KIT_CG_OP_SHUFFLE:
      check_vector_op(v, ty);
      break;
    case KIT_CG_OP_SELECT:
      want_result(v, valid_type((unsigned)T), "a value type");
      want(v, 0, ty[0], KIT_CG_I1);
      want(v, 1, ty[1], T);
      want(v, 2, ty[2], T);
      break;
    case KIT_CG_OP_LOAD:
    case KIT_CG_OP_VAARG:
      want_result(v, valid_type((unsigned)T), "a value type");
      want(v, 0, ty[0], KIT_CG_PTR);
      break;
    case KIT_CG_OP_STORE:
      if (ty[0] == KIT_CG_VOID) prob(v, "storing a void value");
      want(v, 1, ty[1], KIT_CG_PTR);
      break;
    case KIT_CG_OP_PTRADD:
      want_result(v, T == KIT_CG_PTR, "ptr");
      want(v, 0, ty[0], KIT_CG_PTR);
      want(v, 1, ty[1], KIT_CG_I64);
      break;
    case KIT_CG_OP_MEMCPY:
    case KIT_CG_OP_MEMMOVE:
    case KIT_CG_OP_MEMSET:
      want(v, 0, ty[0], KIT_CG_PTR);
      want(v, 1, ty[1], op == KIT_CG_OP_MEMSET ? KIT_CG_I8 : KIT_CG_PTR);
      want(v, 2, ty[2], KIT_CG_I64);
      break;
    case KIT_CG_OP_ALOAD:
      want_result(v, intlike(T), "an integer or ptr");
      want(v, 0, ty[0], KIT_CG_PTR);
      if (check_order(v) && (in->pred == KIT_CG_RELEASE || in->pred == KIT_CG_ACQREL))
        prob(v, "an atomic load cannot have %s ordering", kit_cg_order_name((KitCgOrder)in->pred));
      break;
    case KIT_CG_OP_ASTORE:
      if (ty[0] >= 0 && !intlike(ty[0])) prob(v, "atomic store of %s, expected an integer or ptr", tn(ty[0]));
      want(v, 1, ty[1], KIT_CG_PTR);
      if (check_order(v) && (in->pred == KIT_CG_ACQUIRE || in->pred == KIT_CG_ACQREL))
        prob(v, "an atomic store cannot have %s ordering", kit_cg_order_name((KitCgOrder)in->pred));
      break;
    case KIT_CG_OP_ARMW:
      want_result(v, in->aux == KIT_CG_RMW_XCHG ? intlike(T) : kit_cg_type_is_int((KitCgType)T),
                  in->aux == KIT_CG_RMW_XCHG ? "an integer or ptr" : "an integer");
      if (in->aux > KIT_CG_RMW_UMIN) prob(v, "bad atomic.rmw operation %u", in->aux);
      want(v, 0, ty[0], KIT_CG_PTR);
      want(v, 1, ty[1], T);
      check_order(v);
      break;
    case KIT_CG_OP_ACMPXCHG:
      want_result(v, intlike(T), "an integer or ptr");
      want(v, 0, ty[0], KIT_CG_PTR);
      want(v, 1, ty[1], T);
      want(v, 2, ty[2], T);
      check_order(v);
      break;
    case KIT_CG_OP_FENCE: check_order(v); break;
    case KIT_CG_OP_CALL:
      check_call(v, ty, 0);
      break;
    case KIT_CG_OP_CALLI:
      if (in->nargs < 1) {
        prob(v, "calli without a callee operand");
        break;
      }
      want(v, 0, ty[0], KIT_CG_PTR);
      check_call(v, ty, 1);
      break;
    case KIT_CG_OP_SECOND: {
      KitCgVal x = in->args[0];
      if (ty[0] < 0) break;
      uint32_t db = v->defblk[x];
      const KitCgInst *d = db < f->nblocks ? &f->blocks[db].insts[v->defidx[x]] : NULL;
      if (!d || (d->op != KIT_CG_OP_CALL && d->op != KIT_CG_OP_CALLI) || !d->type2)
        prob(v, "second of %%%u, which is not a two-result call", x);
      else if (d->type2 != T) prob(v, "second result is %s, not %s", tn(d->type2), tn(T));
      break;
    }
    case KIT_CG_OP_VASTART:
      if (!f->variadic) prob(v, "va.start in a function that is not variadic");
      /* fallthrough */
    case KIT_CG_OP_VAEND: want(v, 0, ty[0], KIT_CG_PTR); break;
    case KIT_CG_OP_VACOPY:
      want(v, 0, ty[0], KIT_CG_PTR);
      want(v, 1, ty[1], KIT_CG_PTR);
      break;
    case KIT_CG_OP_ALLOCA:
      want_result(v, T == KIT_CG_PTR, "ptr");
      want(v, 0, ty[0], KIT_CG_I64);
      if (!pow2_or_0(in->imm)) prob(v, "alignment %llu is not a power of two", (unsigned long long)in->imm);
      break;
    case KIT_CG_OP_STACKRESTORE: want(v, 0, ty[0], KIT_CG_PTR); break;
    case KIT_CG_OP_STACKSAVE:
    case KIT_CG_OP_FRAMEADDR:
    case KIT_CG_OP_RETADDR: want_result(v, T == KIT_CG_PTR, "ptr"); break;
    case KIT_CG_OP_PHI:
      want_result(v, valid_type((unsigned)T), "a value type");
      check_phi(v, ty);
      break;
    case KIT_CG_OP_BR:
      if (in->nblks != 1) prob(v, "br needs 1 target, has %u", in->nblks);
      break;
    case KIT_CG_OP_CONDBR:
      want(v, 0, ty[0], KIT_CG_I1);
      if (in->nblks != 2) prob(v, "condbr needs 2 targets, has %u", in->nblks);
      break;
    case KIT_CG_OP_SWITCH: check_switch(v, ty[0]); break;
    case KIT_CG_OP_BLOCKADDR:
      want_result(v, T == KIT_CG_PTR, "ptr");
      if (in->nblks != 1) prob(v, "blockaddr needs 1 block, has %u", in->nblks);
      else if (in->blks[0] == 0) prob(v, "the entry block has no address");
      break;
    case KIT_CG_OP_INDIRECTBR: want(v, 0, ty[0], KIT_CG_PTR); break;
    case KIT_CG_OP_ISCONST:
      want_result(v, kit_cg_type_is_int(T) && T != KIT_CG_I128, "an integer up to i64");
      if (!valid_type((unsigned)ty[0])) prob(v, "isconst of no value");
      break;
    case KIT_CG_OP_RET: check_ret(v, ty); break;
    case KIT_CG_OP_ASM:
    case KIT_CG_OP_ASMGOTO: check_asm(v, ty); break;
    default: break;
    }
  }
  if ((oi->flags & KIT_CGO_MEM) && !pow2_or_0(in->imm)) prob(v, "alignment %llu is not a power of two",
                                                             (unsigned long long)in->imm);
  if (ty != tyb) free(ty);
}

/* ---- function bodies: structure and dominance ------------------------------------ */

/* records where each value is defined; false if the value space is unusable */
static bool collect_defs(V *v) {
  const KitCgFunc *f = v->f;
  for (uint32_t x = 0; x < f->nvals; x++) v->defblk[x] = v->defidx[x] = NONE;
  for (uint32_t k = 1; k <= f->nparams && k < f->nvals; k++) v->defblk[k] = PARAM_BLK;
  for (uint32_t b = 0; b < f->nblocks; b++) {
    const KitCgBlock *bb = &f->blocks[b];
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      const KitCgInst *in = &bb->insts[i];
      v->b = b, v->i = i, v->in = in;
      if (in->op >= KIT_CG_NOPS) continue;
      bool res = kit_cg_op_info[in->op].flags & KIT_CGO_RES;
      if (in->type != KIT_CG_VOID && !valid_type(in->type)) prob(v, "bad result type %u", in->type);
      if (!res && (in->id || in->type != KIT_CG_VOID)) prob(v, "this op produces no value");
      if (res && in->type != KIT_CG_VOID && !in->id) prob(v, "result of type %s has no value id", tn(in->type));
      if (res && in->type == KIT_CG_VOID && in->id) prob(v, "value %%%u has type void", in->id);
      if (!in->id) continue;
      if (in->id >= f->nvals) {
        prob(v, "defines %%%u beyond the function's %u value ids", in->id, f->nvals);
        continue;
      }
      if (in->id <= f->nparams) {
        prob(v, "defines %%%u, which is a parameter", in->id);
        continue;
      }
      if (v->defblk[in->id] != NONE) {
        prob(v, "%%%u is defined twice (first in b%u)", in->id, v->defblk[in->id]);
        continue;
      }
      if (f->vtype[in->id] != in->type)
        prob(v, "%%%u has type %s in the value table, %s here", in->id, tn(f->vtype[in->id]), tn(in->type));
      v->defblk[in->id] = b;
      v->defidx[in->id] = i;
    }
  }
  return true;
}

/* block shape and the CFG: terminators, then predecessors (distinct, CSR) */
static void check_blocks(V *v) {
  const KitCgFunc *f = v->f;
  uint32_t nb = f->nblocks;
  v->cfg_ok = true;
  for (uint32_t b = 0; b < nb; b++) {
    const KitCgBlock *bb = &f->blocks[b];
    v->b = b;
    if (!bb->ninsts || !bb->insts) {
      blkprob(v, "empty block (needs a terminator)");
      v->cfg_ok = false;
      continue;
    }
    bool seen_nonphi = false;
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      const KitCgInst *in = &bb->insts[i];
      v->i = i, v->in = in;
      if (in->op >= KIT_CG_NOPS) {
        prob(v, "unknown op %u", in->op);
        v->cfg_ok = false;
        continue;
      }
      bool term = kit_cg_op_info[in->op].flags & KIT_CGO_TERM;
      if (term && i + 1 < bb->ninsts) prob(v, "terminator in the middle of the block");
      if (in->op == KIT_CG_OP_PHI && seen_nonphi) prob(v, "phi after a non-phi instruction");
      if (in->op != KIT_CG_OP_PHI) seen_nonphi = true;
      if (term && in->nblks && !in->blks) v->cfg_ok = false;
      for (uint32_t k = 0; term && in->blks && k < in->nblks; k++)
        if (in->blks[k] >= nb) v->cfg_ok = false;
    }
    const KitCgInst *last = &bb->insts[bb->ninsts - 1];
    if (last->op >= KIT_CG_NOPS || !(kit_cg_op_info[last->op].flags & KIT_CGO_TERM)) {
      blkprob(v, "does not end with a terminator");
      v->cfg_ok = false;
    }
  }
  if (!v->cfg_ok) return;
  v->b = 0;
  for (uint32_t b = 0; b < nb; b++) {
    const KitCgInst *t = &f->blocks[b].insts[f->blocks[b].ninsts - 1];
    for (uint32_t k = 0; k < t->nblks; k++)
      if (t->blks[k] == 0) {
        blkprob(v, "the entry block cannot be a branch target (from b%u)", b);
        b = nb;
        break;
      }
  }
  memset(v->pred_start, 0, (nb + 1) * sizeof *v->pred_start);
  /* count, then fill; a target listed twice by one terminator counts once */
  for (int pass = 0; pass < 2; pass++) {
    uint32_t *fillpos = pass ? v->rpo_num : NULL; /* rpo_num doubles as the fill cursor */
    if (pass) {
      for (uint32_t b = 0; b < nb; b++) v->pred_start[b + 1] += v->pred_start[b];
      for (uint32_t b = 0; b < nb; b++) fillpos[b] = v->pred_start[b];
    }
    for (uint32_t b = 0; b < nb; b++) {
      const KitCgInst *t = &f->blocks[b].insts[f->blocks[b].ninsts - 1];
      uint32_t stamp = ++v->stamp;
      for (uint32_t k = 0; k < t->nblks; k++) {
        uint32_t s = t->blks[k];
        if (v->mark[s] == stamp) continue;
        v->mark[s] = stamp;
        if (pass) v->preds[fillpos[s]++] = b;
        else v->pred_start[s + 1]++;
      }
    }
  }
}

static uint32_t intersect(const V *v, uint32_t a, uint32_t b) {
  while (a != b) {
    while (v->rpo_num[a] > v->rpo_num[b]) a = v->idom[a];
    while (v->rpo_num[b] > v->rpo_num[a]) b = v->idom[b];
  }
  return a;
}

/* Cooper, Harvey and Kennedy's iterative dominators over reverse postorder,
 * then pre/post numbers of the dominator tree for O(1) queries */
static void compute_doms(V *v, uint32_t *order, uint32_t *stack, uint32_t *edge) {
  const KitCgFunc *f = v->f;
  uint32_t nb = f->nblocks, n = 0, sp = 0;
  for (uint32_t b = 0; b < nb; b++) v->rpo_num[b] = NONE, v->idom[b] = NONE, edge[b] = 0;
  /* iterative DFS for postorder; rpo_num marks visited (0) until numbered */
  stack[sp++] = 0;
  v->rpo_num[0] = 0;
  while (sp) {
    uint32_t b = stack[sp - 1];
    const KitCgInst *t = &f->blocks[b].insts[f->blocks[b].ninsts - 1];
    if (edge[b] < t->nblks) {
      uint32_t s = t->blks[edge[b]++];
      if (v->rpo_num[s] == NONE) {
        v->rpo_num[s] = 0;
        stack[sp++] = s;
      }
    } else {
      order[n++] = b;
      sp--;
    }
  }
  /* order[] is postorder; reverse it and number */
  for (uint32_t k = 0; k < n / 2; k++) {
    uint32_t tmp = order[k];
    order[k] = order[n - 1 - k];
    order[n - 1 - k] = tmp;
  }
  for (uint32_t k = 0; k < n; k++) v->rpo_num[order[k]] = k;
  v->idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t k = 1; k < n; k++) {
      uint32_t b = order[k], nd = NONE;
      for (uint32_t j = v->pred_start[b]; j < v->pred_start[b + 1]; j++) {
        uint32_t p = v->preds[j];
        if (v->idom[p] == NONE) continue;
        nd = nd == NONE ? p : intersect(v, p, nd);
      }
      if (nd != v->idom[b]) {
        v->idom[b] = nd;
        changed = true;
      }
    }
  }
  /* dominator tree DFS numbering: children lists via CSR in stack/edge */
  uint32_t *cstart = edge; /* nb + 1 entries needed: edge has nb + 1 */
  memset(cstart, 0, (nb + 1) * sizeof *cstart);
  for (uint32_t b = 1; b < nb; b++)
    if (v->idom[b] != NONE) cstart[v->idom[b] + 1]++;
  for (uint32_t b = 0; b < nb; b++) cstart[b + 1] += cstart[b];
  uint32_t *kids = order, *cur = stack; /* reuse: order is free now */
  for (uint32_t b = 0; b < nb; b++) cur[b] = cstart[b];
  for (uint32_t b = 1; b < nb; b++)
    if (v->idom[b] != NONE) kids[cur[v->idom[b]]++] = b;
  uint32_t clock = 0;
  for (uint32_t b = 0; b < nb; b++) v->dpre[b] = v->dpost[b] = NONE, cur[b] = cstart[b];
  /* explicit stack on dpost's slots would alias; use a small growing array */
  uint32_t *st = malloc((nb + 1) * sizeof *st);
  if (!st) return;
  sp = 0;
  st[sp++] = 0;
  v->dpre[0] = clock++;
  while (sp) {
    uint32_t b = st[sp - 1];
    if (cur[b] < cstart[b + 1]) {
      uint32_t c = kids[cur[b]++];
      v->dpre[c] = clock++;
      st[sp++] = c;
    } else {
      v->dpost[b] = clock++;
      sp--;
    }
  }
  free(st);
}

static bool reachable(const V *v, uint32_t b) { return v->dpre[b] != NONE; }
static bool dominates(const V *v, uint32_t a, uint32_t b) {
  return v->dpre[a] <= v->dpre[b] && v->dpost[b] <= v->dpost[a];
}

static void check_dominance(V *v) {
  const KitCgFunc *f = v->f;
  for (uint32_t b = 0; b < f->nblocks; b++) {
    if (!reachable(v, b)) continue;
    const KitCgBlock *bb = &f->blocks[b];
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      const KitCgInst *in = &bb->insts[i];
      v->b = b, v->i = i, v->in = in;
      if (!in->args) continue;
      bool phi = in->op == KIT_CG_OP_PHI;
      if (phi && (in->nargs != in->nblks || !in->blks)) continue;
      for (uint32_t k = 0; k < in->nargs; k++) {
        KitCgVal x = in->args[k];
        if (x == 0 || x >= f->nvals) continue;
        uint32_t db = v->defblk[x];
        if (db == NONE || db == PARAM_BLK) continue;
        if (phi) {
          uint32_t from = in->blks[k];
          if (from >= f->nblocks || !reachable(v, from)) continue;
          if (!reachable(v, db) || !dominates(v, db, from))
            prob(v, "%%%u (defined in b%u) does not dominate the end of incoming block b%u", x, db, from);
        } else if (db == b) {
          if (v->defidx[x] >= i) prob(v, "%%%u is used before its definition (inst %u)", x, v->defidx[x]);
        } else if (!reachable(v, db) || !dominates(v, db, b)) {
          prob(v, "%%%u (defined in b%u) does not dominate this use", x, db);
        }
      }
    }
  }
}

static void check_func(V *v, const KitCgFunc *f) {
  const KitCgModule *m = v->m;
  v->f = f;
  if (f->sym >= m->nsyms || m->syms[f->sym].kind != KIT_CG_SYM_FUNC) funcprob(v, "symbol %u is not a function", f->sym);
  if (f->nparams && !f->params) {
    funcprob(v, "parameter array missing");
    return;
  }
  for (uint32_t k = 0; k < f->nparams; k++) {
    if (!valid_type(f->params[k].type)) funcprob(v, "parameter %u has bad type %u", k, f->params[k].type);
    else if ((f->params[k].attrs & (KIT_CG_PA_BYVAL | KIT_CG_PA_SRET)) && f->params[k].type != KIT_CG_PTR)
      funcprob(v, "parameter %u is byval or sret but %s, not ptr", k, tn(f->params[k].type));
  }
  if ((f->ret[0] && !valid_type(f->ret[0])) || (f->ret[1] && !valid_type(f->ret[1])) || (f->ret[1] && !f->ret[0]))
    funcprob(v, "bad return types %u, %u", f->ret[0], f->ret[1]);
  if (f->loc.file >= m->nstrs) funcprob(v, "location file string out of range");
  if (!f->nblocks) return;
  if (!f->blocks || (f->nvals && !f->vtype)) {
    funcprob(v, "block or value array missing");
    return;
  }
  if (f->nvals > MAX_VALS || f->nvals < f->nparams + 1) {
    funcprob(v, "value id space of %u for %u parameters is unusable", f->nvals, f->nparams);
    return;
  }
  for (uint32_t k = 0; k < f->nparams; k++)
    if (f->vtype[k + 1] != f->params[k].type) funcprob(v, "value %%%u is not typed like parameter %u", k + 1, k);
  for (uint32_t s = 0; s < f->nstack; s++) {
    const KitCgStackObj *so = &f->stack[s];
    if (!so->align || !pow2_or_0(so->align)) funcprob(v, "stack object $%u: alignment %u is not a power of two", s, so->align);
    if (so->tydesc >= m->ntydescs) funcprob(v, "stack object $%u: tydesc %u out of range", s, so->tydesc);
    if (so->name >= m->nstrs) funcprob(v, "stack object $%u: name string out of range", s);
    if (so->loc.file >= m->nstrs) funcprob(v, "stack object $%u: location file string out of range", s);
  }
  check_divars(v, f);
  uint32_t nb = f->nblocks, nv = f->nvals;
  v->defblk = malloc(nv * sizeof(uint32_t));
  v->defidx = malloc(nv * sizeof(uint32_t));
  v->pred_start = malloc((nb + 1) * sizeof(uint32_t));
  v->rpo_num = malloc((nb + 1) * sizeof(uint32_t));
  v->idom = malloc((nb + 1) * sizeof(uint32_t));
  v->dpre = malloc((nb + 1) * sizeof(uint32_t));
  v->dpost = malloc((nb + 1) * sizeof(uint32_t));
  v->mark = calloc(nb + 1, sizeof(uint32_t));
  v->stamp = 0;
  uint32_t *order = malloc((nb + 1) * sizeof(uint32_t)), *stack = malloc((nb + 1) * sizeof(uint32_t)),
           *edge = malloc((nb + 1) * sizeof(uint32_t));
  /* at most 2^32 edges is not guaranteed, so size preds by counting */
  size_t nedges = 0;
  for (uint32_t b = 0; b < nb; b++)
    if (f->blocks[b].ninsts && f->blocks[b].insts) nedges += f->blocks[b].insts[f->blocks[b].ninsts - 1].nblks;
  v->preds = malloc((nedges + 1) * sizeof(uint32_t));
  if (!v->defblk || !v->defidx || !v->pred_start || !v->rpo_num || !v->idom || !v->dpre || !v->dpost || !v->mark || !order ||
      !stack || !edge || !v->preds) {
    funcprob(v, "out of memory while verifying");
  } else {
    collect_defs(v);
    check_blocks(v);
    for (uint32_t b = 0; b < nb; b++) {
      const KitCgBlock *bb = &f->blocks[b];
      for (uint32_t i = 0; bb->insts && i < bb->ninsts; i++) {
        v->b = b, v->i = i, v->in = &bb->insts[i];
        if (bb->insts[i].op < KIT_CG_NOPS) check_inst(v);
      }
    }
    if (v->cfg_ok) {
      compute_doms(v, order, stack, edge);
      check_dominance(v);
    }
  }
  free(v->defblk);
  free(v->defidx);
  free(v->pred_start);
  free(v->preds);
  free(v->rpo_num);
  free(v->idom);
  free(v->dpre);
  free(v->dpost);
  free(v->mark);
  free(order);
  free(stack);
  free(edge);
  v->f = NULL;
}

int kit_cg_verify(const KitCgModule *m, FILE *err) {
  V v = {.m = m, .err = err};
  if (!m) {
    modprob(&v, "no module");
    return v.n;
  }
  check_syms(&v);
  check_tydescs(&v);
  check_ditypes(&v);
  check_globals(&v);
  check_ctors(&v, m->ctors, m->nctors, "ctor");
  check_ctors(&v, m->dtors, m->ndtors, "dtor");
  for (uint32_t i = 0; i < m->nasms; i++)
    if (!m->asms || m->asms[i] >= m->nstrs) modprob(&v, "module asm %u: string out of range", i);
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    if (!m->funcs[i]) {
      modprob(&v, "function %u is missing", i);
      continue;
    }
    check_func(&v, m->funcs[i]);
  }
  if (err && v.n > MAX_MESSAGES) fprintf(err, "verify: %d more problems not shown\n", v.n - MAX_MESSAGES);
  return v.n;
}
