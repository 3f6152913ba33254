/* arch/rv64/lift_b.c — lifting the bit-manipulation extensions Zba
 * (address generation), Zbb (basic bit ops) and Zbs (single-bit ops), all
 * inline CG; rotates are built from two shifts with masked amounts. */
#include "lift.h"

static KitCgVal bin(RvLift *L, KitCgOp op, KitCgVal a, KitCgVal c) { return kit_cg_binop(L->b, op, a, c); }
static KitCgVal zext32(RvLift *L, KitCgVal v) {
  return kit_cg_conv(L->b, KIT_CG_OP_ZEXT, KIT_CG_I64, rv_trunc32(L, v));
}

/* rotate x (i32 or i64) left by amt, or right when !left */
static KitCgVal rotate(RvLift *L, KitCgVal x, KitCgVal amt, bool left) {
  KitCgBuilder *b = L->b;
  KitCgType t = kit_cg_val_type(b->f, x);
  KitCgVal mask = kit_cg_iconst(b, t, t == KIT_CG_I32 ? 31 : 63);
  KitCgVal s = bin(L, KIT_CG_OP_AND, amt, mask);
  KitCgVal r = bin(L, KIT_CG_OP_AND, kit_cg_unop(b, KIT_CG_OP_NEG, s), mask);
  KitCgVal hi = bin(L, left ? KIT_CG_OP_SHL : KIT_CG_OP_LSHR, x, s);
  KitCgVal lo = bin(L, left ? KIT_CG_OP_LSHR : KIT_CG_OP_SHL, x, r);
  return bin(L, KIT_CG_OP_OR, hi, lo); /* with s = 0 both halves are x: still x */
}

/* orc.b: every nonzero byte becomes 0xff */
static KitCgVal orc_b(RvLift *L, KitCgVal x) {
  KitCgVal r = rv_c64(L, 0), zero = rv_c64(L, 0);
  for (unsigned i = 0; i < 8; i++) {
    KitCgVal m = rv_c64(L, 0xffull << (8 * i));
    KitCgVal nz = kit_cg_cmp(L->b, KIT_CG_NE, bin(L, KIT_CG_OP_AND, x, m), zero);
    r = bin(L, KIT_CG_OP_OR, r, kit_cg_select(L->b, nz, m, zero));
  }
  return r;
}

static KitCgVal bit(RvLift *L, KitCgVal idx) {
  return bin(L, KIT_CG_OP_SHL, rv_c64(L, 1), bin(L, KIT_CG_OP_AND, idx, rv_c64(L, 63)));
}

static KitCgVal count32(RvLift *L, KitCgOp op, KitCgVal a) {
  KitCgVal v = kit_cg_unop(L->b, op, rv_trunc32(L, a));
  return kit_cg_conv(L->b, KIT_CG_OP_ZEXT, KIT_CG_I64, v);
}

int rv_lift_b(RvLift *L) {
  const KitDecodedInsn *in = L->in;
  KitCgBuilder *b = L->b;
  if (!in->rd) return 0;
  KitCgVal a = rv_x(L, in->rs1), r;
  bool uses_imm = in->op == RV_SLLI_UW || in->op == RV_RORI || in->op == RV_RORIW || in->op == RV_BCLRI ||
                  in->op == RV_BEXTI || in->op == RV_BINVI || in->op == RV_BSETI;
  KitCgVal c = uses_imm ? rv_c64(L, (uint64_t)in->imm) : rv_x(L, in->rs2);
  switch (in->op) {
  case RV_SH1ADD: case RV_SH2ADD: case RV_SH3ADD:
    r = bin(L, KIT_CG_OP_ADD, bin(L, KIT_CG_OP_SHL, a, rv_c64(L, 1 + in->op - RV_SH1ADD)), c);
    break;
  case RV_ADD_UW: r = bin(L, KIT_CG_OP_ADD, zext32(L, a), c); break;
  case RV_SH1ADD_UW: case RV_SH2ADD_UW: case RV_SH3ADD_UW:
    r = bin(L, KIT_CG_OP_ADD, bin(L, KIT_CG_OP_SHL, zext32(L, a), rv_c64(L, 1 + in->op - RV_SH1ADD_UW)), c);
    break;
  case RV_SLLI_UW: r = bin(L, KIT_CG_OP_SHL, zext32(L, a), c); break;
  case RV_ANDN: r = bin(L, KIT_CG_OP_AND, a, kit_cg_unop(b, KIT_CG_OP_NOT, c)); break;
  case RV_ORN: r = bin(L, KIT_CG_OP_OR, a, kit_cg_unop(b, KIT_CG_OP_NOT, c)); break;
  case RV_XNOR: r = kit_cg_unop(b, KIT_CG_OP_NOT, bin(L, KIT_CG_OP_XOR, a, c)); break;
  case RV_CLZ: r = kit_cg_unop(b, KIT_CG_OP_CLZ, a); break;
  case RV_CTZ: r = kit_cg_unop(b, KIT_CG_OP_CTZ, a); break;
  case RV_CPOP: r = kit_cg_unop(b, KIT_CG_OP_POPCNT, a); break;
  case RV_CLZW: r = count32(L, KIT_CG_OP_CLZ, a); break;
  case RV_CTZW: r = count32(L, KIT_CG_OP_CTZ, a); break;
  case RV_CPOPW: r = count32(L, KIT_CG_OP_POPCNT, a); break;
  case RV_MAX: r = bin(L, KIT_CG_OP_SMAX, a, c); break;
  case RV_MAXU: r = bin(L, KIT_CG_OP_UMAX, a, c); break;
  case RV_MIN: r = bin(L, KIT_CG_OP_SMIN, a, c); break;
  case RV_MINU: r = bin(L, KIT_CG_OP_UMIN, a, c); break;
  case RV_SEXT_B: r = kit_cg_conv(b, KIT_CG_OP_SEXT, KIT_CG_I64, kit_cg_conv(b, KIT_CG_OP_TRUNC, KIT_CG_I8, a)); break;
  case RV_SEXT_H: r = kit_cg_conv(b, KIT_CG_OP_SEXT, KIT_CG_I64, kit_cg_conv(b, KIT_CG_OP_TRUNC, KIT_CG_I16, a)); break;
  case RV_ZEXT_H: r = kit_cg_conv(b, KIT_CG_OP_ZEXT, KIT_CG_I64, kit_cg_conv(b, KIT_CG_OP_TRUNC, KIT_CG_I16, a)); break;
  case RV_ROL: r = rotate(L, a, c, true); break;
  case RV_ROR: case RV_RORI: r = rotate(L, a, c, false); break;
  case RV_ROLW: r = rv_sext32(L, rotate(L, rv_trunc32(L, a), rv_trunc32(L, c), true)); break;
  case RV_RORW: case RV_RORIW: r = rv_sext32(L, rotate(L, rv_trunc32(L, a), rv_trunc32(L, c), false)); break;
  case RV_ORC_B: r = orc_b(L, a); break;
  case RV_REV8: r = kit_cg_unop(b, KIT_CG_OP_BSWAP, a); break;
  case RV_BCLR: case RV_BCLRI: r = bin(L, KIT_CG_OP_AND, a, kit_cg_unop(b, KIT_CG_OP_NOT, bit(L, c))); break;
  case RV_BINV: case RV_BINVI: r = bin(L, KIT_CG_OP_XOR, a, bit(L, c)); break;
  case RV_BSET: case RV_BSETI: r = bin(L, KIT_CG_OP_OR, a, bit(L, c)); break;
  case RV_BEXT: case RV_BEXTI:
    r = bin(L, KIT_CG_OP_AND, bin(L, KIT_CG_OP_LSHR, a, bin(L, KIT_CG_OP_AND, c, rv_c64(L, 63))), rv_c64(L, 1));
    break;
  default: return -1;
  }
  rv_setx(L, in->rd, r);
  return 0;
}
