/* arch/rv64/decode.c — the RV64GC decoder: 32-bit encodings of I, M, A, F, D,
 * Zicsr, Zifencei, and every RV64C form expanded to its base instruction,
 * with the control-flow flags of include/kit/arch.h. */
#include "rv64.h"

#include <string.h>

const KitRv64OpInfo kit_rv64_op_info[RV_NOPS] = {
#define RV_INFO(e, name, fmt) {name, fmt},
    RV_OPS(RV_INFO)
#undef RV_INFO
};

const char *const kit_rv64_cop_name[RVC_NOPS] = {
#define RVC_NAME(e, name, unused) name,
    RVC_OPS(RVC_NAME)
#undef RVC_NAME
};

static inline uint32_t bits(uint32_t v, unsigned hi, unsigned lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1); }
static inline int64_t sext(uint64_t v, unsigned width) { return (int64_t)(v << (64 - width)) >> (64 - width); }

static void set_flags(KitDecodedInsn *d) {
  switch (d->op) {
  case RV_JAL:
    d->flags |= KIT_DECODE_JUMP | KIT_DECODE_TERMINATOR;
    if (d->rd == 1 || d->rd == 5) d->flags |= KIT_DECODE_CALL;
    d->target = d->pc + (uint64_t)d->imm;
    break;
  case RV_JALR:
    d->flags |= KIT_DECODE_JUMP | KIT_DECODE_INDIRECT | KIT_DECODE_TERMINATOR;
    if (d->rd == 1 || d->rd == 5) d->flags |= KIT_DECODE_CALL;
    else if (d->rd == 0 && d->rs1 == 1 && d->imm == 0) d->flags |= KIT_DECODE_RET;
    break;
  case RV_BEQ: case RV_BNE: case RV_BLT: case RV_BGE: case RV_BLTU: case RV_BGEU:
    d->flags |= KIT_DECODE_BRANCH | KIT_DECODE_TERMINATOR;
    d->target = d->pc + (uint64_t)d->imm;
    break;
  case RV_ECALL: d->flags |= KIT_DECODE_SYSCALL | KIT_DECODE_TERMINATOR; break;
  case RV_EBREAK: d->flags |= KIT_DECODE_TRAP | KIT_DECODE_TERMINATOR; break;
  case RV_FENCE_I: d->flags |= KIT_DECODE_FENCE_I | KIT_DECODE_TERMINATOR; break;
  case RV_LB: case RV_LH: case RV_LW: case RV_LD: case RV_LBU: case RV_LHU: case RV_LWU:
    d->flags |= KIT_DECODE_MEM_LOAD;
    break;
  case RV_FLW: case RV_FLD: d->flags |= KIT_DECODE_MEM_LOAD | KIT_DECODE_FP; break;
  case RV_SB: case RV_SH: case RV_SW: case RV_SD: d->flags |= KIT_DECODE_MEM_STORE; break;
  case RV_FSW: case RV_FSD: d->flags |= KIT_DECODE_MEM_STORE | KIT_DECODE_FP; break;
  case RV_LR_W: case RV_LR_D: d->flags |= KIT_DECODE_ATOMIC | KIT_DECODE_MEM_LOAD; break;
  case RV_CSRRW: case RV_CSRRS: case RV_CSRRC: case RV_CSRRWI: case RV_CSRRSI: case RV_CSRRCI:
    d->flags |= KIT_DECODE_CSR;
    break;
  case RV_ILLEGAL: d->flags |= KIT_DECODE_ILLEGAL | KIT_DECODE_TRAP | KIT_DECODE_TERMINATOR; break;
  default:
    if (d->op >= RV_SC_W && d->op <= RV_AMOMAXU_D)
      d->flags |= KIT_DECODE_ATOMIC | KIT_DECODE_MEM_LOAD | KIT_DECODE_MEM_STORE;
    else if (d->op >= RV_FMADD_S && d->op <= RV_FMV_D_X)
      d->flags |= KIT_DECODE_FP;
    break;
  }
}

static bool rm_ok(uint32_t rm) { return rm <= 4 || rm == 7; }

/* OP-FP (opcode 0x53): fmt in bits 26:25 (0 = S, 1 = D) */
static int decode_opfp(uint32_t w) {
  uint32_t f7 = bits(w, 31, 25), rm = bits(w, 14, 12), rs2 = bits(w, 24, 20);
  bool dbl = f7 & 1;
  if (bits(w, 26, 25) > 1) return RV_ILLEGAL;
#define SD(s, dd) (dbl ? RV_##dd : RV_##s)
  switch (f7 >> 2) {
  case 0x00: return rm_ok(rm) ? SD(FADD_S, FADD_D) : RV_ILLEGAL;
  case 0x01: return rm_ok(rm) ? SD(FSUB_S, FSUB_D) : RV_ILLEGAL;
  case 0x02: return rm_ok(rm) ? SD(FMUL_S, FMUL_D) : RV_ILLEGAL;
  case 0x03: return rm_ok(rm) ? SD(FDIV_S, FDIV_D) : RV_ILLEGAL;
  case 0x0b: return rs2 == 0 && rm_ok(rm) ? SD(FSQRT_S, FSQRT_D) : RV_ILLEGAL;
  case 0x04:
    if (rm == 0) return SD(FSGNJ_S, FSGNJ_D);
    if (rm == 1) return SD(FSGNJN_S, FSGNJN_D);
    if (rm == 2) return SD(FSGNJX_S, FSGNJX_D);
    return RV_ILLEGAL;
  case 0x05:
    if (rm == 0) return SD(FMIN_S, FMIN_D);
    if (rm == 1) return SD(FMAX_S, FMAX_D);
    return RV_ILLEGAL;
  case 0x08: /* fcvt.s.d (fmt S, rs2 1) / fcvt.d.s (fmt D, rs2 0) */
    if (!rm_ok(rm)) return RV_ILLEGAL;
    if (!dbl && rs2 == 1) return RV_FCVT_S_D;
    if (dbl && rs2 == 0) return RV_FCVT_D_S;
    return RV_ILLEGAL;
  case 0x14:
    if (rm == 2) return SD(FEQ_S, FEQ_D);
    if (rm == 1) return SD(FLT_S, FLT_D);
    if (rm == 0) return SD(FLE_S, FLE_D);
    return RV_ILLEGAL;
  case 0x18: { /* float -> int */
    static const uint16_t s[4] = {RV_FCVT_W_S, RV_FCVT_WU_S, RV_FCVT_L_S, RV_FCVT_LU_S};
    static const uint16_t dd[4] = {RV_FCVT_W_D, RV_FCVT_WU_D, RV_FCVT_L_D, RV_FCVT_LU_D};
    if (rs2 > 3 || !rm_ok(rm)) return RV_ILLEGAL;
    return dbl ? dd[rs2] : s[rs2];
  }
  case 0x1a: { /* int -> float */
    static const uint16_t s[4] = {RV_FCVT_S_W, RV_FCVT_S_WU, RV_FCVT_S_L, RV_FCVT_S_LU};
    static const uint16_t dd[4] = {RV_FCVT_D_W, RV_FCVT_D_WU, RV_FCVT_D_L, RV_FCVT_D_LU};
    if (rs2 > 3 || !rm_ok(rm)) return RV_ILLEGAL;
    return dbl ? dd[rs2] : s[rs2];
  }
  case 0x1c:
    if (rs2 != 0) return RV_ILLEGAL;
    if (rm == 0) return SD(FMV_X_W, FMV_X_D);
    if (rm == 1) return SD(FCLASS_S, FCLASS_D);
    return RV_ILLEGAL;
  case 0x1e: return rs2 == 0 && rm == 0 ? SD(FMV_W_X, FMV_D_X) : RV_ILLEGAL;
  }
#undef SD
  return RV_ILLEGAL;
}

static int decode_amo(uint32_t w, KitDecodedInsn *d) {
  uint32_t f5 = bits(w, 31, 27), f3 = bits(w, 14, 12);
  d->rm = (uint8_t)bits(w, 26, 25); /* aq (bit 1), rl (bit 0) */
  if (f3 != 2 && f3 != 3) return RV_ILLEGAL;
  int base = f3 == 2 ? RV_LR_W : RV_LR_D;
  switch (f5) {
  case 0x02: return bits(w, 24, 20) == 0 ? base : RV_ILLEGAL;
  case 0x03: return base + 1;
  case 0x01: return base + 2;
  case 0x00: return base + 3;
  case 0x04: return base + 4;
  case 0x0c: return base + 5;
  case 0x08: return base + 6;
  case 0x10: return base + 7;
  case 0x14: return base + 8;
  case 0x18: return base + 9;
  case 0x1c: return base + 10;
  }
  return RV_ILLEGAL;
}

static int decode32(uint32_t w, KitDecodedInsn *d) {
  uint32_t opc = bits(w, 6, 0), f3 = bits(w, 14, 12), f7 = bits(w, 31, 25);
  d->rd = (uint8_t)bits(w, 11, 7);
  d->rs1 = (uint8_t)bits(w, 19, 15);
  d->rs2 = (uint8_t)bits(w, 24, 20);
  int64_t imm_i = sext(w >> 20, 12);
  int64_t imm_s = sext((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12);
  int64_t imm_b = sext((bits(w, 31, 31) << 12) | (bits(w, 7, 7) << 11) | (bits(w, 30, 25) << 5) | (bits(w, 11, 8) << 1), 13);
  int64_t imm_j =
      sext((bits(w, 31, 31) << 20) | (bits(w, 19, 12) << 12) | (bits(w, 20, 20) << 11) | (bits(w, 30, 21) << 1), 21);
  switch (opc) {
  case 0x37: d->imm = sext(w & 0xfffff000u, 32); return RV_LUI;
  case 0x17: d->imm = sext(w & 0xfffff000u, 32); return RV_AUIPC;
  case 0x6f: d->imm = imm_j; return RV_JAL;
  case 0x67: d->imm = imm_i; return f3 == 0 ? RV_JALR : RV_ILLEGAL;
  case 0x63: {
    static const int16_t ops[8] = {RV_BEQ, RV_BNE, RV_ILLEGAL, RV_ILLEGAL, RV_BLT, RV_BGE, RV_BLTU, RV_BGEU};
    d->imm = imm_b;
    return ops[f3];
  }
  case 0x03: {
    static const int16_t ops[8] = {RV_LB, RV_LH, RV_LW, RV_LD, RV_LBU, RV_LHU, RV_LWU, RV_ILLEGAL};
    d->imm = imm_i;
    return ops[f3];
  }
  case 0x23: {
    static const int16_t ops[8] = {RV_SB, RV_SH, RV_SW, RV_SD, RV_ILLEGAL, RV_ILLEGAL, RV_ILLEGAL, RV_ILLEGAL};
    d->imm = imm_s;
    return ops[f3];
  }
  case 0x13:
    d->imm = imm_i;
    switch (f3) {
    case 0: return RV_ADDI;
    case 2: return RV_SLTI;
    case 3: return RV_SLTIU;
    case 4: return RV_XORI;
    case 6: return RV_ORI;
    case 7: return RV_ANDI;
    case 1:
      d->imm = bits(w, 25, 20);
      switch (bits(w, 31, 26)) {
      case 0x00: return RV_SLLI;
      case 0x12: return RV_BCLRI;
      case 0x1a: return RV_BINVI;
      case 0x0a: return RV_BSETI;
      }
      d->imm = 0;
      switch (bits(w, 31, 20)) {
      case 0x600: return RV_CLZ;
      case 0x601: return RV_CTZ;
      case 0x602: return RV_CPOP;
      case 0x604: return RV_SEXT_B;
      case 0x605: return RV_SEXT_H;
      }
      return RV_ILLEGAL;
    case 5:
      d->imm = bits(w, 25, 20);
      switch (bits(w, 31, 26)) {
      case 0x00: return RV_SRLI;
      case 0x10: return RV_SRAI;
      case 0x18: return RV_RORI;
      case 0x12: return RV_BEXTI;
      }
      d->imm = 0;
      if (bits(w, 31, 20) == 0x287) return RV_ORC_B;
      if (bits(w, 31, 20) == 0x6b8) return RV_REV8;
      return RV_ILLEGAL;
    }
    break;
  case 0x1b:
    d->imm = imm_i;
    if (f3 == 0) return RV_ADDIW;
    if (f3 == 1 && bits(w, 31, 26) == 0x02) {
      d->imm = bits(w, 25, 20);
      return RV_SLLI_UW;
    }
    d->imm = bits(w, 24, 20);
    if (f3 == 1 && f7 == 0) return RV_SLLIW;
    if (f3 == 5 && f7 == 0) return RV_SRLIW;
    if (f3 == 5 && f7 == 0x20) return RV_SRAIW;
    if (f3 == 5 && f7 == 0x30) return RV_RORIW;
    d->imm = 0;
    if (f3 == 1 && f7 == 0x30 && d->rs2 <= 2) return RV_CLZW + d->rs2;
    return RV_ILLEGAL;
  case 0x33:
    if (f7 == 0) {
      static const int16_t ops[8] = {RV_ADD, RV_SLL, RV_SLT, RV_SLTU, RV_XOR, RV_SRL, RV_OR, RV_AND};
      return ops[f3];
    }
    if (f7 == 0x20) {
      static const int16_t ops[8] = {RV_SUB, 0, 0, 0, RV_XNOR, RV_SRA, RV_ORN, RV_ANDN};
      return ops[f3] ? ops[f3] : RV_ILLEGAL;
    }
    if (f7 == 0x10 && (f3 == 2 || f3 == 4 || f3 == 6)) return RV_SH1ADD + (int)(f3 / 2 - 1);
    if (f7 == 0x05 && f3 >= 4) {
      static const int16_t ops[4] = {RV_MIN, RV_MINU, RV_MAX, RV_MAXU};
      return ops[f3 - 4];
    }
    if (f7 == 0x30 && (f3 == 1 || f3 == 5)) return f3 == 1 ? RV_ROL : RV_ROR;
    if (f7 == 0x24 && (f3 == 1 || f3 == 5)) return f3 == 1 ? RV_BCLR : RV_BEXT;
    if (f7 == 0x34 && f3 == 1) return RV_BINV;
    if (f7 == 0x14 && f3 == 1) return RV_BSET;
    if (f7 == 1) {
      static const int16_t ops[8] = {RV_MUL, RV_MULH, RV_MULHSU, RV_MULHU, RV_DIV, RV_DIVU, RV_REM, RV_REMU};
      return ops[f3];
    }
    return RV_ILLEGAL;
  case 0x3b:
    if (f7 == 0) return f3 == 0 ? RV_ADDW : f3 == 1 ? RV_SLLW : f3 == 5 ? RV_SRLW : RV_ILLEGAL;
    if (f7 == 0x20) return f3 == 0 ? RV_SUBW : f3 == 5 ? RV_SRAW : RV_ILLEGAL;
    if (f7 == 0x04 && f3 == 0) return RV_ADD_UW;
    if (f7 == 0x04 && f3 == 4 && d->rs2 == 0) return RV_ZEXT_H;
    if (f7 == 0x10 && (f3 == 2 || f3 == 4 || f3 == 6)) return RV_SH1ADD_UW + (int)(f3 / 2 - 1);
    if (f7 == 0x30 && (f3 == 1 || f3 == 5)) return f3 == 1 ? RV_ROLW : RV_RORW;
    if (f7 == 1) {
      static const int16_t ops[8] = {RV_MULW, RV_ILLEGAL, RV_ILLEGAL, RV_ILLEGAL, RV_DIVW, RV_DIVUW, RV_REMW, RV_REMUW};
      return ops[f3];
    }
    return RV_ILLEGAL;
  case 0x0f:
    if (f3 == 1) { d->imm = imm_i; return RV_FENCE_I; }
    if (f3 != 0) return RV_ILLEGAL;
    d->imm = bits(w, 27, 20); /* pred in bits 7:4, succ in 3:0 */
    if (bits(w, 31, 28) == 8 && bits(w, 27, 20) == 0x33) return RV_FENCE_TSO;
    return RV_FENCE;
  case 0x73:
    d->csr = (uint16_t)bits(w, 31, 20);
    switch (f3) {
    case 0:
      if (w == 0x00000073) return RV_ECALL;
      if (w == 0x00100073) return RV_EBREAK;
      return RV_ILLEGAL;
    case 1: return RV_CSRRW;
    case 2: return RV_CSRRS;
    case 3: return RV_CSRRC;
    case 5: d->imm = d->rs1; return RV_CSRRWI;
    case 6: d->imm = d->rs1; return RV_CSRRSI;
    case 7: d->imm = d->rs1; return RV_CSRRCI;
    }
    return RV_ILLEGAL;
  case 0x2f: return decode_amo(w, d);
  case 0x07:
    d->imm = imm_i;
    return f3 == 2 ? RV_FLW : f3 == 3 ? RV_FLD : RV_ILLEGAL;
  case 0x27:
    d->imm = imm_s;
    return f3 == 2 ? RV_FSW : f3 == 3 ? RV_FSD : RV_ILLEGAL;
  case 0x43: case 0x47: case 0x4b: case 0x4f: {
    uint32_t fmt = bits(w, 26, 25), k = (opc - 0x43) >> 2;
    d->rs3 = (uint8_t)bits(w, 31, 27);
    d->rm = (uint8_t)f3;
    if (fmt > 1 || !rm_ok(f3)) return RV_ILLEGAL;
    return (fmt ? RV_FMADD_D : RV_FMADD_S) + (int)k;
  }
  case 0x53:
    d->rm = (uint8_t)f3;
    return decode_opfp(w);
  }
  return RV_ILLEGAL;
}

/* compressed register fields name x8..x15 */
#define CR(v) ((uint8_t)(8 + (v)))

KitRv64COp kit_rv64_decode16(uint16_t raw, uint64_t pc, KitDecodedInsn *d) {
  uint32_t w = raw, q = bits(w, 1, 0), f3 = bits(w, 15, 13);
  uint8_t rd = (uint8_t)bits(w, 11, 7), rs2 = (uint8_t)bits(w, 6, 2);
  uint8_t rdp = CR(bits(w, 4, 2)), rs1p = CR(bits(w, 9, 7));
  memset(d, 0, sizeof *d);
  d->pc = pc;
  d->raw = raw;
  d->len = 2;
  d->op = RV_ILLEGAL;
  int64_t imm6 = sext((bits(w, 12, 12) << 5) | bits(w, 6, 2), 6);
  uint32_t uimm_ld = (bits(w, 12, 10) << 3) | (bits(w, 6, 5) << 6);           /* c.ld/c.fld/c.sd/c.fsd */
  uint32_t uimm_lw = (bits(w, 12, 10) << 3) | (bits(w, 6, 6) << 2) | (bits(w, 5, 5) << 6);
  KitRv64COp c = RVC_NONE;
#define SET(o, rd_, rs1_, rs2_, im) (d->op = (o), d->rd = (rd_), d->rs1 = (rs1_), d->rs2 = (rs2_), d->imm = (im))
  if (q == 0) {
    switch (f3) {
    case 0: {
      uint32_t nz = (bits(w, 12, 11) << 4) | (bits(w, 10, 7) << 6) | (bits(w, 6, 6) << 2) | (bits(w, 5, 5) << 3);
      if (nz) { SET(RV_ADDI, rdp, 2, 0, nz); c = RVC_ADDI4SPN; }
      break;
    }
    case 1: SET(RV_FLD, rdp, rs1p, 0, uimm_ld); c = RVC_FLD; break;
    case 2: SET(RV_LW, rdp, rs1p, 0, uimm_lw); c = RVC_LW; break;
    case 3: SET(RV_LD, rdp, rs1p, 0, uimm_ld); c = RVC_LD; break;
    case 5: SET(RV_FSD, 0, rs1p, rdp, uimm_ld); c = RVC_FSD; break;
    case 6: SET(RV_SW, 0, rs1p, rdp, uimm_lw); c = RVC_SW; break;
    case 7: SET(RV_SD, 0, rs1p, rdp, uimm_ld); c = RVC_SD; break;
    }
  } else if (q == 1) {
    switch (f3) {
    case 0: SET(RV_ADDI, rd, rd, 0, imm6); c = RVC_ADDI; break;
    case 1:
      if (rd) { SET(RV_ADDIW, rd, rd, 0, imm6); c = RVC_ADDIW; }
      break;
    case 2: SET(RV_ADDI, rd, 0, 0, imm6); c = RVC_LI; break;
    case 3:
      if (rd == 2) {
        int64_t nz = sext((bits(w, 12, 12) << 9) | (bits(w, 6, 6) << 4) | (bits(w, 5, 5) << 6) |
                              (bits(w, 4, 3) << 7) | (bits(w, 2, 2) << 5), 10);
        if (nz) { SET(RV_ADDI, 2, 2, 0, nz); c = RVC_ADDI16SP; }
      } else if (imm6) {
        SET(RV_LUI, rd, 0, 0, imm6 << 12);
        c = RVC_LUI;
      }
      break;
    case 4: {
      uint32_t f2 = bits(w, 11, 10);
      uint32_t sh = (bits(w, 12, 12) << 5) | bits(w, 6, 2);
      if (f2 == 0) { SET(RV_SRLI, rs1p, rs1p, 0, sh); c = RVC_SRLI; }
      else if (f2 == 1) { SET(RV_SRAI, rs1p, rs1p, 0, sh); c = RVC_SRAI; }
      else if (f2 == 2) { SET(RV_ANDI, rs1p, rs1p, 0, imm6); c = RVC_ANDI; }
      else {
        static const uint16_t ops[8] = {RV_SUB, RV_XOR, RV_OR, RV_AND, RV_SUBW, RV_ADDW, 0, 0};
        static const uint8_t cops[8] = {RVC_SUB, RVC_XOR, RVC_OR, RVC_AND, RVC_SUBW, RVC_ADDW, 0, 0};
        uint32_t k = (bits(w, 12, 12) << 2) | bits(w, 6, 5);
        if (cops[k]) { SET(ops[k], rs1p, rs1p, rdp, 0); c = cops[k]; }
      }
      break;
    }
    case 5: {
      int64_t off = sext((bits(w, 12, 12) << 11) | (bits(w, 11, 11) << 4) | (bits(w, 10, 9) << 8) |
                             (bits(w, 8, 8) << 10) | (bits(w, 7, 7) << 6) | (bits(w, 6, 6) << 7) |
                             (bits(w, 5, 3) << 1) | (bits(w, 2, 2) << 5), 12);
      SET(RV_JAL, 0, 0, 0, off);
      c = RVC_J;
      break;
    }
    case 6: case 7: {
      int64_t off = sext((bits(w, 12, 12) << 8) | (bits(w, 11, 10) << 3) | (bits(w, 6, 5) << 6) |
                             (bits(w, 4, 3) << 1) | (bits(w, 2, 2) << 5), 9);
      SET(f3 == 6 ? RV_BEQ : RV_BNE, 0, rs1p, 0, off);
      c = f3 == 6 ? RVC_BEQZ : RVC_BNEZ;
      break;
    }
    }
  } else if (q == 2) {
    uint32_t uimm_dsp = (bits(w, 12, 12) << 5) | (bits(w, 6, 5) << 3) | (bits(w, 4, 2) << 6);
    uint32_t uimm_sdsp = (bits(w, 12, 10) << 3) | (bits(w, 9, 7) << 6);
    switch (f3) {
    case 0: SET(RV_SLLI, rd, rd, 0, (bits(w, 12, 12) << 5) | bits(w, 6, 2)); c = RVC_SLLI; break;
    case 1: SET(RV_FLD, rd, 2, 0, uimm_dsp); c = RVC_FLDSP; break;
    case 2:
      if (rd) {
        SET(RV_LW, rd, 2, 0, (bits(w, 12, 12) << 5) | (bits(w, 6, 4) << 2) | (bits(w, 3, 2) << 6));
        c = RVC_LWSP;
      }
      break;
    case 3:
      if (rd) { SET(RV_LD, rd, 2, 0, uimm_dsp); c = RVC_LDSP; }
      break;
    case 4:
      if (!bits(w, 12, 12)) {
        if (rs2 == 0) {
          if (rd) { SET(RV_JALR, 0, rd, 0, 0); c = RVC_JR; }
        } else {
          SET(RV_ADD, rd, 0, rs2, 0);
          c = RVC_MV;
        }
      } else if (rs2 == 0) {
        if (rd == 0) { SET(RV_EBREAK, 0, 0, 0, 0); c = RVC_EBREAK; }
        else { SET(RV_JALR, 1, rd, 0, 0); c = RVC_JALR; }
      } else {
        SET(RV_ADD, rd, rd, rs2, 0);
        c = RVC_ADD;
      }
      break;
    case 5: SET(RV_FSD, 0, 2, rs2, uimm_sdsp); c = RVC_FSDSP; break;
    case 6: SET(RV_SW, 0, 2, rs2, (bits(w, 12, 9) << 2) | (bits(w, 8, 7) << 6)); c = RVC_SWSP; break;
    case 7: SET(RV_SD, 0, 2, rs2, uimm_sdsp); c = RVC_SDSP; break;
    }
  }
#undef SET
  if (c == RVC_NONE) d->op = RV_ILLEGAL;
  if (raw == 0) c = RVC_UNIMP; /* defined illegal; the disassembler names it */
  d->rm = RV_DYN; /* c.fld/c.fsd have no rounding; keep the field neutral */
  set_flags(d);
  return c;
}

unsigned kit_rv64_decode(const uint8_t *bytes, size_t avail, uint64_t pc, KitDecodedInsn *d) {
  memset(d, 0, sizeof *d);
  d->pc = pc;
  if (avail < 2) {
    d->op = RV_ILLEGAL;
    set_flags(d);
    return 0;
  }
  uint16_t lo = (uint16_t)(bytes[0] | bytes[1] << 8);
  if ((lo & 3) != 3) {
    kit_rv64_decode16(lo, pc, d);
    return d->op == RV_ILLEGAL ? 0 : 2;
  }
  if ((lo & 0x1c) == 0x1c || avail < 4) { /* 48-bit and longer encodings are not RV64GC */
    d->raw = lo;
    d->len = avail < 4 ? 2 : 4;
    d->op = RV_ILLEGAL;
    set_flags(d);
    return 0;
  }
  uint32_t w = lo | (uint32_t)(bytes[2] | bytes[3] << 8) << 16;
  d->raw = w;
  d->len = 4;
  d->op = (uint16_t)decode32(w, d);
  set_flags(d);
  return d->op == RV_ILLEGAL ? 0 : 4;
}
