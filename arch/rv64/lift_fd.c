/* arch/rv64/lift_fd.c — lifting RV64F and RV64D. Loads, stores and the raw
 * moves are inline (NaN-boxing f32 values on the way in); every op whose
 * result depends on the rounding mode or that raises fflags calls the host
 * helper kit_rv64_fp (helpers.c), which has the exact RISC-V semantics. */
#include "lift.h"

static const uint64_t box_hi = 0xffffffff00000000ull;

static KitCgVal box32(RvLift *L, KitCgVal v32) {
  KitCgVal z = kit_cg_conv(L->b, KIT_CG_OP_ZEXT, KIT_CG_I64, v32);
  return kit_cg_binop(L->b, KIT_CG_OP_OR, z, rv_c64(L, box_hi));
}

typedef enum { SRC_F, SRC_X } Src;
typedef enum { DST_F, DST_X } Dst;

static void helper(RvLift *L, unsigned op, Src src, Dst dst) {
  const KitDecodedInsn *in = L->in;
  KitCgVal a = src == SRC_X ? rv_x(L, in->rs1) : rv_f(L, in->rs1);
  KitCgVal bb = rv_f(L, in->rs2), c = rv_f(L, in->rs3);
  KitCgType pt[6] = {KIT_CG_PTR, KIT_CG_I32, KIT_CG_I32, KIT_CG_I64, KIT_CG_I64, KIT_CG_I64};
  KitCgVal args[6] = {L->cpu, rv_c32(L, op), rv_c32(L, in->rm), a, bb, c};
  KitCgVal r = rv_call(L, "kit_rv64_fp", KIT_CG_I64, pt, args, 6);
  if (dst == DST_X) rv_setx(L, in->rd, r);
  else rv_setf(L, in->rd, r);
}

int rv_lift_fd(RvLift *L) {
  const KitDecodedInsn *in = L->in;
  unsigned D = KIT_RV64_FP_DOUBLE;
  KitCgVal v;
  switch (in->op) {
  case RV_FLW:
    v = rv_load(L, KIT_CG_I32, rv_addr(L));
    rv_setf(L, in->rd, box32(L, v));
    return 0;
  case RV_FLD:
    rv_setf(L, in->rd, rv_load(L, KIT_CG_I64, rv_addr(L)));
    return 0;
  case RV_FSW:
    v = rv_trunc32(L, rv_f(L, in->rs2));
    rv_store(L, KIT_CG_I32, v, rv_addr(L));
    return 0;
  case RV_FSD:
    v = rv_f(L, in->rs2);
    rv_store(L, KIT_CG_I64, v, rv_addr(L));
    return 0;
  case RV_FMV_X_W: rv_setx(L, in->rd, rv_sext32(L, rv_trunc32(L, rv_f(L, in->rs1)))); return 0;
  case RV_FMV_W_X: rv_setf(L, in->rd, box32(L, rv_trunc32(L, rv_x(L, in->rs1)))); return 0;
  case RV_FMV_X_D: rv_setx(L, in->rd, rv_f(L, in->rs1)); return 0;
  case RV_FMV_D_X: rv_setf(L, in->rd, rv_x(L, in->rs1)); return 0;

  case RV_FMADD_S: case RV_FMSUB_S: case RV_FNMSUB_S: case RV_FNMADD_S:
    helper(L, KIT_RV64_FP_MADD + (in->op - RV_FMADD_S), SRC_F, DST_F);
    return 0;
  case RV_FMADD_D: case RV_FMSUB_D: case RV_FNMSUB_D: case RV_FNMADD_D:
    helper(L, D | (KIT_RV64_FP_MADD + (in->op - RV_FMADD_D)), SRC_F, DST_F);
    return 0;
  case RV_FADD_S: helper(L, KIT_RV64_FP_ADD, SRC_F, DST_F); return 0;
  case RV_FSUB_S: helper(L, KIT_RV64_FP_SUB, SRC_F, DST_F); return 0;
  case RV_FMUL_S: helper(L, KIT_RV64_FP_MUL, SRC_F, DST_F); return 0;
  case RV_FDIV_S: helper(L, KIT_RV64_FP_DIV, SRC_F, DST_F); return 0;
  case RV_FSQRT_S: helper(L, KIT_RV64_FP_SQRT, SRC_F, DST_F); return 0;
  case RV_FSGNJ_S: helper(L, KIT_RV64_FP_SGNJ, SRC_F, DST_F); return 0;
  case RV_FSGNJN_S: helper(L, KIT_RV64_FP_SGNJN, SRC_F, DST_F); return 0;
  case RV_FSGNJX_S: helper(L, KIT_RV64_FP_SGNJX, SRC_F, DST_F); return 0;
  case RV_FMIN_S: helper(L, KIT_RV64_FP_MIN, SRC_F, DST_F); return 0;
  case RV_FMAX_S: helper(L, KIT_RV64_FP_MAX, SRC_F, DST_F); return 0;
  case RV_FCVT_W_S: helper(L, KIT_RV64_FP_CVT_W, SRC_F, DST_X); return 0;
  case RV_FCVT_WU_S: helper(L, KIT_RV64_FP_CVT_WU, SRC_F, DST_X); return 0;
  case RV_FCVT_L_S: helper(L, KIT_RV64_FP_CVT_L, SRC_F, DST_X); return 0;
  case RV_FCVT_LU_S: helper(L, KIT_RV64_FP_CVT_LU, SRC_F, DST_X); return 0;
  case RV_FCLASS_S: helper(L, KIT_RV64_FP_CLASS, SRC_F, DST_X); return 0;
  case RV_FEQ_S: helper(L, KIT_RV64_FP_EQ, SRC_F, DST_X); return 0;
  case RV_FLT_S: helper(L, KIT_RV64_FP_LT, SRC_F, DST_X); return 0;
  case RV_FLE_S: helper(L, KIT_RV64_FP_LE, SRC_F, DST_X); return 0;
  case RV_FCVT_S_W: helper(L, KIT_RV64_FP_CVT_FROM_W, SRC_X, DST_F); return 0;
  case RV_FCVT_S_WU: helper(L, KIT_RV64_FP_CVT_FROM_WU, SRC_X, DST_F); return 0;
  case RV_FCVT_S_L: helper(L, KIT_RV64_FP_CVT_FROM_L, SRC_X, DST_F); return 0;
  case RV_FCVT_S_LU: helper(L, KIT_RV64_FP_CVT_FROM_LU, SRC_X, DST_F); return 0;
  case RV_FADD_D: helper(L, D | KIT_RV64_FP_ADD, SRC_F, DST_F); return 0;
  case RV_FSUB_D: helper(L, D | KIT_RV64_FP_SUB, SRC_F, DST_F); return 0;
  case RV_FMUL_D: helper(L, D | KIT_RV64_FP_MUL, SRC_F, DST_F); return 0;
  case RV_FDIV_D: helper(L, D | KIT_RV64_FP_DIV, SRC_F, DST_F); return 0;
  case RV_FSQRT_D: helper(L, D | KIT_RV64_FP_SQRT, SRC_F, DST_F); return 0;
  case RV_FSGNJ_D: helper(L, D | KIT_RV64_FP_SGNJ, SRC_F, DST_F); return 0;
  case RV_FSGNJN_D: helper(L, D | KIT_RV64_FP_SGNJN, SRC_F, DST_F); return 0;
  case RV_FSGNJX_D: helper(L, D | KIT_RV64_FP_SGNJX, SRC_F, DST_F); return 0;
  case RV_FMIN_D: helper(L, D | KIT_RV64_FP_MIN, SRC_F, DST_F); return 0;
  case RV_FMAX_D: helper(L, D | KIT_RV64_FP_MAX, SRC_F, DST_F); return 0;
  case RV_FCVT_S_D: helper(L, KIT_RV64_FP_CVT_S_D, SRC_F, DST_F); return 0;
  case RV_FCVT_D_S: helper(L, D | KIT_RV64_FP_CVT_D_S, SRC_F, DST_F); return 0;
  case RV_FCVT_W_D: helper(L, D | KIT_RV64_FP_CVT_W, SRC_F, DST_X); return 0;
  case RV_FCVT_WU_D: helper(L, D | KIT_RV64_FP_CVT_WU, SRC_F, DST_X); return 0;
  case RV_FCVT_L_D: helper(L, D | KIT_RV64_FP_CVT_L, SRC_F, DST_X); return 0;
  case RV_FCVT_LU_D: helper(L, D | KIT_RV64_FP_CVT_LU, SRC_F, DST_X); return 0;
  case RV_FCLASS_D: helper(L, D | KIT_RV64_FP_CLASS, SRC_F, DST_X); return 0;
  case RV_FEQ_D: helper(L, D | KIT_RV64_FP_EQ, SRC_F, DST_X); return 0;
  case RV_FLT_D: helper(L, D | KIT_RV64_FP_LT, SRC_F, DST_X); return 0;
  case RV_FLE_D: helper(L, D | KIT_RV64_FP_LE, SRC_F, DST_X); return 0;
  case RV_FCVT_D_W: helper(L, D | KIT_RV64_FP_CVT_FROM_W, SRC_X, DST_F); return 0;
  case RV_FCVT_D_WU: helper(L, D | KIT_RV64_FP_CVT_FROM_WU, SRC_X, DST_F); return 0;
  case RV_FCVT_D_L: helper(L, D | KIT_RV64_FP_CVT_FROM_L, SRC_X, DST_F); return 0;
  case RV_FCVT_D_LU: helper(L, D | KIT_RV64_FP_CVT_FROM_LU, SRC_X, DST_F); return 0;
  default: return -1;
  }
}
