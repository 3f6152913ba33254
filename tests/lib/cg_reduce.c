/* tests/lib/cg_reduce.c — a delta reducer for a failing CG function @f
 * (cg_reduce.h): replace values by constants or by an operand, drop stores,
 * fold branches, hoist and merge constants, merge block chains; keep each
 * step that still fails, until none does. */
#define _GNU_SOURCE
#include "cg_reduce.h"

#include <stdlib.h>
#include <string.h>

#include "diffrun.h"

static bool val_used_as_callee(const KitCgFunc *f, KitCgVal v) {
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      if (in->op == KIT_CG_OP_CALLI && in->nargs && in->args[0] == v) return true;
    }
  return false;
}
static bool val_used(const KitCgFunc *f, KitCgVal v) {
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      for (uint32_t k = 0; k < in->nargs; k++)
        if (in->args[k] == v) return true;
    }
  return false;
}
static void replace_uses(KitCgFunc *f, KitCgVal from, KitCgVal to) {
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      KitCgInst *in = &f->blocks[b].insts[i];
      for (uint32_t k = 0; k < in->nargs; k++)
        if (in->args[k] == from) in->args[k] = to;
    }
}
static void make_const(KitCgInst *in, uint64_t imm) {
  in->op = KIT_CG_OP_CONST;
  in->nargs = 0;
  in->args = NULL;
  in->nblks = 0;
  in->blks = NULL;
  in->imm = imm;
  in->imm2 = 0;
  in->flags = 0;
  in->cls = 0;
  in->pred = 0;
  in->aux = 0;
  in->type2 = KIT_CG_VOID;
  in->argattrs = NULL;
}
static void delete_inst(KitCgFunc *f, uint32_t b, uint32_t i) {
  KitCgBlock *bb = &f->blocks[b];
  memmove(&bb->insts[i], &bb->insts[i + 1], (bb->ninsts - i - 1) * sizeof(KitCgInst));
  bb->ninsts--;
}
static void cleanup(KitCgModule *m, KitCgFunc *f) {
  (void)m;
  /* drop blocks no longer reachable, keeping the order */
  uint32_t nb = f->nblocks;
  bool *reach = calloc(nb, 1);
  uint32_t *stack = calloc(nb + 1, sizeof *stack), sp = 0, *map = calloc(nb, sizeof *map);
  reach[0] = true;
  stack[sp++] = 0;
  while (sp) {
    uint32_t b = stack[--sp];
    const KitCgBlkId *s;
    uint32_t ns = kit_cg_block_succs(f, b, &s);
    for (uint32_t k = 0; k < ns; k++)
      if (!reach[s[k]]) reach[s[k]] = true, stack[sp++] = s[k];
  }
  uint32_t n = 0;
  for (uint32_t b = 0; b < nb; b++) {
    map[b] = n;
    if (reach[b]) f->blocks[n++] = f->blocks[b];
  }
  f->nblocks = n;
  for (uint32_t b = 0; b < n; b++) {
    KitCgBlock *bb = &f->blocks[b];
    if (!bb->ninsts) continue;
    KitCgInst *t = &bb->insts[bb->ninsts - 1];
    for (uint32_t k = 0; k < t->nblks; k++) t->blks[k] = map[t->blks[k]];
  }
  free(reach);
  free(stack);
  free(map);
  /* dead pure values */
  for (bool again = true; again;) {
    again = false;
    for (uint32_t b = 0; b < f->nblocks; b++)
      for (uint32_t i = f->blocks[b].ninsts; i-- > 0;) {
        KitCgInst *in = &f->blocks[b].insts[i];
        unsigned fl = kit_cg_op_info[in->op].flags;
        if (!in->id || (fl & (KIT_CGO_SIDE | KIT_CGO_TERM))) continue;
        if ((fl & KIT_CGO_MEM) && (in->op != KIT_CG_OP_LOAD || (in->flags & KIT_CG_F_VOLATILE))) continue;
        if (!val_used(f, in->id)) {
          delete_inst(f, b, i);
          again = true;
        }
      }
  }
}

typedef struct Cand {
  uint32_t b, i, v;
} Cand;

/* values that flow into an address or a callee: only ever replaced by 0 (the
 * generator's offsets are masks of them, so 0 stays in bounds) */
static void addr_taint(const KitCgFunc *f, bool *taint) {
  memset(taint, 0, f->nvals);
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      if (in->op == KIT_CG_OP_PTRADD) taint[in->args[1]] = true;
      if (in->op == KIT_CG_OP_INTTOPTR || in->op == KIT_CG_OP_CALLI) taint[in->args[0]] = true;
    }
  for (bool again = true; again;) {
    again = false;
    for (uint32_t b = f->nblocks; b-- > 0;)
      for (uint32_t i = f->blocks[b].ninsts; i-- > 0;) {
        const KitCgInst *in = &f->blocks[b].insts[i];
        if (!in->id || !taint[in->id]) continue;
        for (uint32_t k = 0; k < in->nargs; k++)
          if (!taint[in->args[k]]) taint[in->args[k]] = again = true;
      }
  }
}

/* the candidate mutations of the function, in a fixed order */
static int candidates(const KitCgFunc *f, Cand *c, int max) {
  int n = 0;
  bool *taint = malloc(f->nvals + 1);
  addr_taint(f, taint);
  c[n++] = (Cand){UINT32_MAX, 0, 0}; /* hoist and merge the constants */
  c[n++] = (Cand){UINT32_MAX, 0, 1}; /* merge straight-line block chains */
  for (uint32_t b = f->nblocks; b-- > 0;)
    for (uint32_t i = f->blocks[b].ninsts; i-- > 0;) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      uint32_t nv = 0;
      if (in->op == KIT_CG_OP_CONDBR) nv = 2;
      else if (in->op == KIT_CG_OP_CONST) nv = in->imm && in->type != KIT_CG_PTR && !taint[in->id] ? 1 : 0;
      else if (in->op == KIT_CG_OP_RET || in->op == KIT_CG_OP_BR) nv = 0;
      else if (in->id && in->type == KIT_CG_PTR) nv = val_used_as_callee(f, in->id) ? 0 : 1;
      else if (in->id) nv = taint[in->id] ? 1 : 1 + in->nargs;
      else nv = 1; /* store, fence, void call: delete */
      /* a tail call stays a tail call (its ret uses it) */
      if ((in->op == KIT_CG_OP_CALL || in->op == KIT_CG_OP_CALLI) && (in->flags & KIT_CG_F_TAIL)) nv = 0;
      for (uint32_t v = 0; v < nv && n < max; v++) c[n++] = (Cand){b, i, v};
    }
  free(taint);
  return n;
}

static void hoist_consts(KitCgModule *m, KitCgFunc *f) {
  uint32_t total = 0;
  for (uint32_t b = 0; b < f->nblocks; b++) total += f->blocks[b].ninsts;
  KitCgInst *consts = calloc(total + 1, sizeof *consts);
  uint32_t nc = 0;
  for (uint32_t b = 0; b < f->nblocks; b++) {
    KitCgBlock *bb = &f->blocks[b];
    uint32_t k = 0;
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      KitCgInst *in = &bb->insts[i];
      if (in->op != KIT_CG_OP_CONST) {
        bb->insts[k++] = *in;
        continue;
      }
      uint32_t j = 0;
      while (j < nc && !(consts[j].type == in->type && consts[j].imm == in->imm && consts[j].imm2 == in->imm2)) j++;
      if (j < nc) replace_uses(f, in->id, consts[j].id);
      else consts[nc++] = *in;
    }
    bb->ninsts = k;
  }
  KitCgBlock *e = &f->blocks[0];
  KitCgInst *ni = kit_cg_alloc(m, (nc + e->ninsts + 1) * sizeof *ni);
  memcpy(ni, consts, nc * sizeof *ni);
  memcpy(ni + nc, e->insts, e->ninsts * sizeof *ni);
  e->insts = ni;
  e->ninsts += nc;
  e->cap = e->ninsts + 1;
  free(consts);
}
static void merge_chains(KitCgModule *m, KitCgFunc *f) {
  for (bool again = true; again;) {
    again = false;
    uint32_t *preds = calloc(f->nblocks, sizeof *preds);
    for (uint32_t b = 0; b < f->nblocks; b++) {
      const KitCgBlkId *sv;
      uint32_t ns = kit_cg_block_succs(f, b, &sv);
      for (uint32_t k = 0; k < ns; k++) preds[sv[k]]++;
    }
    for (uint32_t a = 0; a < f->nblocks && !again; a++) {
      KitCgBlock *ab = &f->blocks[a];
      if (!ab->ninsts) continue;
      KitCgInst *t = &ab->insts[ab->ninsts - 1];
      if (t->op != KIT_CG_OP_BR || t->blks[0] == 0 || t->blks[0] == a || preds[t->blks[0]] != 1) continue;
      KitCgBlock *bb = &f->blocks[t->blks[0]];
      KitCgInst *ni = kit_cg_alloc(m, (ab->ninsts - 1 + bb->ninsts + 1) * sizeof *ni);
      memcpy(ni, ab->insts, (ab->ninsts - 1) * sizeof *ni);
      memcpy(ni + ab->ninsts - 1, bb->insts, bb->ninsts * sizeof *ni);
      ab->insts = ni;
      ab->ninsts = ab->ninsts - 1 + bb->ninsts;
      ab->cap = ab->ninsts + 1;
      bb->ninsts = 0; /* unreachable now: cleanup drops it */
      again = true;
    }
    free(preds);
    cleanup(m, f);
  }
}

static bool apply(KitCgModule *m, KitCgFunc *f, Cand c) {
  if (c.b == UINT32_MAX) {
    if (c.v == 0) hoist_consts(m, f);
    else merge_chains(m, f);
    cleanup(m, f);
    return true;
  }
  KitCgInst *in = &f->blocks[c.b].insts[c.i];
  if (in->op == KIT_CG_OP_CONDBR) {
    KitCgBlkId to = in->blks[c.v];
    in->op = KIT_CG_OP_BR;
    in->nargs = 0;
    in->args = NULL;
    in->flags = 0;
    in->blks[0] = to;
    in->nblks = 1;
  } else if (in->op == KIT_CG_OP_CONST) {
    in->imm = c.v == 0 ? 0 : 1;
  } else if (in->id && in->type == KIT_CG_PTR) {
    KitCgVal bufv = 0;
    for (uint32_t i = 0; i < f->nparams && !bufv; i++)
      if (f->params[i].type == KIT_CG_PTR) bufv = i + 1;
    if (!bufv) return false;
    replace_uses(f, in->id, bufv); /* the buffer */
    make_const(in, 0);
  } else if (in->id) {
    if (c.v == 0) {
      make_const(in, 0);
    } else {
      KitCgVal a = in->args[c.v - 1];
      if (kit_cg_val_type(f, a) != in->type || a == in->id) return false;
      replace_uses(f, in->id, a);
      make_const(in, 0);
    }
  } else {
    delete_inst(f, c.b, c.i);
  }
  cleanup(m, f);
  return true;
}

char *cg_reduce(const char *text, CgStillFails still_fails, void *ctx) {
  char *cur = strdup(text);
  int pos = 0, trials = 0;
  bool progress = false;
  Cand *cs = malloc(8192 * sizeof *cs);
  while (trials < 3000) {
    KitCgModule *m = kit_cg_parse(cur, strlen(cur), "red", NULL);
    if (!m) break;
    KitCgFunc *f = kit_cg_func_of(m, kit_cg_sym_find(m, "f"));
    int n = candidates(f, cs, 8192);
    if (pos >= n) {
      kit_cg_module_free(m);
      if (!progress) break;
      progress = false;
      pos = 0;
      continue;
    }
    char *next = NULL;
    if (apply(m, f, cs[pos])) next = module_text(m);
    kit_cg_module_free(m);
    trials++;
    if (next && strcmp(next, cur) && still_fails(ctx, next)) {
      free(cur);
      cur = next;
      progress = true;
    } else {
      free(next);
      pos++;
    }
  }
  free(cs);
  return cur;
}

