/* passes/msan_select.c — the branches MSan treats as selects. kitcc lowers
 * `c ? a : b` (and small if/else assignments) to a diamond or triangle of
 * blocks that only compute a value for a phi; clang's optimiser has made those
 * selects before its MemorySanitizer runs, so an uninitialized c is no report
 * there but a poisoned result. Found here: a condbr whose arms have one
 * predecessor, compute without side effects (plain loads allowed) and
 * branch to a join block with phis whose only predecessors they are. */
#include "msan_internal.h"

#include <stdlib.h>

#define MAX_ARM 24 /* instructions: clang's speculation has a budget too */

static bool pure_op(const KitCgInst *in) {
  unsigned fl = kit_cg_op_info[in->op].flags;
  switch (in->op) {
  case KIT_CG_OP_SDIV:
  case KIT_CG_OP_UDIV:
  case KIT_CG_OP_SREM:
  case KIT_CG_OP_UREM:
    return false;
  case KIT_CG_OP_LOAD:
    /* clang speculates a load it knows dereferenceable (a stack slot before SROA,
     * an address loaded already): any plain load here */
    return !(in->flags & KIT_CG_F_VOLATILE);
  case KIT_CG_OP_CONST:
  case KIT_CG_OP_STACKADDR:
  case KIT_CG_OP_SYMADDR:
  case KIT_CG_OP_PTRADD:
  case KIT_CG_OP_SELECT:
  case KIT_CG_OP_NEG:
  case KIT_CG_OP_NOT:
    return true;
  default:
    return (fl & (KIT_CGO_BIN | KIT_CGO_CMP | KIT_CGO_CONV)) && !(fl & (KIT_CGO_SIDE | KIT_CGO_MEM));
  }
}

/* the block an arm branches to, or UINT32_MAX when blk is not a pure arm */
static KitCgBlkId arm_target(const KitCgFunc *f, KitCgBlkId blk, const uint32_t *npreds) {
  const KitCgBlock *bb = &f->blocks[blk];
  if (npreds[blk] != 1 || !bb->ninsts || bb->ninsts > MAX_ARM) return UINT32_MAX;
  const KitCgInst *t = &bb->insts[bb->ninsts - 1];
  if (t->op != KIT_CG_OP_BR) return UINT32_MAX;
  for (uint32_t i = 0; i + 1 < bb->ninsts; i++)
    if (!pure_op(&bb->insts[i])) return UINT32_MAX;
  return t->blks[0];
}

static bool starts_with_phi(const KitCgFunc *f, KitCgBlkId blk) {
  return f->blocks[blk].ninsts && f->blocks[blk].insts[0].op == KIT_CG_OP_PHI;
}

void msan_find_selects(MsanFn *M) {
  KitCgFunc *f = M->f;
  uint32_t *npreds = calloc(f->nblocks + 1, sizeof *npreds);
  if (!npreds) abort();
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlkId *s;
    uint32_t n = kit_cg_block_succs(f, bi, &s);
    for (uint32_t k = 0; k < n; k++)
      if (s[k] < f->nblocks) npreds[s[k]]++;
  }
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlock *bb = &f->blocks[bi];
    if (!bb->ninsts) continue;
    const KitCgInst *br = &bb->insts[bb->ninsts - 1];
    if (br->op != KIT_CG_OP_CONDBR || (br->flags & KIT_CG_F_NOINSTR) || br->blks[0] == br->blks[1]) continue;
    KitCgBlkId t = br->blks[0], e = br->blks[1];
    KitCgBlkId jt = arm_target(f, t, npreds), je = arm_target(f, e, npreds);
    KitCgBlkId join = UINT32_MAX;
    if (jt != UINT32_MAX && jt == je) join = jt;         /* diamond */
    else if (jt != UINT32_MAX && jt == e) join = e;      /* triangle: then-arm only */
    else if (je != UINT32_MAX && je == t) join = t;      /* triangle: else-arm only */
    if (join == UINT32_MAX || join == bi || npreds[join] != 2 || !starts_with_phi(f, join)) continue;
    M->select_br[bi] = true;
    M->join_cond[join] = br->args[0];
  }
  free(npreds);
}
