/* cg/baseline/fold.c — what folds away before emission: constants (folded
 * and shared), use counts and which values cross blocks, dead results, and
 * the values a peephole folds into their one user (an address into its memory
 * op, a load into its compare, a truncation into 32-bit users). */
#include <stdlib.h>

#include "baseline_internal.h"

/* ---- queries the selectors share ------------------------------------------------ */

/* an instruction whose result is all it does (division traps, loads fault:
 * kept even when unused) */
bool pure(const KitCgInst *in) {
  return !(kit_cg_op_info[in->op].flags & (KIT_CGO_SIDE | KIT_CGO_MEM | KIT_CGO_TERM)) &&
         in->op != KIT_CG_OP_SDIV && in->op != KIT_CG_OP_UDIV && in->op != KIT_CG_OP_SREM &&
         in->op != KIT_CG_OP_UREM;
}

/* an instruction that emits no code: constants (folded ones too), dead
 * results, ptradds folded into their memory op */
bool silent(const Emitter *e, const KitCgInst *in) {
  if (!in->id) return false;
  Val *x = &e->v[in->id];
  return x->isconst || x->deferred || (!x->uses && x->def == NULL);
}

/* the next instruction of block blk after i that emits code */
const KitCgInst *next_real(const Emitter *e, uint32_t blk, uint32_t i) {
  const KitCgBlock *bl = &e->f->blocks[blk];
  for (i++; i < bl->ninsts; i++)
    if (!silent(e, &bl->insts[i])) return &bl->insts[i];
  return NULL;
}

/* v is constant and fits an instruction's sign-extended imm32 at size */
bool imm_ok(const Emitter *e, KitCgVal v, int size, int64_t *imm) {
  Val *x = &e->v[e->canon[v]];
  if (!x->isconst) return false;
  int64_t s = size == 32 ? (int32_t)x->imm : (int64_t)x->imm;
  if (size == 64 && !fits32(s)) return false;
  *imm = s;
  return true;
}

/* v is the constant k */
bool is_k(const Emitter *e, KitCgVal v, uint64_t k) {
  Val *x = &e->v[e->canon[v]];
  return x->isconst && x->imm == k;
}

/* the value of in when its operands are constants (and it is an op that folds) */
static bool fold_inst(Emitter *e, const KitCgInst *in, uint64_t *out) {
  uint64_t a[3] = {0};
  for (uint32_t k = 0; k < in->nargs && k < 3; k++) {
    if (!e->v[in->args[k]].isconst) return false;
    a[k] = e->v[in->args[k]].imm;
  }
  int w = width((KitCgType)in->type);
  uint64_t r;
  switch (in->op) {
  case KIT_CG_OP_CONST: r = in->imm; break;
  case KIT_CG_OP_ZEXT:
  case KIT_CG_OP_TRUNC:
  case KIT_CG_OP_PTRTOINT:
  case KIT_CG_OP_INTTOPTR: r = a[0]; break;
  case KIT_CG_OP_SEXT: {
    int ws = width(vt(e, in->args[0]));
    r = ws == 64 ? a[0] : (a[0] >> (ws - 1) & 1) ? a[0] | ~mask_of(ws) : a[0];
    break;
  }
  case KIT_CG_OP_ADD:
  case KIT_CG_OP_PTRADD: r = a[0] + a[1]; break;
  case KIT_CG_OP_SUB: r = a[0] - a[1]; break;
  case KIT_CG_OP_AND: r = a[0] & a[1]; break;
  case KIT_CG_OP_OR: r = a[0] | a[1]; break;
  case KIT_CG_OP_XOR: r = a[0] ^ a[1]; break;
  case KIT_CG_OP_MUL: r = a[0] * a[1]; break;
  default: return false;
  }
  *out = r & mask_of(w);
  return true;
}

/* ---- the passes, in the order fold_values runs them ---------------------------------- */

/* every value canonical, in no register or slot; folded constants, each
 * equal one standing for the first (a small hash) */
static void fold_constants(Emitter *e, PrepareWork *w) {
  const KitCgFunc *f = e->f;
  for (uint32_t v = 0; v <= f->nvals; v++) {
    e->v[v].reg = -1;
    e->v[v].slot = -1;
    e->canon[v] = v;
  }
  KitCgVal *h = w->hash;
  uint32_t hcap = w->hcap;
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if (!in->id) continue;
      Val *x = &e->v[in->id];
      x->def = in;
      x->defblk = bi;
      uint64_t imm;
      if (!fold_inst(e, in, &imm)) continue;
      x->isconst = true;
      x->imm = imm;
      uint32_t k = (uint32_t)((imm * 0x9E3779B97F4A7C15ull) >> 40) & (hcap - 1);
      while (h[k] && e->v[h[k]].imm != imm) k = (k + 1) & (hcap - 1);
      if (!h[k]) h[k] = in->id;
      e->canon[in->id] = h[k];
    }
}

/* uses (of canonical values) and the last user of each; global: used in
 * another register region than its definition's */
static void count_uses(Emitter *e, PrepareWork *w) {
  const KitCgFunc *f = e->f;
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if (in->id && e->v[in->id].isconst) continue;
      for (uint32_t k = 0; k < in->nargs; k++) {
        KitCgVal a = e->canon[in->args[k]];
        e->v[a].uses++;
        w->user[a] = in;
        if (!e->v[a].isconst && a > f->nparams && e->region[e->v[a].defblk] != e->region[bi]) e->v[a].global = true;
        /* from one cold block to another: the second starts with no registers */
        if (!e->v[a].isconst && a > f->nparams && e->cold_of[bi] >= 0 && e->cold_of[e->v[a].defblk] >= 0 &&
            e->v[a].defblk != bi)
          e->v[a].global = true;
        if (a <= f->nparams && e->region[bi] != e->region[0] && !(a == 1 && e->reserved)) e->v[a].global = true;
      }
    }
}

/* pure results nothing uses, last to first (their operands' uses go too) */
static void drop_dead_results(Emitter *e) {
  const KitCgFunc *f = e->f;
  for (uint32_t bi = f->nblocks; bi-- > 0;)
    for (uint32_t i = f->blocks[bi].ninsts; i-- > 0;) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if (!in->id || e->v[in->id].isconst || e->v[in->id].uses || !pure(in)) continue;
      e->v[in->id].def = NULL; /* silent */
      for (uint32_t k = 0; k < in->nargs; k++) e->v[e->canon[in->args[k]]].uses--;
    }
}

/* a ptradd whose one use is the address of a load or store in its block
 * becomes that memory op's addressing mode */
static void fold_addresses(Emitter *e, PrepareWork *w) {
  const KitCgFunc *f = e->f;
  for (uint32_t v = f->nparams + 1; v < f->nvals; v++) {
    Val *x = &e->v[v];
    const KitCgInst *u = w->user[v];
    if (!x->def || x->isconst || x->def->op != KIT_CG_OP_PTRADD || x->uses != 1 || x->global || !u) continue;
    if ((u->op == KIT_CG_OP_LOAD && u->args[0] == v) ||
        (u->op == KIT_CG_OP_STORE && u->args[1] == v && u->args[0] != v))
      x->deferred = true;
  }
}

/* a load whose one use is the compare right after it, with a constant:
 * the compare reads memory */
static void fold_loads_into_compares(Emitter *e, PrepareWork *w) {
  const KitCgFunc *f = e->f;
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlock *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->ninsts; i++) {
      const KitCgInst *in = &bl->insts[i];
      if (in->op != KIT_CG_OP_LOAD || !in->id || e->v[in->id].uses != 1 || in->type == KIT_CG_I1) continue;
      const KitCgInst *u = w->user[in->id];
      if (!u || u->op != KIT_CG_OP_ICMP || next_real(e, bi, i) != u) continue;
      KitCgVal other = e->canon[u->args[0]] == in->id ? u->args[1] : u->args[0];
      int64_t imm;
      int wd = width((KitCgType)in->type);
      if (e->canon[other] == in->id || !imm_ok(e, other, wd == 64 ? 64 : 32, &imm)) continue;
      e->v[in->id].deferred = true;
    }
  }
}

/* the pointer a tail call jumps through, loaded right before it: jmp *mem */
static void fold_tail_call_pointers(Emitter *e, PrepareWork *w) {
  const KitCgFunc *f = e->f;
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlock *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->ninsts; i++) {
      const KitCgInst *in = &bl->insts[i];
      if (in->op != KIT_CG_OP_LOAD || !in->id || e->v[in->id].uses != 1 || e->v[in->id].global ||
          access_size((KitCgType)in->type) != 64)
        continue;
      const KitCgInst *u = next_real(e, bi, i);
      if (u != w->user[in->id] || u->op != KIT_CG_OP_CALLI || !(u->flags & KIT_CG_F_TAIL) || u->args[0] != in->id)
        continue;
      e->v[in->id].deferred = true;
    }
  }
}

/* lshr(shl(x, 32), 32), x perhaps sext(i32 y): the low half of x (of y),
 * one 32-bit mov (sel_shift) */
static void fold_low_halves(Emitter *e, PrepareWork *w) {
  const KitCgFunc *f = e->f;
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlock *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->ninsts; i++) {
      const KitCgInst *in = &bl->insts[i];
      if (in->op != KIT_CG_OP_LSHR || in->type != KIT_CG_I64 || !is_k(e, in->args[1], 32)) continue;
      Val *sh = &e->v[e->canon[in->args[0]]];
      if (!sh->def || sh->def->op != KIT_CG_OP_SHL || sh->uses != 1 || sh->global || w->user[in->args[0]] != in ||
          !is_k(e, sh->def->args[1], 32) || sh->deferred)
        continue;
      sh->deferred = true;
      KitCgVal x = sh->def->args[0];
      Val *xv = &e->v[e->canon[x]];
      if (xv->def && xv->def->op == KIT_CG_OP_SEXT && vt(e, xv->def->args[0]) == KIT_CG_I32 && xv->uses == 1 &&
          !xv->global && w->user[x] == sh->def && !xv->deferred)
        xv->deferred = true;
    }
  }
}

/* does instruction `in` read only the low 32 bits of its operand k (an i32)? */
static bool reads_low32(const KitCgInst *in, uint32_t k) {
  switch (in->op) {
  case KIT_CG_OP_ADD: case KIT_CG_OP_SUB: case KIT_CG_OP_MUL: case KIT_CG_OP_AND: case KIT_CG_OP_OR:
  case KIT_CG_OP_XOR: case KIT_CG_OP_SHL: case KIT_CG_OP_LSHR: case KIT_CG_OP_ASHR: return in->type == KIT_CG_I32;
  case KIT_CG_OP_ICMP: return true; /* compares at the operands' width */
  case KIT_CG_OP_SEXT: return in->type == KIT_CG_I64;
  case KIT_CG_OP_TRUNC: return true;
  case KIT_CG_OP_STORE: return k == 0 && !(in->flags & KIT_CG_F_FAULT_PC);
  default: return false;
  }
}

/* A truncation of an i64 to i32 whose every user reads only the low 32
 * bits (32-bit operations, which also zero-extend their results) emits
 * nothing: its users read the i64's register. Values narrower than 64 bits
 * are otherwise kept zero-extended. */
static void elide_truncs(Emitter *e) {
  const KitCgFunc *f = e->f;
  uint8_t *st = calloc(f->nvals + 1, 1); /* 1: candidate, 2: read otherwise */
  if (!st) return;
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      Val *x = &e->v[in->id];
      if (in->op == KIT_CG_OP_TRUNC && in->type == KIT_CG_I32 && vt(e, in->args[0]) == KIT_CG_I64 && !x->isconst &&
          x->uses && x->def && e->canon[in->args[0]] > f->nparams)
        st[in->id] = 1;
    }
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if (in->id && (e->v[in->id].isconst || !e->v[in->id].def)) continue; /* folded or dead */
      for (uint32_t k = 0; k < in->nargs; k++)
        if (st[in->args[k]] == 1 && !reads_low32(in, k)) st[in->args[k]] = 2;
    }
  for (uint32_t t = 1; t <= f->nvals; t++) {
    if (st[t] != 1) continue;
    Val *x = &e->v[t], *src = &e->v[e->canon[x->def->args[0]]];
    src->uses += x->uses - 1;
    src->global |= x->global;
    e->canon[t] = e->canon[x->def->args[0]];
    x->uses = 0;
    x->def = NULL; /* silent */
  }
  free(st);
}

void fold_values(Emitter *e, PrepareWork *w) {
  fold_constants(e, w);
  count_uses(e, w);
  drop_dead_results(e);
  fold_addresses(e, w);
  fold_loads_into_compares(e, w);
  fold_tail_call_pointers(e, w);
  fold_low_halves(e, w);
  elide_truncs(e);
}
