/* cg/baseline/layout.c — block layout: the order blocks are emitted in
 * (reverse postorder, a block followed by the one it alone leads to, which
 * continues its registers), the register regions this makes, and the cold
 * paths moved after the function. */
#include <string.h>

#include "baseline_internal.h"

/* the block's br or condbr, NULL when it ends otherwise */
static const KitCgInst *branch_of(const KitCgBlock *bl) {
  const KitCgInst *t = bl->ninsts ? &bl->insts[bl->ninsts - 1] : NULL;
  return t && (t->op == KIT_CG_OP_BR || t->op == KIT_CG_OP_CONDBR) ? t : NULL;
}

/* predecessor counts (the entry counts one more: it is entered); no block is fused yet */
static void count_preds(Emitter *e, PrepareWork *w) {
  const KitCgFunc *f = e->f;
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgInst *t = branch_of(&f->blocks[bi]);
    for (uint32_t k = 0; t && k < t->nblks; k++) w->preds[t->blks[k]]++;
    e->fused[bi] = -1;
  }
  w->preds[0]++;
}

/* blocks in reverse postorder from the entry, so a definition is emitted
 * before its uses however the blocks are numbered (a pass appends the
 * blocks it splits off); unreachable blocks are not emitted */
static void reverse_postorder(const KitCgFunc *f, PrepareWork *w) {
  uint32_t *stack = w->stack, *rpo = w->rpo; /* stack of (block, next successor to visit) */
  uint32_t sp = 0, post = f->nblocks, nrpo = 0;
  stack[sp++] = 0;
  stack[sp++] = 0;
  w->seen[0] = true;
  while (sp) {
    uint32_t b = stack[sp - 2], k = stack[sp - 1];
    const KitCgInst *t = branch_of(&f->blocks[b]);
    uint32_t nsucc = t ? t->nblks : 0;
    if (k < nsucc) {
      stack[sp - 1]++;
      uint32_t s2 = t->blks[k];
      if (!w->seen[s2]) {
        w->seen[s2] = true;
        stack[sp++] = s2;
        stack[sp++] = 0;
      }
    } else {
      rpo[--post] = b;
      nrpo++;
      sp -= 2;
    }
  }
  memmove(rpo, rpo + (f->nblocks - nrpo), nrpo * sizeof *rpo);
  w->nrpo = nrpo;
}

/* Cold paths: a block A ending in a condbr flagged cold to X whose blocks
 * (X and what it reaches before the other successor C) are entered only
 * from A and among themselves, and leave only to C (or end): C continues
 * A's registers, and the cold blocks go after the function's other blocks.
 * The first of them starts with A's registers at the branch (their values
 * go to their slots there), the others with none, and they return to C
 * through a stub that puts A's registers back. What ASan's checks are
 * made of: values used across a check stay in registers on the way that
 * runs. */
static void find_cold_paths(Emitter *e, const uint32_t *preds) {
  const KitCgFunc *f = e->f;
  for (uint32_t b = 0; b < f->nblocks; b++) e->cold_of[b] = e->cont_of[b] = e->cold_last[b] = -1;
  for (uint32_t a = 0; a < f->nblocks; a++) {
    const KitCgInst *t = branch_of(&f->blocks[a]);
    if (!t || t->op != KIT_CG_OP_CONDBR || !(t->flags & KIT_CG_F_COLD) || e->cold_of[a] >= 0) continue;
    uint32_t x = t->blks[0], c = t->blks[1];
    if (x == c || !x || !c || x == a || c == a || preds[x] != 1 || e->cold_of[x] >= 0 || e->cold_of[c] >= 0 ||
        e->cont_of[a] >= 0)
      continue;
    uint32_t set[8], n = 0, into_c = 1; /* A's edge */
    bool ok = true;
    set[n++] = x;
    for (uint32_t i = 0; i < n && ok; i++) {
      const KitCgInst *bt = branch_of(&f->blocks[set[i]]);
      if (!bt) { /* unreachable or trap: ends there (a ret would leave from the cold path) */
        const KitCgBlock *bl = &f->blocks[set[i]];
        ok = bl->ninsts && (bl->insts[bl->ninsts - 1].op == KIT_CG_OP_UNREACHABLE ||
                            bl->insts[bl->ninsts - 1].op == KIT_CG_OP_TRAP);
        continue;
      }
      for (uint32_t k = 0; k < bt->nblks && ok; k++) {
        uint32_t s2 = bt->blks[k];
        if (s2 == c) {
          into_c++;
          continue;
        }
        bool in = false;
        for (uint32_t j = 0; j < n; j++) in |= set[j] == s2;
        if (in) continue;
        ok = n < 8 && s2 != a && s2 != 0 && e->cold_of[s2] < 0 && e->cont_of[s2] < 0;
        if (ok) set[n++] = s2;
      }
    }
    /* entered only from A and the set itself: count the set's edges */
    for (uint32_t i = 0; i < n && ok; i++) {
      uint32_t in = set[i] == x ? 1 : 0;
      for (uint32_t j = 0; j < n; j++) {
        const KitCgInst *bt = branch_of(&f->blocks[set[j]]);
        for (uint32_t k = 0; bt && k < bt->nblks; k++) in += bt->blks[k] == set[i];
      }
      ok = in == preds[set[i]];
    }
    if (!ok || into_c != preds[c]) continue;
    for (uint32_t i = 0; i < n; i++) e->cold_of[set[i]] = (int32_t)a;
    e->cont_of[a] = (int32_t)c;
  }
  /* a continuation that a later path took in as cold: not a cold path then */
  for (uint32_t a = 0; a < f->nblocks; a++) {
    if (e->cont_of[a] < 0 || e->cold_of[e->cont_of[a]] < 0) continue;
    for (uint32_t b = 0; b < f->nblocks; b++)
      if (e->cold_of[b] == (int32_t)a) e->cold_of[b] = -1;
    e->cont_of[a] = -1;
  }
}


/* the block a placed block b is followed by, continuing its registers: its
 * cold branch's continuation, the one block a br alone leads to, or the
 * likely side of a branch when only the branch leads there (the other side
 * starts with no registers); -1: none */
static int32_t fused_successor(const Emitter *e, const PrepareWork *w, uint32_t b) {
  const KitCgInst *t = branch_of(&e->f->blocks[b]);
  const uint32_t *preds = w->preds;
  const bool *placed = w->placed;
  int32_t nx = e->cont_of[b] >= 0 && !placed[e->cont_of[b]] ? e->cont_of[b] : -1;
  if (nx < 0 && t && t->op == KIT_CG_OP_BR && preds[t->blks[0]] == 1 && !placed[t->blks[0]] &&
      e->cold_of[t->blks[0]] < 0)
    nx = (int32_t)t->blks[0];
  int li = !t || t->op != KIT_CG_OP_CONDBR || t->blks[0] == t->blks[1] ? -1
           : t->flags & KIT_CG_F_LIKELY                              ? 0
           : t->flags & KIT_CG_F_COLD                                ? 1
                                                                      : -1;
  if (nx < 0 && li >= 0 && preds[t->blks[li]] == 1 && !placed[t->blks[li]] && e->cold_of[t->blks[li]] < 0)
    nx = (int32_t)t->blks[li];
  return nx;
}

/* the emission order of the blocks off the cold paths: each unplaced block
 * in reverse postorder starts a register region, followed by the chain of
 * its fused successors */
static void place_blocks(Emitter *e, PrepareWork *w) {
  uint32_t no = 0;
  for (uint32_t ri = 0; ri < w->nrpo; ri++) {
    uint32_t bi = w->rpo[ri];
    if (w->placed[bi] || e->cold_of[bi] >= 0) continue;
    uint32_t b = bi;
    w->placed[b] = true;
    e->order[no++] = (int32_t)b;
    e->region[b] = bi;
    for (int32_t nx; (nx = fused_successor(e, w, b)) >= 0;) {
      e->fused[b] = nx;
      b = (uint32_t)nx;
      w->placed[b] = true;
      e->order[no++] = (int32_t)b;
      e->region[b] = bi;
    }
  }
  e->norder = no;
}

/* cold paths last, each in one piece, in their branch's register region */
static void place_cold_paths(Emitter *e, PrepareWork *w) {
  uint32_t no = e->norder;
  for (uint32_t k = 0, nhot = no; k < nhot; k++) {
    int32_t a = e->order[k];
    if (e->cont_of[a] < 0) continue;
    for (uint32_t ri = 0; ri < w->nrpo; ri++) {
      uint32_t bi = w->rpo[ri];
      if (e->cold_of[bi] != a || w->placed[bi]) continue;
      w->placed[bi] = true;
      e->order[no++] = (int32_t)bi;
      e->region[bi] = e->region[a];
      e->cold_last[a] = (int32_t)bi;
    }
  }
  e->norder = no;
}

void layout_blocks(Emitter *e, PrepareWork *w) {
  count_preds(e, w);
  reverse_postorder(e->f, w);
  find_cold_paths(e, w->preds);
  place_blocks(e, w);
  place_cold_paths(e, w);
}
