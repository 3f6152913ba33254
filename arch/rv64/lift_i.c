/* arch/rv64/lift_i.c — lifting RV64I: integer arithmetic, loads and stores
 * through the emulator's memory seam, branches and jumps (which end the
 * block with the next pc), fences, and ecall/ebreak/fence.i exits. */
#include "lift.h"

static KitCgVal bin(RvLift *L, KitCgOp op, KitCgVal a, KitCgVal c) { return kit_cg_binop(L->b, op, a, c); }

static KitCgVal imm64(RvLift *L) { return rv_c64(L, (uint64_t)L->in->imm); }

/* 64-bit shift with a register amount masked to 6 bits, as RISC-V does
 * (immediate amounts are in range already) */
static KitCgVal shift64(RvLift *L, KitCgOp op, KitCgVal a, KitCgVal amt, bool is_imm) {
  return bin(L, op, a, is_imm ? amt : bin(L, KIT_CG_OP_AND, amt, rv_c64(L, 63)));
}

/* 32-bit op whose result is sign-extended (the *W instructions) */
static KitCgVal op32(RvLift *L, KitCgOp op, KitCgVal a, KitCgVal c, bool mask) {
  KitCgVal a32 = rv_trunc32(L, a), c32 = rv_trunc32(L, c);
  if (mask) c32 = bin(L, KIT_CG_OP_AND, c32, rv_c32(L, 31));
  return rv_sext32(L, bin(L, op, a32, c32));
}

/* the immediate ops on a known constant fold to a constant */
static bool fold(RvLift *L) {
  const KitDecodedInsn *in = L->in;
  uint64_t a, i = (uint64_t)in->imm, r;
  if (!rv_x_known(L, in->rs1, &a)) return false;
  switch (in->op) {
  case RV_ADDI: r = a + i; break;
  case RV_ADDIW: r = (uint64_t)(int64_t)(int32_t)(uint32_t)(a + i); break;
  case RV_XORI: r = a ^ i; break;
  case RV_ORI: r = a | i; break;
  case RV_ANDI: r = a & i; break;
  case RV_SLLI: r = a << i; break;
  case RV_SRLI: r = a >> i; break;
  case RV_SLLIW: r = (uint64_t)(int64_t)(int32_t)(uint32_t)(a << i); break;
  default: return false;
  }
  rv_setx_const(L, in->rd, r);
  return true;
}

static KitCgVal setcc(RvLift *L, KitCgPred p, KitCgVal a, KitCgVal c) {
  return kit_cg_conv(L->b, KIT_CG_OP_ZEXT, KIT_CG_I64, kit_cg_cmp(L->b, p, a, c));
}

static void load(RvLift *L, KitCgType t, bool is_signed) {
  KitCgVal addr = rv_addr(L);
  KitCgVal v = rv_load(L, t, addr);
  if (t != KIT_CG_I64) v = kit_cg_conv(L->b, is_signed ? KIT_CG_OP_SEXT : KIT_CG_OP_ZEXT, KIT_CG_I64, v);
  rv_setx(L, L->in->rd, v);
}

static void store(RvLift *L, KitCgType t) {
  KitCgVal addr = rv_addr(L);
  KitCgVal v = rv_x(L, L->in->rs2);
  if (t != KIT_CG_I64) v = kit_cg_conv(L->b, KIT_CG_OP_TRUNC, t, v);
  rv_store(L, t, v, addr);
}

static void branch(RvLift *L, KitCgPred p) {
  const KitDecodedInsn *in = L->in;
  KitCgVal lhs = rv_x(L, in->rs1), rhs = rv_x(L, in->rs2);
  KitCgVal c = kit_cg_cmp(L->b, p, lhs, rhs);
  if (in->flags & KIT_DECODE_FOLLOWED) { /* a trace goes on along one side */
    if (in->flags & KIT_DECODE_FOLLOW_TAKEN)
      rv_side_exit(L, kit_cg_cmp(L->b, KIT_CG_EQ, c, kit_cg_iconst(L->b, KIT_CG_I1, 0)), in->pc + in->len);
    else
      rv_side_exit(L, c, in->target);
    return;
  }
  L->next = kit_cg_select(L->b, c, rv_c64(L, in->target), rv_c64(L, in->pc + in->len));
  L->env->branch = (KitLiftBranch){KIT_LIFT_END_COND, p, lhs, rhs, in->target, in->pc + in->len};
}

int rv_lift_i(RvLift *L) {
  const KitDecodedInsn *in = L->in;
  unsigned rd = in->rd;
  KitCgVal a, c;
  switch (in->op) {
  case RV_LUI: rv_setx_const(L, rd, (uint64_t)in->imm); return 0;
  case RV_AUIPC: rv_setx_const(L, rd, in->pc + (uint64_t)in->imm); return 0;
  case RV_JAL:
    rv_setx_const(L, rd, in->pc + in->len);
    if (!(in->flags & KIT_DECODE_FOLLOWED)) {
      L->next = rv_c64(L, in->target);
      L->env->branch = (KitLiftBranch){.kind = KIT_LIFT_END_JUMP, .target = in->target};
    }
    return 0;
  case RV_JALR:
    a = bin(L, KIT_CG_OP_AND, rv_addr(L), rv_c64(L, ~1ull)); /* read rs1 before rd may overwrite it */
    rv_setx_const(L, rd, in->pc + in->len);
    L->next = a;
    L->env->branch = (KitLiftBranch){.kind = KIT_LIFT_END_INDIRECT};
    return 0;
  case RV_BEQ: branch(L, KIT_CG_EQ); return 0;
  case RV_BNE: branch(L, KIT_CG_NE); return 0;
  case RV_BLT: branch(L, KIT_CG_SLT); return 0;
  case RV_BGE: branch(L, KIT_CG_SGE); return 0;
  case RV_BLTU: branch(L, KIT_CG_ULT); return 0;
  case RV_BGEU: branch(L, KIT_CG_UGE); return 0;
  case RV_LB: load(L, KIT_CG_I8, true); return 0;
  case RV_LH: load(L, KIT_CG_I16, true); return 0;
  case RV_LW: load(L, KIT_CG_I32, true); return 0;
  case RV_LD: load(L, KIT_CG_I64, true); return 0;
  case RV_LBU: load(L, KIT_CG_I8, false); return 0;
  case RV_LHU: load(L, KIT_CG_I16, false); return 0;
  case RV_LWU: load(L, KIT_CG_I32, false); return 0;
  case RV_SB: store(L, KIT_CG_I8); return 0;
  case RV_SH: store(L, KIT_CG_I16); return 0;
  case RV_SW: store(L, KIT_CG_I32); return 0;
  case RV_SD: store(L, KIT_CG_I64); return 0;
  case RV_FENCE: case RV_FENCE_TSO:
    kit_cg_emit(L->b, KIT_CG_OP_FENCE, KIT_CG_VOID, NULL, 0)->pred = KIT_CG_SEQCST;
    return 0;
  case RV_FENCE_I: rv_emu_exit(L, "icache_flush"); return 0;
  case RV_ECALL: rv_emu_exit(L, "syscall_insn"); return 0;
  case RV_EBREAK: rv_emu_exit(L, "breakpoint"); return 0;
  default: break;
  }
  if (!rd) return 0; /* every op left writes only rd: a write to x0 is a hint/nop */
  bool is_imm = (in->op >= RV_ADDI && in->op <= RV_SRAI) || (in->op >= RV_ADDIW && in->op <= RV_SRAIW);
  if (is_imm && fold(L)) return 0;
  a = rv_x(L, in->rs1);
  c = is_imm ? imm64(L) : rv_x(L, in->rs2);
  KitCgVal r;
  switch (in->op) {
  case RV_ADDI: case RV_ADD: r = bin(L, KIT_CG_OP_ADD, a, c); break;
  case RV_SUB: r = bin(L, KIT_CG_OP_SUB, a, c); break;
  case RV_SLTI: case RV_SLT: r = setcc(L, KIT_CG_SLT, a, c); break;
  case RV_SLTIU: case RV_SLTU: r = setcc(L, KIT_CG_ULT, a, c); break;
  case RV_XORI: case RV_XOR: r = bin(L, KIT_CG_OP_XOR, a, c); break;
  case RV_ORI: case RV_OR: r = bin(L, KIT_CG_OP_OR, a, c); break;
  case RV_ANDI: case RV_AND: r = bin(L, KIT_CG_OP_AND, a, c); break;
  case RV_SLLI: case RV_SLL: r = shift64(L, KIT_CG_OP_SHL, a, c, is_imm); break;
  case RV_SRLI: case RV_SRL: r = shift64(L, KIT_CG_OP_LSHR, a, c, is_imm); break;
  case RV_SRAI: case RV_SRA: r = shift64(L, KIT_CG_OP_ASHR, a, c, is_imm); break;
  case RV_ADDIW: case RV_ADDW: r = op32(L, KIT_CG_OP_ADD, a, c, false); break;
  case RV_SUBW: r = op32(L, KIT_CG_OP_SUB, a, c, false); break;
  case RV_SLLIW: case RV_SLLW: r = op32(L, KIT_CG_OP_SHL, a, c, !is_imm); break;
  case RV_SRLIW: case RV_SRLW: r = op32(L, KIT_CG_OP_LSHR, a, c, !is_imm); break;
  case RV_SRAIW: case RV_SRAW: r = op32(L, KIT_CG_OP_ASHR, a, c, !is_imm); break;
  default: return -1;
  }
  rv_setx(L, rd, r);
  return 0;
}
