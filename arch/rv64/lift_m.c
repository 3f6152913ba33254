/* arch/rv64/lift_m.c — lifting RV64M inline: mulh* through i128, and
 * division with RISC-V's defined results (x/0 = -1, x%0 = x, MIN/-1 = MIN,
 * MIN%-1 = 0) by feeding CG's trapping divide a safe divisor and selecting. */
#include "lift.h"

static KitCgVal bin(RvLift *L, KitCgOp op, KitCgVal a, KitCgVal c) { return kit_cg_binop(L->b, op, a, c); }

static KitCgVal mulh(RvLift *L, KitCgVal a, KitCgVal c, bool sa, bool sc) {
  KitCgBuilder *b = L->b;
  KitCgVal wa = kit_cg_conv(b, sa ? KIT_CG_OP_SEXT : KIT_CG_OP_ZEXT, KIT_CG_I128, a);
  KitCgVal wc = kit_cg_conv(b, sc ? KIT_CG_OP_SEXT : KIT_CG_OP_ZEXT, KIT_CG_I128, c);
  KitCgVal p = bin(L, KIT_CG_OP_MUL, wa, wc);
  p = bin(L, KIT_CG_OP_LSHR, p, kit_cg_i128const(b, 64, 0));
  return kit_cg_conv(b, KIT_CG_OP_TRUNC, KIT_CG_I64, p);
}

/* a, c of type t (i32 or i64); is_rem selects the remainder */
static KitCgVal divide(RvLift *L, KitCgVal a, KitCgVal c, bool is_signed, bool is_rem) {
  KitCgBuilder *b = L->b;
  KitCgType t = kit_cg_val_type(b->f, a);
  uint64_t min = t == KIT_CG_I32 ? 0x80000000ull : 0x8000000000000000ull;
  KitCgVal zero = kit_cg_iconst(b, t, 0), one = kit_cg_iconst(b, t, 1), ones = kit_cg_iconst(b, t, ~0ull);
  KitCgVal by0 = kit_cg_cmp(b, KIT_CG_EQ, c, zero);
  KitCgVal bad = by0;
  if (is_signed) {
    KitCgVal ovf = bin(L, KIT_CG_OP_AND, kit_cg_cmp(b, KIT_CG_EQ, a, kit_cg_iconst(b, t, min)),
                       kit_cg_cmp(b, KIT_CG_EQ, c, ones));
    bad = bin(L, KIT_CG_OP_OR, by0, ovf);
  }
  /* MIN/1 = MIN and MIN%1 = 0 are exactly the results RISC-V defines for MIN/-1 */
  KitCgVal safe = kit_cg_select(b, bad, one, c);
  KitCgOp op = is_rem ? (is_signed ? KIT_CG_OP_SREM : KIT_CG_OP_UREM) : (is_signed ? KIT_CG_OP_SDIV : KIT_CG_OP_UDIV);
  KitCgVal r = bin(L, op, a, safe);
  return kit_cg_select(b, by0, is_rem ? a : ones, r);
}

int rv_lift_m(RvLift *L) {
  const KitDecodedInsn *in = L->in;
  if (!in->rd) return 0;
  KitCgVal a = rv_x(L, in->rs1), c = rv_x(L, in->rs2), r;
  bool w = in->op >= RV_MULW;
  KitCgVal a32 = 0, c32 = 0;
  if (w) {
    a32 = rv_trunc32(L, a);
    c32 = rv_trunc32(L, c);
  }
  switch (in->op) {
  case RV_MUL: r = bin(L, KIT_CG_OP_MUL, a, c); break;
  case RV_MULH: r = mulh(L, a, c, true, true); break;
  case RV_MULHSU: r = mulh(L, a, c, true, false); break;
  case RV_MULHU: r = mulh(L, a, c, false, false); break;
  case RV_DIV: r = divide(L, a, c, true, false); break;
  case RV_DIVU: r = divide(L, a, c, false, false); break;
  case RV_REM: r = divide(L, a, c, true, true); break;
  case RV_REMU: r = divide(L, a, c, false, true); break;
  case RV_MULW: r = rv_sext32(L, bin(L, KIT_CG_OP_MUL, a32, c32)); break;
  case RV_DIVW: r = rv_sext32(L, divide(L, a32, c32, true, false)); break;
  case RV_DIVUW: r = rv_sext32(L, divide(L, a32, c32, false, false)); break;
  case RV_REMW: r = rv_sext32(L, divide(L, a32, c32, true, true)); break;
  case RV_REMUW: r = rv_sext32(L, divide(L, a32, c32, false, true)); break;
  default: return -1;
  }
  rv_setx(L, in->rd, r);
  return 0;
}
