/* tests/lib/cg_gen.c — seeded random CG functions (cg_gen.h): the four
 * shapes (register pressure, straight-line code, calls, structured forward
 * CFGs), block renumbering, and the arguments to run them on. The
 * instructions themselves come from cg_gen_insts.c. */
#include <stdlib.h>
#include <string.h>

#include "cg_gen_internal.h"
#include "host_env.h"

/* xor/add/mul-fold of k random values, ending in type t */
static KitCgVal checksum(Gen *g, KitCgType t, int k) {
  KitCgVal acc = gen_to64(g, pool_pick(g, gen_types[rng_below(&g->r, 6)]));
  for (int i = 0; i < k; i++) {
    KitCgVal v = gen_to64(g, pool_pick(g, gen_types[rng_below(&g->r, 6)]));
    static const KitCgOp ops[] = {KIT_CG_OP_XOR, KIT_CG_OP_ADD, KIT_CG_OP_SUB, KIT_CG_OP_XOR};
    if (rng_chance(&g->r, 20)) acc = kit_cg_binop(&g->b, KIT_CG_OP_MUL, acc, kit_cg_iconst(&g->b, T_I64, 0x100000001b3ull));
    acc = kit_cg_binop(&g->b, ops[rng_below(&g->r, 4)], acc, v);
    g->budget -= 2;
  }
  return gen_from64(g, acc, t);
}

static void sink_stores(Gen *g) {
  int n = (int)rng_below(&g->r, 3);
  for (int i = 0; i < n; i++) gen_store(g);
}

static void emit_ret(Gen *g) {
  sink_stores(g);
  /* tail call: `%r = tail calli %p(...)`, then `ret %r` */
  if ((g->rt == T_I64 || g->rt == T_I32) && rng_chance(&g->r, (unsigned)g->tail_pct)) {
    int cand[NHELPERS], nc = 0;
    for (int h = 0; h < NHELPERS; h++)
      if (helpers[h].ret == g->rt) cand[nc++] = h;
    KitCgVal r = gen_emit_call(g, cand[rng_below(&g->r, (uint32_t)nc)], true);
    kit_cg_ret(&g->b, r);
    return;
  }
  KitCgVal v = rng_chance(&g->r, 25) ? pool_pick(g, g->rt) : checksum(g, g->rt, 1 + (int)rng_below(&g->r, 8));
  kit_cg_ret(&g->b, v);
}

static KitCgVal gen_cond(Gen *g) {
  uint32_t k = rng_below(&g->r, 10);
  if (k < 2) return gen_loadcmp(g);
  if (k < 6) return gen_icmp(g, rng_chance(&g->r, 10) ? T_PTR : gen_int_type(g));
  if (k < 8 && g->np[0]) return pool_pick(g, T_I1); /* an i1 from before, maybe another block's */
  if (k < 9 && g->lastcmp) return g->lastcmp;  /* a compare with a second user */
  KitCgVal c = kit_cg_conv(&g->b, KIT_CG_OP_TRUNC, T_I1, pool_pick(g, gen_int_type(g) == T_I1 ? T_I8 : T_I32));
  g->budget--;
  return c;
}

static void emit_condbr(Gen *g, KitCgVal c, KitCgBlkId a, KitCgBlkId b) {
  kit_cg_condbr(&g->b, c, a, b);
  uint32_t k = rng_below(&g->r, 10);
  if (k < 2) gen_last_inst(g)->flags |= KIT_CG_F_LIKELY;
  else if (k < 4) gen_last_inst(g)->flags |= KIT_CG_F_COLD;
}

static void straight(Gen *g, int n) {
  for (int i = 0; i < n && g->budget > 0; i++) gen_inst(g);
}

/* structured forward-only CFG: blocks numbered in topological order */
static void cfg_region(Gen *g, int depth) {
  straight(g, 3 + (int)rng_below(&g->r, 12));
  uint32_t k = depth >= 5 || g->budget <= 0 ? 0 : rng_below(&g->r, 10);
  if (depth < 2 && k < 3 && g->budget > 0) k = 3 + rng_below(&g->r, 7);
  if (k < 3) {
    emit_ret(g);
  } else if (k < 5) { /* split: two regions, each returning */
    KitCgVal c = gen_cond(g);
    KitCgBlkId a = kit_cg_block_new(g->m, g->f), b = kit_cg_block_new(g->m, g->f);
    emit_condbr(g, c, a, b);
    Scope s = gen_scope_save(g);
    kit_cg_builder_at(&g->b, a);
    cfg_region(g, depth + 1);
    gen_scope_restore(g, &s);
    kit_cg_builder_at(&g->b, b);
    cfg_region(g, depth + 1);
    gen_scope_restore(g, &s);
  } else if (k < 7) { /* diamond: the join sees what dominates it */
    KitCgVal c = gen_cond(g);
    KitCgBlkId a = kit_cg_block_new(g->m, g->f), b = kit_cg_block_new(g->m, g->f);
    KitCgBlkId j = kit_cg_block_new(g->m, g->f);
    emit_condbr(g, c, a, b);
    Scope s = gen_scope_save(g);
    kit_cg_builder_at(&g->b, a);
    straight(g, 1 + (int)rng_below(&g->r, 6));
    sink_stores(g);
    kit_cg_br(&g->b, j);
    gen_scope_restore(g, &s);
    kit_cg_builder_at(&g->b, b);
    straight(g, (int)rng_below(&g->r, 6));
    kit_cg_br(&g->b, j);
    gen_scope_restore(g, &s);
    kit_cg_builder_at(&g->b, j);
    cfg_region(g, depth + 1);
  } else if (k < 9) { /* triangle: a conditional detour */
    KitCgVal c = gen_cond(g);
    KitCgBlkId a = kit_cg_block_new(g->m, g->f), j = kit_cg_block_new(g->m, g->f);
    if (rng_chance(&g->r, 50)) emit_condbr(g, c, a, j);
    else emit_condbr(g, c, j, a);
    Scope s = gen_scope_save(g);
    kit_cg_builder_at(&g->b, a);
    straight(g, 1 + (int)rng_below(&g->r, 6));
    if (rng_chance(&g->r, 30)) {
      emit_ret(g); /* an early exit instead */
    } else {
      sink_stores(g);
      kit_cg_br(&g->b, j);
    }
    gen_scope_restore(g, &s);
    kit_cg_builder_at(&g->b, j);
    cfg_region(g, depth + 1);
  } else { /* plain jump */
    KitCgBlkId n = kit_cg_block_new(g->m, g->f);
    kit_cg_br(&g->b, n);
    kit_cg_builder_at(&g->b, n);
    cfg_region(g, depth + 1);
  }
}

/* many values live at once: computed first, consumed at the end */
static void pressure(Gen *g) {
  int n = 20 + (int)rng_below(&g->r, 30);
  KitCgVal live[64];
  g->consts_only = true;
  for (int i = 0; i < n; i++) {
    KitCgType t = gen_int_type(g);
    KitCgVal v;
    switch (rng_below(&g->r, 7)) {
    case 6: { /* division: rax/rdx are busy with other live values */
      if (t == T_I1) t = T_I32;
      KitCgVal d = kit_cg_binop(&g->b, KIT_CG_OP_OR, pool_pick(g, t), kit_cg_iconst(&g->b, t, 1));
      KitCgVal x = kit_cg_binop(&g->b, KIT_CG_OP_LSHR, pool_pick(g, t), kit_cg_iconst(&g->b, t, 1));
      v = kit_cg_binop(&g->b, KIT_CG_OP_SDIV + rng_below(&g->r, 4), x, d); /* sdiv udiv srem urem, x >= 0 */
      break;
    }
    case 0: {
      g->consts_only = false; /* loads use the buffer pointers */
      KitCgVal p = gen_addr(g);
      g->consts_only = true;
      v = kit_cg_load(&g->b, gen_mem_type(g), p, gen_align(g), KIT_CG_PROGRAM);
      break;
    }
    case 1: v = kit_cg_binop(&g->b, KIT_CG_OP_MUL, pool_pick(g, t), pool_pick(g, t)); break;
    case 2: {
      KitCgPred p = (KitCgPred)rng_below(&g->r, 10);
      if (t == T_I1 && gen_signed_pred(p)) t = T_I8;
      v = kit_cg_cmp(&g->b, p, pool_pick(g, t), pool_pick(g, t));
      break;
    }
    case 3: v = kit_cg_binop(&g->b, KIT_CG_OP_SHL + rng_below(&g->r, 3), pool_pick(g, t), pool_pick(g, t)); break;
    case 4: v = kit_cg_binop(&g->b, KIT_CG_OP_ADD + rng_below(&g->r, 2), pool_pick(g, t), pool_pick(g, t)); break;
    default:
      if (t == T_I1) t = T_I8;
      v = kit_cg_binop(&g->b, KIT_CG_OP_SMIN + rng_below(&g->r, 4), pool_pick(g, t), pool_pick(g, t));
      break;
    }
    live[i] = v;
    g->budget--;
  }
  g->consts_only = false;
  if (g->call_pct) gen_call(g); /* all of them live across a call */
  /* consume in a shuffled order */
  for (int i = n - 1; i > 0; i--) {
    int j = (int)rng_below(&g->r, (uint32_t)i + 1);
    KitCgVal t = live[i];
    live[i] = live[j];
    live[j] = t;
  }
  KitCgVal acc = gen_to64(g, live[0]);
  for (int i = 1; i < n; i++) {
    if (rng_chance(&g->r, 15)) kit_cg_store(&g->b, live[i], gen_addr(g), 0, KIT_CG_INTERNAL);
    acc = kit_cg_binop(&g->b, rng_chance(&g->r, 50) ? KIT_CG_OP_XOR : KIT_CG_OP_ADD, acc, gen_to64(g, live[i]));
    if (i == n / 2 && g->call_pct) {
      KitCgVal a[2] = {acc, gen_to64(g, live[0])};
      acc = kit_cg_call(&g->b, helper_sym(g->m, 3 + 0 * 0), T_I64,
                        (KitCgVal[3]){a[0], a[1], gen_to64(g, live[n - 1])}, 3);
    }
  }
  pool_push(g, acc);
  emit_ret(g);
}

static void gen_args(Rng *r, const KitCgFunc *f, uint64_t *args, uint64_t *dirty) {
  Gen tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.r = *r;
  tmp.fav[0] = rng_next(&tmp.r);
  tmp.fav[1] = 0x80;
  tmp.fav[2] = 0xffff;
  for (uint32_t i = 0; i < f->nparams; i++) {
    KitCgType t = (KitCgType)f->params[i].type;
    if (t == T_PTR) {
      args[i] = dirty[i] = (uint64_t)(uintptr_t)buf;
      continue;
    }
    args[i] = gen_interesting(&tmp, t) & type_mask(t);
    dirty[i] = args[i];
    if (t != T_I64) dirty[i] |= rng_next(&tmp.r) & 0xffffffff00000000ull; /* bits 32..63 are undefined */
  }
  *r = tmp.r;
}

GenFunc gen_func(uint64_t seed, bool avoid_selects) {
  gen_avoid_select = avoid_selects;
  static Gen g; /* large */
  memset(&g, 0, sizeof g);
  g.r.s = seed * 0x2545f4914f6cdd1dull + 0x1234567;
  rng_next(&g.r);
  GenFunc gf;
  memset(&gf, 0, sizeof gf);
  g.m = kit_cg_module_new("random");
  static const KitCgType rts[] = {T_I64, T_I64, T_I64, T_I64, T_I32, T_I32, T_I32, T_I16, T_I8, T_I1, T_PTR};
  g.rt = rts[rng_below(&g.r, rng_chance(&g.r, 50) ? 10 : 11)];
  KitCgType ps[6];
  uint32_t np = 1 + rng_below(&g.r, 6);
  uint32_t bufp = rng_chance(&g.r, 20) ? rng_below(&g.r, np) : 0; /* which parameter is the buffer */
  static const KitCgType pts[] = {T_I64, T_I64, T_I64, T_I64, T_I32, T_I32, T_I32, T_I16, T_I8, T_I8, T_I1, T_I1};
  for (uint32_t i = 0; i < np; i++) ps[i] = i == bufp ? T_PTR : pts[rng_below(&g.r, 12)];
  g.f = kit_cg_func_declare(g.m, "f", g.rt, ps, np, false);
  kit_cg_builder_init(&g.b, g.m, g.f);
  kit_cg_block_new(g.m, g.f);
  g.fav[0] = rng_next(&g.r);
  g.fav[1] = rng_below(&g.r, 256);
  g.fav[2] = 0x7f;
  for (uint32_t i = 0; i < np; i++) pool_push(&g, i + 1);
  g.dp[g.ndp++] = (DPtr){bufp + 1, 0, 0};
  uint32_t shape = rng_below(&g.r, 20);
  g.i1_signed = rng_chance(&g.r, 3);
  g.tail_pct = rng_chance(&g.r, 30) ? 60 : 8;
  if (shape < 4) {
    gf.shape = "pressure";
    g.budget = 400;
    g.call_pct = rng_chance(&g.r, 40) ? 1 : 0;
    pressure(&g);
  } else if (shape < 8) {
    gf.shape = "straight";
    g.budget = 60 + (int)rng_below(&g.r, 60);
    g.call_pct = rng_chance(&g.r, 30) ? 12 : 2;
    straight(&g, 25 + (int)rng_below(&g.r, 40));
    emit_ret(&g);
  } else if (shape < 11) {
    gf.shape = "calls";
    g.budget = 80 + (int)rng_below(&g.r, 60);
    g.call_pct = 30;
    cfg_region(&g, 1);
  } else {
    gf.shape = "cfg";
    g.budget = 60 + (int)rng_below(&g.r, 90);
    g.call_pct = 3;
    cfg_region(&g, 0);
  }
  /* blocks need not be numbered in generation order: mostly another
   * topological order of the CFG, sometimes any order (the compiler declines
   * functions whose numbering puts a use before its definition) */
  if (g.f->nblocks > 2 && rng_chance(&g.r, 35)) {
    uint32_t n = g.f->nblocks, *perm = malloc(n * sizeof *perm), *pos = malloc(n * sizeof *pos);
    if (rng_chance(&g.r, 25)) {
      gf.any_order = true;
      for (uint32_t i = 0; i < n; i++) perm[i] = i;
      for (uint32_t i = n - 1; i > 1; i--) {
        uint32_t j = 1 + rng_below(&g.r, i);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
    } else { /* Kahn's algorithm, picking a random ready block */
      uint32_t *indeg = calloc(n, sizeof *indeg), *ready = malloc(n * sizeof *ready), nr = 0, np = 0;
      for (uint32_t b = 0; b < n; b++) {
        const KitCgBlkId *sv;
        uint32_t ns = kit_cg_block_succs(g.f, b, &sv);
        for (uint32_t k = 0; k < ns; k++) indeg[sv[k]]++;
      }
      ready[nr++] = 0;
      while (nr) {
        uint32_t j = np == 0 ? 0 : rng_below(&g.r, nr), b = ready[j];
        ready[j] = ready[--nr];
        perm[np++] = b;
        const KitCgBlkId *sv;
        uint32_t ns = kit_cg_block_succs(g.f, b, &sv);
        for (uint32_t k = 0; k < ns; k++)
          if (--indeg[sv[k]] == 0) ready[nr++] = sv[k];
      }
      free(indeg);
      free(ready);
    }
    KitCgBlock *nb = malloc(n * sizeof *nb);
    for (uint32_t i = 0; i < n; i++) nb[i] = g.f->blocks[perm[i]], pos[perm[i]] = i;
    memcpy(g.f->blocks, nb, n * sizeof *nb);
    for (uint32_t i = 0; i < n; i++) {
      KitCgBlock *bb = &g.f->blocks[i];
      KitCgInst *t = &bb->insts[bb->ninsts - 1];
      for (uint32_t k = 0; k < t->nblks; k++) t->blks[k] = pos[t->blks[k]];
    }
    free(nb);
    free(perm);
    free(pos);
  }
  gen_args(&g.r, g.f, gf.args, gf.dirty);
  gf.m = g.m;
  gf.f = g.f;
  return gf;
}

NewFunc new_func(const char *module, KitCgType rt, const KitCgType *ps, uint32_t np) {
  NewFunc d;
  d.m = kit_cg_module_new(module);
  d.f = kit_cg_func_declare(d.m, "f", rt, ps, np, false);
  kit_cg_builder_init(&d.b, d.m, d.f);
  kit_cg_block_new(d.m, d.f);
  return d;
}
