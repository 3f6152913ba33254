/* tests/lib/cg_gen_insts.c — the random generator's values and instructions:
 * typed pools of live values, constants biased to corner values, buffer
 * pointers with known bounds, and one generator per kind of instruction
 * (arithmetic, shifts, guarded division, compares, selects, conversions,
 * memory, fences, calls to the host helpers). */
#include <stdlib.h>
#include <string.h>

#include "cg_gen_internal.h"
#include "host_env.h"

const KitCgType gen_types[6] = {T_I1, T_I8, T_I16, T_I32, T_I64, T_PTR};
static int gen_type_index(KitCgType t) {
  for (int i = 0; i < 6; i++)
    if (gen_types[i] == t) return i;
  return 4;
}

Scope gen_scope_save(const Gen *g) {
  Scope s;
  memcpy(s.np, g->np, sizeof s.np);
  s.ndp = g->ndp;
  return s;
}
void gen_scope_restore(Gen *g, const Scope *s) {
  memcpy(g->np, s->np, sizeof s->np);
  g->ndp = s->ndp;
  g->lastcmp = 0;
}

static KitCgType gen_type_of(const Gen *g, KitCgVal v) { return kit_cg_val_type(g->f, v); }
void pool_push(Gen *g, KitCgVal v) {
  int t = gen_type_index(gen_type_of(g, v));
  if (g->np[t] < POOLMAX) g->pool[t][g->np[t]++] = v;
}
static void pool_push_ptr(Gen *g, KitCgVal v, int lo, int hi) {
  if (g->ndp < DPMAX) g->dp[g->ndp++] = (DPtr){v, lo, hi};
  pool_push(g, v);
}
KitCgInst *gen_last_inst(Gen *g) {
  KitCgBlock *bb = &g->f->blocks[g->b.blk];
  return &bb->insts[bb->ninsts - 1];
}

uint64_t gen_interesting(Gen *g, KitCgType t) {
  unsigned w = kit_cg_type_bits(t);
  if (t == T_PTR) w = 64;
  uint64_t top = 1ull << (w - 1);
  switch (rng_below(&g->r, 13)) {
  case 0: return 0;
  case 1: return 1;
  case 2: return ~0ull;
  case 3: return top;
  case 4: return top - 1;
  case 5: return rng_below(&g->r, 17);
  case 6: return w - 1;
  case 7: return w + rng_below(&g->r, 3);
  case 8: return g->fav[rng_below(&g->r, 3)];
  case 9: return g->fav[0];
  case 10: return (uint64_t)-(int64_t)rng_below(&g->r, 300);
  default: return rng_next(&g->r);
  }
}

static KitCgVal gen_const(Gen *g, KitCgType t) {
  KitCgVal v;
  if (t == T_PTR) {
    if (rng_chance(&g->r, 50)) v = kit_cg_iconst(&g->b, T_PTR, rng_chance(&g->r, 50) ? 0 : gen_interesting(g, T_I64));
    else v = kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, kit_cg_iconst(&g->b, T_I64, gen_interesting(g, T_I64)));
  } else {
    v = kit_cg_iconst(&g->b, t, gen_interesting(g, t));
  }
  g->budget--;
  return v;
}

KitCgVal pool_pick(Gen *g, KitCgType t) {
  int ti = gen_type_index(t), n = g->np[ti];
  if (g->consts_only) {
    /* parameters of that type or a constant */
    KitCgVal cand[8];
    int nc = 0;
    for (uint32_t i = 0; i < g->f->nparams && nc < 8; i++)
      if (g->f->params[i].type == t) cand[nc++] = i + 1;
    if (nc && rng_chance(&g->r, 70)) return cand[rng_below(&g->r, (uint32_t)nc)];
    return gen_const(g, t);
  }
  if (n == 0 || rng_chance(&g->r, 8)) {
    KitCgVal v = gen_const(g, t);
    pool_push(g, v);
    return v;
  }
  if (rng_chance(&g->r, 55)) return g->pool[ti][n - 1 - (int)rng_below(&g->r, (uint32_t)(n < 4 ? n : 4))];
  return g->pool[ti][rng_below(&g->r, (uint32_t)n)];
}

KitCgType gen_int_type(Gen *g) {
  static const KitCgType w[] = {T_I64, T_I64, T_I64, T_I64, T_I32, T_I32, T_I32, T_I16, T_I16, T_I8, T_I8, T_I1};
  return w[rng_below(&g->r, sizeof w / sizeof w[0])];
}
KitCgType gen_mem_type(Gen *g) {
  static const KitCgType w[] = {T_I64, T_I64, T_I32, T_I32, T_I16, T_I8, T_I8, T_PTR};
  return w[rng_below(&g->r, sizeof w / sizeof w[0])];
}

/* any value widened to i64 */
KitCgVal gen_to64(Gen *g, KitCgVal v) {
  KitCgType t = gen_type_of(g, v);
  g->budget--;
  if (t == T_I64) return v;
  if (t == T_PTR) return kit_cg_conv(&g->b, KIT_CG_OP_PTRTOINT, T_I64, v);
  return kit_cg_conv(&g->b, rng_chance(&g->r, 50) ? KIT_CG_OP_ZEXT : KIT_CG_OP_SEXT, T_I64, v);
}
/* an i64 cut or kept to type t */
KitCgVal gen_from64(Gen *g, KitCgVal v, KitCgType t) {
  if (t == T_I64) return v;
  g->budget--;
  if (t == T_PTR) return kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, v);
  return kit_cg_conv(&g->b, KIT_CG_OP_TRUNC, t, v);
}

/* the generator spells select as and/xor (gen_func's avoid_select: triage,
 * hides select bugs to find others) */
bool gen_avoid_select;
static KitCgVal gsel(Gen *g, KitCgVal c, KitCgVal x, KitCgVal y) {
  if (!gen_avoid_select) {
    KitCgVal r = kit_cg_select(&g->b, c, x, y);
    if (rng_chance(&g->r, 25)) gen_last_inst(g)->flags |= KIT_CG_F_LIKELY; /* the false operand out of line */
    return r;
  }
  KitCgType t = gen_type_of(g, x);
  KitCgType it = t == T_PTR ? T_I64 : t;
  if (t == T_PTR) {
    x = kit_cg_conv(&g->b, KIT_CG_OP_PTRTOINT, T_I64, x);
    y = kit_cg_conv(&g->b, KIT_CG_OP_PTRTOINT, T_I64, y);
  }
  KitCgVal m = it == T_I1 ? c : kit_cg_conv(&g->b, KIT_CG_OP_SEXT, it, c);
  KitCgVal r = kit_cg_binop(&g->b, KIT_CG_OP_XOR, y,
                            kit_cg_binop(&g->b, KIT_CG_OP_AND, kit_cg_binop(&g->b, KIT_CG_OP_XOR, x, y), m));
  return t == T_PTR ? kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, r) : r;
}

/* an address for an access of up to 8 bytes inside buf */
KitCgVal gen_addr(Gen *g) {
  if (rng_chance(&g->r, 8)) { /* a constant address into the buffer */
    int k = (int)rng_below(&g->r, ACC_MAX + 1);
    uint64_t a = (uint64_t)(uintptr_t)buf + (uint64_t)k;
    KitCgVal p = rng_chance(&g->r, 50) ? kit_cg_iconst(&g->b, T_PTR, a)
                               : kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, kit_cg_iconst(&g->b, T_I64, a));
    g->budget -= 2;
    pool_push_ptr(g, p, k, k);
    return p;
  }
  DPtr d = g->dp[g->ndp > 1 && rng_chance(&g->r, 70) ? g->ndp - 1 - (int)rng_below(&g->r, (uint32_t)(g->ndp < 6 ? g->ndp : 6))
                                               : (int)rng_below(&g->r, (uint32_t)g->ndp)];
  if (rng_chance(&g->r, 60)) {
    int k = -d.lo + (int)rng_below(&g->r, (uint32_t)(ACC_MAX - d.hi + d.lo + 1));
    if (k) {
      KitCgVal p = kit_cg_ptradd(&g->b, d.v, kit_cg_iconst(&g->b, T_I64, (uint64_t)(int64_t)k));
      g->budget -= 2;
      pool_push_ptr(g, p, d.lo + k, d.hi + k);
      return p;
    }
  }
  return d.v;
}

static void gen_ptradd(Gen *g) {
  if (rng_chance(&g->r, 25)) { /* arbitrary pointer arithmetic, never dereferenced */
    KitCgVal p = kit_cg_ptradd(&g->b, pool_pick(g, T_PTR), pool_pick(g, T_I64));
    g->budget--;
    pool_push(g, p);
    return;
  }
  DPtr d = g->dp[rng_below(&g->r, (uint32_t)g->ndp)];
  int room = ACC_MAX - d.hi;
  if (room <= 0) return;
  KitCgVal off;
  int addhi;
  switch (rng_below(&g->r, 4)) {
  case 0: { /* masked index */
    uint64_t msk = 1;
    while (msk * 2 - 1 <= (uint64_t)room && msk < 512) msk *= 2;
    msk -= 1;
    if (rng_chance(&g->r, 40)) msk &= ~7ull;
    off = kit_cg_binop(&g->b, KIT_CG_OP_AND, pool_pick(g, T_I64), kit_cg_iconst(&g->b, T_I64, msk));
    addhi = (int)msk;
    g->budget -= 2;
    break;
  }
  case 1: /* zero-extended i8 index */
    if (room < 255) return;
    off = kit_cg_conv(&g->b, KIT_CG_OP_ZEXT, T_I64, pool_pick(g, T_I8));
    addhi = 255;
    g->budget--;
    break;
  case 2: { /* scaled index: (x & 31) << 3 */
    if (room < 248) return;
    KitCgVal x = kit_cg_binop(&g->b, KIT_CG_OP_AND, pool_pick(g, T_I64), kit_cg_iconst(&g->b, T_I64, 31));
    off = kit_cg_binop(&g->b, KIT_CG_OP_SHL, x, kit_cg_iconst(&g->b, T_I64, 3));
    addhi = 248;
    g->budget -= 4;
    break;
  }
  default: { /* select of two in-range constants */
    KitCgVal c = pool_pick(g, T_I1);
    uint64_t k1 = rng_below(&g->r, (uint32_t)room + 1), k2 = rng_below(&g->r, (uint32_t)room + 1);
    off = gsel(g, c, kit_cg_iconst(&g->b, T_I64, k1), kit_cg_iconst(&g->b, T_I64, k2));
    addhi = (int)(k1 > k2 ? k1 : k2);
    g->budget -= 3;
    break;
  }
  }
  KitCgVal p = kit_cg_ptradd(&g->b, d.v, off);
  g->budget--;
  pool_push_ptr(g, p, d.lo, d.hi + addhi);
}

static void gen_select_dp(Gen *g) {
  if (g->ndp < 2) return;
  DPtr a = g->dp[rng_below(&g->r, (uint32_t)g->ndp)], b = g->dp[rng_below(&g->r, (uint32_t)g->ndp)];
  KitCgVal p = gsel(g, pool_pick(g, T_I1), a.v, b.v);
  g->budget--;
  pool_push_ptr(g, p, a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

static void gen_binop(Gen *g, KitCgType t) {
  static const KitCgOp ops[] = {KIT_CG_OP_ADD, KIT_CG_OP_SUB, KIT_CG_OP_MUL, KIT_CG_OP_AND, KIT_CG_OP_OR,
                                KIT_CG_OP_XOR, KIT_CG_OP_SMIN, KIT_CG_OP_SMAX, KIT_CG_OP_UMIN, KIT_CG_OP_UMAX,
                                KIT_CG_OP_ADD, KIT_CG_OP_SUB};
  KitCgOp op = ops[rng_below(&g->r, sizeof ops / sizeof ops[0])];
  if (t == T_I1 && !g->i1_signed && (op == KIT_CG_OP_SMIN || op == KIT_CG_OP_SMAX)) t = T_I8;
  KitCgVal x = pool_pick(g, t), y = rng_chance(&g->r, 8) ? x : pool_pick(g, t);
  pool_push(g, kit_cg_binop(&g->b, op, x, y));
  g->budget--;
}

static void gen_shift(Gen *g, KitCgType t) {
  static const KitCgOp ops[] = {KIT_CG_OP_SHL, KIT_CG_OP_LSHR, KIT_CG_OP_ASHR};
  KitCgOp op = ops[rng_below(&g->r, 3)];
  unsigned w = kit_cg_type_bits(t);
  KitCgVal x = pool_pick(g, t), amt;
  switch (rng_below(&g->r, 4)) {
  case 0: amt = kit_cg_iconst(&g->b, t, rng_below(&g->r, w)); break;             /* in range */
  case 1: amt = kit_cg_iconst(&g->b, t, rng_below(&g->r, 256)); break;           /* any, taken modulo w */
  case 2: amt = kit_cg_iconst(&g->b, t, rng_chance(&g->r, 50) ? w : rng_next(&g->r)); break;
  default: amt = pool_pick(g, t); break;                                       /* a variable amount */
  }
  pool_push(g, kit_cg_binop(&g->b, op, x, amt));
  g->budget -= 2;
}

static void gen_unop(Gen *g, KitCgType t) {
  pool_push(g, kit_cg_unop(&g->b, rng_chance(&g->r, 50) ? KIT_CG_OP_NEG : KIT_CG_OP_NOT, pool_pick(g, t)));
  g->budget--;
}

/* division whose divisor cannot be 0 and whose signed forms never see MIN / -1 */
static void gen_div(Gen *g, KitCgType t) {
  if (t == T_I1) t = T_I64;
  static const KitCgOp ops[] = {KIT_CG_OP_UDIV, KIT_CG_OP_SDIV, KIT_CG_OP_UREM, KIT_CG_OP_SREM};
  KitCgOp op = ops[rng_below(&g->r, 4)];
  bool sgn = op == KIT_CG_OP_SDIV || op == KIT_CG_OP_SREM;
  uint64_t m = type_mask(t), top = (m >> 1) + 1;
  KitCgVal x = pool_pick(g, t), d;
  bool x_safe = false; /* dividend cannot be MIN */
  if (sgn && rng_chance(&g->r, 40)) {
    x = rng_chance(&g->r, 50) ? kit_cg_binop(&g->b, KIT_CG_OP_LSHR, x, kit_cg_iconst(&g->b, t, 1))
                      : kit_cg_binop(&g->b, KIT_CG_OP_AND, x, kit_cg_iconst(&g->b, t, m >> 1));
    x_safe = true;
    g->budget -= 2;
  }
  switch (rng_below(&g->r, 4)) {
  case 0: { /* constant divisor */
    static const uint64_t ks[] = {1, 2, 3, 5, 7, 8, 10, 16, 255, 1000, 0x7fffffff, ~0ull, ~1ull, ~6ull};
    uint64_t k = ks[rng_below(&g->r, sizeof ks / sizeof ks[0])] & m;
    if (rng_chance(&g->r, 30)) k = rng_next(&g->r) & m;
    if (rng_chance(&g->r, 10)) k = top;
    if (!k) k = 3;
    if (sgn && !x_safe && k == m) k = m - 1; /* -1 only with a safe dividend */
    if (!k) k = 1;
    d = kit_cg_iconst(&g->b, t, k);
    g->budget--;
    break;
  }
  case 1: /* y | 1 */
    d = kit_cg_binop(&g->b, KIT_CG_OP_OR, pool_pick(g, t), kit_cg_iconst(&g->b, t, rng_chance(&g->r, 70) ? 1 : top));
    g->budget -= 2;
    break;
  case 2: /* umax(y, 1) */
    d = kit_cg_binop(&g->b, KIT_CG_OP_UMAX, pool_pick(g, t), kit_cg_iconst(&g->b, t, 1));
    g->budget -= 2;
    break;
  default: { /* select(y == 0, 7, y) */
    KitCgVal y = pool_pick(g, t);
    KitCgVal z = kit_cg_cmp(&g->b, KIT_CG_EQ, y, kit_cg_iconst(&g->b, t, 0));
    d = gsel(g, z, kit_cg_iconst(&g->b, t, 7), y);
    g->budget -= 4;
    break;
  }
  }
  if (sgn && !x_safe) { /* divisor -1 -> 3 */
    KitCgVal c = kit_cg_cmp(&g->b, KIT_CG_EQ, d, kit_cg_iconst(&g->b, t, m));
    d = gsel(g, c, kit_cg_iconst(&g->b, t, 3), d);
    g->budget -= 4;
  }
  pool_push(g, kit_cg_binop(&g->b, op, x, d));
  g->budget--;
}

bool gen_signed_pred(KitCgPred p) { return p >= KIT_CG_SLT && p <= KIT_CG_SGE; }
KitCgVal gen_icmp(Gen *g, KitCgType t) {
  KitCgPred p = (KitCgPred)rng_below(&g->r, 10);
  if (t == T_I1 && !g->i1_signed && gen_signed_pred(p)) t = T_I8;
  KitCgVal x = pool_pick(g, t), y = rng_chance(&g->r, 30) ? gen_const(g, t) : pool_pick(g, t);
  KitCgVal c = kit_cg_cmp(&g->b, p, x, y);
  g->budget--;
  pool_push(g, c);
  g->lastcmp = c;
  if (rng_chance(&g->r, 40)) { /* the select right after it */
    KitCgType st = rng_chance(&g->r, 20) ? T_PTR : gen_int_type(g);
    if (rng_chance(&g->r, 50)) st = t;
    pool_push(g, gsel(g, c, pool_pick(g, st), pool_pick(g, st)));
    g->budget--;
  }
  return c;
}

static void gen_select(Gen *g) {
  KitCgType t = rng_chance(&g->r, 15) ? T_PTR : gen_int_type(g);
  KitCgVal c = g->lastcmp && rng_chance(&g->r, 50) ? g->lastcmp : pool_pick(g, T_I1);
  pool_push(g, gsel(g, c, pool_pick(g, t), pool_pick(g, t)));
  g->budget--;
}

static void gen_conv(Gen *g) {
  static const KitCgType ints[5] = {T_I1, T_I8, T_I16, T_I32, T_I64};
  switch (rng_below(&g->r, 7)) {
  case 0:
  case 1: { /* trunc */
    int from = 1 + (int)rng_below(&g->r, 4), to = (int)rng_below(&g->r, (uint32_t)from);
    pool_push(g, kit_cg_conv(&g->b, KIT_CG_OP_TRUNC, ints[to], pool_pick(g, ints[from])));
    break;
  }
  case 2:
  case 3:
  case 4: { /* zext / sext */
    int from = (int)rng_below(&g->r, 4), to = from + 1 + (int)rng_below(&g->r, (uint32_t)(4 - from));
    pool_push(g, kit_cg_conv(&g->b, rng_chance(&g->r, 50) ? KIT_CG_OP_ZEXT : KIT_CG_OP_SEXT, ints[to], pool_pick(g, ints[from])));
    break;
  }
  case 5: /* ptrtoint */
    pool_push(g, kit_cg_conv(&g->b, KIT_CG_OP_PTRTOINT, rng_chance(&g->r, 70) ? T_I64 : ints[rng_below(&g->r, 5)], pool_pick(g, T_PTR)));
    break;
  default: /* inttoptr */
    pool_push(g, kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, pool_pick(g, rng_chance(&g->r, 70) ? T_I64 : ints[rng_below(&g->r, 5)])));
    break;
  }
  g->budget--;
}

uint32_t gen_align(Gen *g) {
  static const uint32_t al[] = {0, 0, 1, 1, 2, 4, 8, 16};
  return al[rng_below(&g->r, 8)];
}

static void gen_load(Gen *g) {
  KitCgType t = gen_mem_type(g);
  KitCgVal p = gen_addr(g);
  pool_push(g, kit_cg_load(&g->b, t, p, gen_align(g), rng_chance(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL));
  g->budget--;
}

void gen_store(Gen *g) {
  KitCgType t = rng_chance(&g->r, 5) ? T_I1 : gen_mem_type(g);
  KitCgVal v = pool_pick(g, t);
  KitCgVal p = gen_addr(g);
  kit_cg_store(&g->b, v, p, gen_align(g), rng_chance(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL);
  g->budget--;
}

/* load, add a constant, store back: the compiler turns the exact pattern
 * into an add to memory; the variants around it must not be */
static void gen_rmw(Gen *g) {
  static const KitCgType ts[] = {T_I64, T_I64, T_I32, T_I32, T_I16, T_I8};
  KitCgType t = ts[rng_below(&g->r, 6)];
  DPtr d = g->dp[rng_below(&g->r, (uint32_t)g->ndp)];
  int k = -d.lo + (int)rng_below(&g->r, (uint32_t)(ACC_MAX - d.hi + d.lo + 1));
  uint32_t variant = rng_below(&g->r, 6);
  KitCgVal p, q;
  if (variant == 0 || variant == 1) { /* one address value */
    p = q = gen_addr(g);
  } else { /* two ptradds of the same base and offset (or, variant 5, another offset) */
    p = kit_cg_ptradd(&g->b, d.v, kit_cg_iconst(&g->b, T_I64, (uint64_t)(int64_t)k));
    int k2 = variant == 5 && k + 8 <= ACC_MAX - d.hi ? k + 8 : k;
    q = kit_cg_ptradd(&g->b, d.v, kit_cg_iconst(&g->b, T_I64, (uint64_t)(int64_t)k2));
    g->budget -= 4;
  }
  uint32_t al = gen_align(g);
  KitCgVal v = kit_cg_load(&g->b, t, p, al, rng_chance(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL);
  uint64_t c = rng_chance(&g->r, 70) ? gen_interesting(g, t) : (uint64_t)(int64_t)(int)rng_below(&g->r, 200) - 100;
  KitCgVal cv = kit_cg_iconst(&g->b, t, c);
  KitCgVal w = rng_chance(&g->r, 50) ? kit_cg_binop(&g->b, KIT_CG_OP_ADD, v, cv) : kit_cg_binop(&g->b, KIT_CG_OP_ADD, cv, v);
  if (variant == 1 || variant == 4) pool_push(g, v); /* the loaded value lives on */
  if (variant == 3) pool_push(g, w);                 /* so does the sum */
  kit_cg_store(&g->b, w, q, al, rng_chance(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL);
  g->budget -= 4;
}

/* a load compared with a constant right after it (the compare reads memory) */
KitCgVal gen_loadcmp(Gen *g) {
  KitCgType t = gen_mem_type(g);
  KitCgVal p = gen_addr(g);
  KitCgVal v = kit_cg_load(&g->b, t, p, gen_align(g), rng_chance(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL);
  KitCgVal k = gen_const(g, t);
  KitCgPred pr = (KitCgPred)rng_below(&g->r, 10);
  KitCgVal c = rng_chance(&g->r, 50) ? kit_cg_cmp(&g->b, pr, v, k) : kit_cg_cmp(&g->b, pr, k, v);
  g->budget -= 2;
  pool_push(g, c);
  g->lastcmp = c;
  if (rng_chance(&g->r, 10)) pool_push(g, v); /* a second use: no fusion */
  return c;
}

static void gen_fence(Gen *g) {
  kit_cg_emit(&g->b, KIT_CG_OP_FENCE, T_VOID, NULL, 0)->pred = (uint8_t)rng_below(&g->r, 5);
  g->budget--;
}

/* an i64 call argument: mostly pool values (parameters included) */
static KitCgVal call_arg(Gen *g) {
  if (rng_chance(&g->r, 75)) return pool_pick(g, T_I64);
  KitCgType t = rng_chance(&g->r, 20) ? T_PTR : gen_int_type(g);
  return gen_to64(g, pool_pick(g, t));
}

/* a call to helper h (direct or through a pointer); returns its value or 0 */
KitCgVal gen_emit_call(Gen *g, int h, bool tail) {
  const Helper *hp = &helpers[h];
  KitCgVal args[6];
  for (int i = 0; i < hp->nargs; i++) {
    if (i == 0 && hp->bufarg) {
      /* a pointer with 64 readable bytes */
      DPtr d = g->dp[rng_below(&g->r, (uint32_t)g->ndp)];
      KitCgVal p = d.v;
      if (d.hi > BUFSZ - 64) {
        p = kit_cg_ptradd(&g->b, g->dp[0].v, kit_cg_iconst(&g->b, T_I64, rng_below(&g->r, BUFSZ - 64 + 1)));
        g->budget -= 2;
      }
      args[i] = p;
    } else {
      args[i] = call_arg(g);
    }
  }
  KitCgVal r;
  if (rng_chance(&g->r, 50)) {
    r = kit_cg_call(&g->b, helper_sym(g->m, h), hp->ret, args, (uint32_t)hp->nargs);
  } else {
    KitCgVal fp = kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR,
                              kit_cg_iconst(&g->b, T_I64, hp->stub));
    g->budget -= 2;
    r = kit_cg_calli(&g->b, fp, hp->ret, args, (uint32_t)hp->nargs);
  }
  if (tail) gen_last_inst(g)->flags |= KIT_CG_F_TAIL;
  g->budget -= 2;
  return r;
}

void gen_call(Gen *g) {
  int h = (int)rng_below(&g->r, NHELPERS);
  KitCgVal r = gen_emit_call(g, h, false);
  if (r) pool_push(g, r);
}

void gen_inst(Gen *g) {
  uint32_t k = rng_below(&g->r, 100 + (uint32_t)g->call_pct);
  KitCgType t = gen_int_type(g);
  if (k < 24) gen_binop(g, t);
  else if (k < 33) gen_shift(g, t);
  else if (k < 37) gen_unop(g, t);
  else if (k < 42) gen_div(g, t);
  else if (k < 51) gen_icmp(g, rng_chance(&g->r, 10) ? T_PTR : t);
  else if (k < 56) gen_select(g);
  else if (k < 66) gen_conv(g);
  else if (k < 74) gen_load(g);
  else if (k < 82) gen_store(g);
  else if (k < 87) gen_ptradd(g);
  else if (k < 88) rng_chance(&g->r, 50) ? gen_select_dp(g) : gen_rmw(g);
  else if (k < 89) gen_fence(g);
  else if (k < 91) pool_push(g, gen_const(g, t));
  else if (k < 92) gen_rmw(g);
  else if (k < 94) gen_loadcmp(g);
  else if (k < 97) gen_store(g);
  else if (k < 100) gen_binop(g, T_I64);
  else gen_call(g);
}

