/* arch/rv64/lift_a.c — lifting RV64A: AMOs as CG atomic.rmw on the host
 * address the emulator hands out, LR as an atomic load that records a
 * reservation (address, value) in the CPU state, SC as a cmpxchg against
 * the reserved value that fails without touching memory when no
 * reservation covers its address. */
#include "lift.h"

#include <stddef.h>

static KitCgOrder order_of(uint8_t aqrl) {
  switch (aqrl & 3) {
  case 3: return KIT_CG_SEQCST;
  case 2: return KIT_CG_ACQUIRE;
  case 1: return KIT_CG_RELEASE;
  default: return KIT_CG_RELAXED;
  }
}

static KitCgVal widen(RvLift *L, KitCgVal v, bool w) { return w ? rv_sext32(L, v) : v; }

static void lr(RvLift *L, bool w) {
  KitCgBuilder *b = L->b;
  KitCgVal addr = rv_x(L, L->in->rs1);
  KitCgVal p = rv_host_addr(L, addr, w ? 4 : 8, false);
  KitCgInst *ld = kit_cg_emit(b, KIT_CG_OP_ALOAD, w ? KIT_CG_I32 : KIT_CG_I64, &p, 1);
  ld->pred = (uint8_t)order_of(L->in->rm);
  ld->cls = KIT_CG_PROGRAM;
  KitCgVal v = widen(L, ld->id, w);
  rv_st_state(L, addr, offsetof(KitRv64Cpu, res_addr));
  rv_st_state(L, v, offsetof(KitRv64Cpu, res_value));
  rv_st_state(L, rv_c32(L, 1), offsetof(KitRv64Cpu, res_valid));
  rv_setx(L, L->in->rd, v);
}

static void sc(RvLift *L, bool w) {
  KitCgBuilder *b = L->b;
  KitCgType t = w ? KIT_CG_I32 : KIT_CG_I64;
  KitCgVal addr = rv_x(L, L->in->rs1), val = rv_x(L, L->in->rs2);
  KitCgVal valid = rv_ld_state(L, KIT_CG_I32, offsetof(KitRv64Cpu, res_valid));
  KitCgVal raddr = rv_ld_state(L, KIT_CG_I64, offsetof(KitRv64Cpu, res_addr));
  KitCgVal ok = kit_cg_binop(b, KIT_CG_OP_AND, kit_cg_cmp(b, KIT_CG_NE, valid, rv_c32(L, 0)),
                             kit_cg_cmp(b, KIT_CG_EQ, raddr, addr));
  KitCgBlkId try = kit_cg_block_new(b->m, b->f), fail = kit_cg_block_new(b->m, b->f);
  KitCgBlkId join = kit_cg_block_new(b->m, b->f);
  rv_flush(L); /* nothing may be left dirty in only one arm */
  kit_cg_condbr(b, ok, try, fail);

  kit_cg_builder_at(b, try);
  KitCgVal expect = rv_ld_state(L, KIT_CG_I64, offsetof(KitRv64Cpu, res_value));
  if (w) {
    expect = rv_trunc32(L, expect);
    val = rv_trunc32(L, val);
  }
  KitCgVal p = rv_host_addr(L, addr, w ? 4 : 8, true);
  KitCgVal args[3] = {p, expect, val};
  KitCgInst *cx = kit_cg_emit(b, KIT_CG_OP_ACMPXCHG, t, args, 3);
  cx->pred = (uint8_t)order_of(L->in->rm);
  cx->cls = KIT_CG_PROGRAM;
  KitCgVal stored = kit_cg_cmp(b, KIT_CG_EQ, cx->id, expect);
  KitCgVal res_try = kit_cg_select(b, stored, rv_c64(L, 0), rv_c64(L, 1));
  KitCgBlkId try_end = b->blk; /* host_addr may have split the block */
  kit_cg_br(b, join);

  kit_cg_builder_at(b, fail);
  KitCgVal res_fail = rv_c64(L, 1);
  kit_cg_br(b, join);

  kit_cg_builder_at(b, join);
  KitCgInst *phi = kit_cg_phi(b, KIT_CG_I64);
  KitCgVal res = phi->id;
  kit_cg_phi_add(b->m, phi, res_try, try_end);
  kit_cg_phi_add(b->m, phi, res_fail, fail);
  rv_st_state(L, rv_c32(L, 0), offsetof(KitRv64Cpu, res_valid));
  rv_setx(L, L->in->rd, res);
}

int rv_lift_a(RvLift *L) {
  const KitDecodedInsn *in = L->in;
  bool w = in->op <= RV_AMOMAXU_W;
  int k = in->op - (w ? RV_LR_W : RV_LR_D);
  if (k == 0) { lr(L, w); return 0; }
  if (k == 1) { sc(L, w); return 0; }
  static const KitCgRmw rmw[11] = {0, 0, KIT_CG_RMW_XCHG, KIT_CG_RMW_ADD, KIT_CG_RMW_XOR, KIT_CG_RMW_AND,
                                   KIT_CG_RMW_OR, KIT_CG_RMW_SMIN, KIT_CG_RMW_SMAX, KIT_CG_RMW_UMIN, KIT_CG_RMW_UMAX};
  KitCgBuilder *b = L->b;
  KitCgVal addr = rv_x(L, in->rs1), val = rv_x(L, in->rs2);
  /* rs2 = x0 must not reach LLVM as the constant 0: x86 lowers an idempotent
   * RMW (add/or/xor 0) to a fenced plain load, which does not fault on a
   * read-only page as the AMO's store must. x[0] in the state is always 0. */
  if (in->rs2 == 0) val = rv_ld_state(L, KIT_CG_I64, offsetof(KitRv64Cpu, x[0]));
  if (w) val = rv_trunc32(L, val);
  KitCgVal p = rv_host_addr(L, addr, w ? 4 : 8, true);
  KitCgVal args[2] = {p, val};
  KitCgInst *am = kit_cg_emit(b, KIT_CG_OP_ARMW, w ? KIT_CG_I32 : KIT_CG_I64, args, 2);
  am->aux = rmw[k];
  am->pred = (uint8_t)order_of(in->rm);
  am->cls = KIT_CG_PROGRAM;
  rv_setx(L, in->rd, widen(L, am->id, w));
  return 0;
}
