/* arch/rv64/disasm.c — riscv64 disassembly text in the layout of GNU objdump
 * -d -M no-aliases (mnemonic, a tab, comma-separated operands; compressed
 * instructions under their c. names; branch targets as bare hex). */
#include "rv64.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const xnames[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                       "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                       "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
static const char *const fnames[32] = {"ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",
                                       "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
                                       "fa6", "fa7", "fs2",  "fs3",  "fs4", "fs5", "fs6",  "fs7",
                                       "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
static const char *const rmnames[8] = {"rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn"};

const char *kit_rv64_xreg_name(unsigned r) { return r < 32 ? xnames[r] : "?"; }
const char *kit_rv64_freg_name(unsigned r) { return r < 32 ? fnames[r] : "?"; }

const char *kit_rv64_csr_name(unsigned csr) {
  switch (csr) {
  case RV_CSR_FFLAGS: return "fflags";
  case RV_CSR_FRM: return "frm";
  case RV_CSR_FCSR: return "fcsr";
  case RV_CSR_CYCLE: return "cycle";
  case RV_CSR_TIME: return "time";
  case RV_CSR_INSTRET: return "instret";
  case 0xc80: return "cycleh";
  case 0xc81: return "timeh";
  case 0xc82: return "instreth";
  }
  return NULL;
}

typedef struct Out {
  char *buf;
  size_t size, len;
} Out;

static void put(Out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = o->len < o->size ? o->size - o->len : 0;
  int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0) o->len += (size_t)n;
}

static void fence_set(Out *o, unsigned v) {
  if (!v) { put(o, "0"); return; }
  if (v & 8) put(o, "i");
  if (v & 4) put(o, "o");
  if (v & 2) put(o, "r");
  if (v & 1) put(o, "w");
}

static void rm_suffix(Out *o, unsigned rm) {
  if (rm != RV_DYN) put(o, ",%s", rmnames[rm & 7]);
}

static const char *aqrl(unsigned v) {
  static const char *const s[4] = {"", ".rl", ".aq", ".aqrl"};
  return s[v & 3];
}

static void compressed(Out *o, KitRv64COp c, const KitDecodedInsn *d) {
  put(o, "%s", kit_rv64_cop_name[c]);
  switch (c) {
  case RVC_UNIMP: case RVC_EBREAK: case RVC_NONE: case RVC_NOPS: return;
  default: break;
  }
  put(o, "\t");
  switch (c) {
  case RVC_ADDI4SPN: put(o, "%s,sp,%lld", xnames[d->rd], (long long)d->imm); break;
  case RVC_FLD: case RVC_FLDSP: put(o, "%s,%lld(%s)", fnames[d->rd], (long long)d->imm, xnames[d->rs1]); break;
  case RVC_LW: case RVC_LD: case RVC_LWSP: case RVC_LDSP:
    put(o, "%s,%lld(%s)", xnames[d->rd], (long long)d->imm, xnames[d->rs1]);
    break;
  case RVC_FSD: case RVC_FSDSP: put(o, "%s,%lld(%s)", fnames[d->rs2], (long long)d->imm, xnames[d->rs1]); break;
  case RVC_SW: case RVC_SD: case RVC_SWSP: case RVC_SDSP:
    put(o, "%s,%lld(%s)", xnames[d->rs2], (long long)d->imm, xnames[d->rs1]);
    break;
  case RVC_ADDI: case RVC_ADDIW: case RVC_LI: case RVC_ANDI:
    put(o, "%s,%lld", xnames[d->rd], (long long)d->imm);
    break;
  case RVC_ADDI16SP: put(o, "sp,%lld", (long long)d->imm); break;
  case RVC_LUI: put(o, "%s,0x%llx", xnames[d->rd], (unsigned long long)((uint64_t)d->imm >> 12) & 0xfffff); break;
  case RVC_SRLI: case RVC_SRAI: case RVC_SLLI: put(o, "%s,0x%llx", xnames[d->rd], (unsigned long long)d->imm); break;
  case RVC_SUB: case RVC_XOR: case RVC_OR: case RVC_AND: case RVC_SUBW: case RVC_ADDW: case RVC_MV: case RVC_ADD:
    put(o, "%s,%s", xnames[d->rd], xnames[d->rs2]);
    break;
  case RVC_J: put(o, "%llx", (unsigned long long)d->target); break;
  case RVC_BEQZ: case RVC_BNEZ: put(o, "%s,%llx", xnames[d->rs1], (unsigned long long)d->target); break;
  case RVC_JR: case RVC_JALR: put(o, "%s", xnames[d->rs1]); break;
  default: break;
  }
}

static void csr_text(unsigned csr, char *buf, size_t size) {
  const char *cn = kit_rv64_csr_name(csr);
  unsigned low = csr & ~0x80u; /* hpmcounter3..31 and their RV32 high halves */
  if (cn) snprintf(buf, size, "%s", cn);
  else if (low >= 0xc03 && low <= 0xc1f) snprintf(buf, size, "hpmcounter%u%s", csr & 0x1f, csr & 0x80 ? "h" : "");
  else snprintf(buf, size, "0x%x", csr);
}

static const char *const csr_reads[][2] = {{"fflags", "frflags"}, {"frm", "frrm"}, {"fcsr", "frcsr"},
                                           {"cycle", "rdcycle"},   {"time", "rdtime"}, {"instret", "rdinstret"}};

/* objdump's default (alias) names; d is the expanded form, c its compressed
 * kind or RVC_NONE. Returns false when the no-aliases text applies. */
static bool alias(Out *o, const KitDecodedInsn *d, KitRv64COp c) {
  const char *rd = xnames[d->rd], *rs1 = xnames[d->rs1], *rs2 = xnames[d->rs2];
  long long imm = (long long)d->imm;
  unsigned long long tgt = (unsigned long long)d->target;
  switch (c) { /* compressed HINTs that write x0 keep their c. names */
  case RVC_ADDI:
    if (d->rd == 0 && imm) return put(o, "c.nop\t%lld", imm), true;
    break;
  case RVC_LI: case RVC_LUI: case RVC_ADD: case RVC_SLLI:
    if (d->rd == 0) return false;
    break;
  case RVC_MV: return d->rd ? (put(o, "mv\t%s,%s", rd, rs2), true) : false;
  case RVC_UNIMP: return put(o, "unimp"), true;
  default: break;
  }
  const char *cn = kit_rv64_csr_name(d->csr), *name = NULL;
  char csr[24];
  csr_text(d->csr, csr, sizeof csr);
  unsigned k = d->csr <= 3 ? d->csr - 1 : 99; /* fflags, frm, fcsr */
  switch (d->op) {
  case RV_ADDI:
    if (!d->rd && !d->rs1 && !imm) put(o, "nop");
    else if (!d->rs1) put(o, "li\t%s,%lld", rd, imm);
    else if (!imm) put(o, "mv\t%s,%s", rd, rs1);
    else put(o, "add\t%s,%s,%lld", rd, rs1, imm);
    return true;
  case RV_ADDIW:
    if (!imm) put(o, "sext.w\t%s,%s", rd, rs1);
    else put(o, "addw\t%s,%s,%lld", rd, rs1, imm);
    return true;
  case RV_ANDI:
    if (imm == 255) put(o, "zext.b\t%s,%s", rd, rs1);
    else put(o, "and\t%s,%s,%lld", rd, rs1, imm);
    return true;
  case RV_ORI: return put(o, "or\t%s,%s,%lld", rd, rs1, imm), true;
  case RV_XORI:
    if (imm == -1) put(o, "not\t%s,%s", rd, rs1);
    else put(o, "xor\t%s,%s,%lld", rd, rs1, imm);
    return true;
  case RV_SLTIU: return imm == 1 ? (put(o, "seqz\t%s,%s", rd, rs1), true) : false;
  case RV_SLLI: name = "sll"; break;
  case RV_SRLI: name = "srl"; break;
  case RV_SRAI: name = "sra"; break;
  case RV_SLLIW: name = "sllw"; break;
  case RV_SRLIW: name = "srlw"; break;
  case RV_SRAIW: name = "sraw"; break;
  case RV_SUB: return !d->rs1 ? (put(o, "neg\t%s,%s", rd, rs2), true) : false;
  case RV_SUBW: return !d->rs1 ? (put(o, "negw\t%s,%s", rd, rs2), true) : false;
  case RV_SLT:
    if (!d->rs2) return put(o, "sltz\t%s,%s", rd, rs1), true;
    if (!d->rs1) return put(o, "sgtz\t%s,%s", rd, rs2), true;
    return false;
  case RV_SLTU: return !d->rs1 ? (put(o, "snez\t%s,%s", rd, rs2), true) : false;
  case RV_BEQ: return !d->rs2 ? (put(o, "beqz\t%s,%llx", rs1, tgt), true) : false;
  case RV_BNE: return !d->rs2 ? (put(o, "bnez\t%s,%llx", rs1, tgt), true) : false;
  case RV_BLT: case RV_BGE: {
    bool lt = d->op == RV_BLT;
    if (!d->rs1) return put(o, "%s\t%s,%llx", lt ? "bgtz" : "blez", rs2, tgt), true;
    if (!d->rs2) return put(o, "%s\t%s,%llx", lt ? "bltz" : "bgez", rs1, tgt), true;
    return false;
  }
  case RV_JAL:
    if (d->rd > 1) return false;
    return put(o, "%s\t%llx", d->rd ? "jal" : "j", tgt), true;
  case RV_JALR:
    if (d->rd == 0 && d->rs1 == 1 && !imm) return put(o, "ret"), true;
    if (d->rd <= 1) {
      const char *m = d->rd ? "jalr" : "jr";
      if (!imm) put(o, "%s\t%s", m, rs1);
      else put(o, "%s\t%lld(%s)", m, imm, rs1);
      return true;
    }
    return !imm ? (put(o, "jalr\t%s,%s", rd, rs1), true) : false;
  case RV_FSGNJ_S: case RV_FSGNJN_S: case RV_FSGNJX_S: case RV_FSGNJ_D: case RV_FSGNJN_D: case RV_FSGNJX_D: {
    if (d->rs1 != d->rs2) return false;
    static const char *const n[] = {"fmv", "fneg", "fabs"};
    bool dbl = d->op >= RV_FSGNJ_D;
    unsigned i = (unsigned)(d->op - (dbl ? RV_FSGNJ_D : RV_FSGNJ_S));
    return put(o, "%s.%s\t%s,%s", n[i], dbl ? "d" : "s", fnames[d->rd], fnames[d->rs1]), true;
  }
  case RV_CSRRS:
    if (!d->rs1) {
      for (unsigned i = 0; i < 6; i++)
        if (cn && !strcmp(cn, csr_reads[i][0])) return put(o, "%s\t%s", csr_reads[i][1], rd), true;
      return put(o, "csrr\t%s,%s", rd, csr), true;
    }
    return !d->rd ? (put(o, "csrs\t%s,%s", csr, rs1), true) : false;
  case RV_CSRRW:
    if (k < 3) {
      static const char *const n[3] = {"fsflags", "fsrm", "fscsr"};
      if (!d->rd) put(o, "%s\t%s", n[k], rs1);
      else put(o, "%s\t%s,%s", n[k], rd, rs1);
      return true;
    }
    return !d->rd ? (put(o, "csrw\t%s,%s", csr, rs1), true) : false;
  case RV_CSRRC: return !d->rd ? (put(o, "csrc\t%s,%s", csr, rs1), true) : false;
  case RV_CSRRWI: case RV_CSRRSI: case RV_CSRRCI: { /* the immediate forms drop their "i" */
    static const char *const full[3] = {"csrrw", "csrrs", "csrrc"}, *const brief[3] = {"csrw", "csrs", "csrc"};
    unsigned i = (unsigned)(d->op - RV_CSRRWI);
    if (i == 0 && k < 2) put(o, "%s\t%s,%lld", k ? "fsrmi" : "fsflagsi", rd, imm);
    else if (!d->rd) put(o, "%s\t%s,%lld", brief[i], csr, imm);
    else put(o, "%s\t%s,%s,%lld", full[i], rd, csr, imm);
    return true;
  }
  case RV_RORI: name = "ror"; break;
  case RV_RORIW: name = "rorw"; break;
  case RV_BCLRI: name = "bclr"; break;
  case RV_BEXTI: name = "bext"; break;
  case RV_BINVI: name = "binv"; break;
  case RV_BSETI: name = "bset"; break;
  case RV_FENCE: return imm == 0xff ? (put(o, "fence"), true) : false;
  case RV_ADD_UW: return !d->rs2 ? (put(o, "zext.w\t%s,%s", rd, rs1), true) : false;
  default: break;
  }
  if (name) return put(o, "%s\t%s,%s,0x%llx", name, rd, rs1, (unsigned long long)imm), true;
  return false;
}

static int disasm(const KitDecodedInsn *d, char *buf, size_t size, bool aliases) {
  Out o = {buf, size, 0};
  if (size) buf[0] = 0;
  if (d->len == 2) {
    KitDecodedInsn e;
    KitRv64COp c = kit_rv64_decode16((uint16_t)d->raw, d->pc, &e);
    if (c == RVC_NONE) put(&o, ".2byte\t0x%x", d->raw & 0xffff);
    else if (!aliases) compressed(&o, c, &e);
    else if (!alias(&o, &e, c)) {
      if ((c == RVC_LI || c == RVC_LUI || c == RVC_ADD || c == RVC_SLLI || c == RVC_MV) && e.rd == 0)
        compressed(&o, c, &e);
      else {
        e.len = 4; /* the expanded instruction under its own name */
        return disasm(&e, buf, size, false);
      }
    }
    return (int)o.len;
  }
  if (aliases && d->op != RV_ILLEGAL && d->op < RV_NOPS && alias(&o, d, RVC_NONE)) return (int)o.len;
  if (d->op == RV_ILLEGAL || d->op >= RV_NOPS) {
    put(&o, ".4byte\t0x%x", d->raw);
    return (int)o.len;
  }
  const KitRv64OpInfo *oi = &kit_rv64_op_info[d->op];
  const char *rd = xnames[d->rd], *rs1 = xnames[d->rs1], *rs2 = xnames[d->rs2];
  const char *frd = fnames[d->rd], *frs1 = fnames[d->rs1], *frs2 = fnames[d->rs2];
  long long imm = (long long)d->imm;
  bool amo = d->op >= RV_LR_W && d->op <= RV_AMOMAXU_D;
  put(&o, "%s%s", oi->name, amo ? aqrl(d->rm) : "");
  if (oi->fmt == RVF_NONE) return (int)o.len;
  put(&o, "\t");
  switch (oi->fmt) {
  case RVF_R: put(&o, "%s,%s,%s", rd, rs1, rs2); break;
  case RVF_I: put(&o, "%s,%s,%lld", rd, rs1, imm); break;
  case RVF_SH: put(&o, "%s,%s,0x%llx", rd, rs1, imm); break;
  case RVF_U: put(&o, "%s,0x%llx", rd, (unsigned long long)((uint64_t)d->imm >> 12) & 0xfffff); break;
  case RVF_LD: put(&o, "%s,%lld(%s)", rd, imm, rs1); break;
  case RVF_ST: put(&o, "%s,%lld(%s)", rs2, imm, rs1); break;
  case RVF_B: put(&o, "%s,%s,%llx", rs1, rs2, (unsigned long long)d->target); break;
  case RVF_JAL: put(&o, "%s,%llx", rd, (unsigned long long)d->target); break;
  case RVF_FENCE:
    fence_set(&o, (unsigned)(d->imm >> 4) & 15);
    put(&o, ",");
    fence_set(&o, (unsigned)d->imm & 15);
    break;
  case RVF_CSR: case RVF_CSRI: {
    char csr[24];
    csr_text(d->csr, csr, sizeof csr);
    put(&o, "%s,%s,", rd, csr);
    if (oi->fmt == RVF_CSR) put(&o, "%s", rs1);
    else put(&o, "%lld", imm);
    break;
  }
  case RVF_AMO: put(&o, "%s,%s,(%s)", rd, rs2, rs1); break;
  case RVF_LR: put(&o, "%s,(%s)", rd, rs1); break;
  case RVF_FR: put(&o, "%s,%s,%s", frd, frs1, frs2); break;
  case RVF_FR_RM: put(&o, "%s,%s,%s", frd, frs1, frs2); rm_suffix(&o, d->rm); break;
  case RVF_FR4: put(&o, "%s,%s,%s,%s", frd, frs1, frs2, fnames[d->rs3]); rm_suffix(&o, d->rm); break;
  case RVF_F1_RM: put(&o, "%s,%s", frd, frs1); rm_suffix(&o, d->rm); break;
  case RVF_F1: put(&o, "%s,%s", frd, frs1); break;
  case RVF_XF_RM: put(&o, "%s,%s", rd, frs1); rm_suffix(&o, d->rm); break;
  case RVF_FX_RM: put(&o, "%s,%s", frd, rs1); rm_suffix(&o, d->rm); break;
  case RVF_FX: put(&o, "%s,%s", frd, rs1); break;
  case RVF_XF: put(&o, "%s,%s", rd, frs1); break;
  case RVF_XFF: put(&o, "%s,%s,%s", rd, frs1, frs2); break;
  case RVF_FLD: put(&o, "%s,%lld(%s)", frd, imm, rs1); break;
  case RVF_FST: put(&o, "%s,%lld(%s)", frs2, imm, rs1); break;
  case RVF_X1: put(&o, "%s,%s", rd, rs1); break;
  default: break;
  }
  return (int)o.len;
}

int kit_rv64_disasm(const KitDecodedInsn *d, char *buf, size_t size) { return disasm(d, buf, size, false); }
int kit_rv64_disasm_alias(const KitDecodedInsn *d, char *buf, size_t size) { return disasm(d, buf, size, true); }
