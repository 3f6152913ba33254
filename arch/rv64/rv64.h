/* arch/rv64/rv64.h — the riscv64 instruction set as kit sees it: the opcode
 * table (one X-macro list drives the enum, the mnemonics and the disassembly
 * operand formats), and the functions the files of arch/rv64 share. */
#ifndef KIT_ARCH_RV64_H
#define KIT_ARCH_RV64_H

#include "kit/arch.h"
#include "cpu.h"

/* disassembly operand formats (GNU objdump -M no-aliases layout) */
enum {
  RVF_NONE,   /* ecall */
  RVF_R,      /* rd,rs1,rs2 */
  RVF_I,      /* rd,rs1,imm */
  RVF_SH,     /* rd,rs1,0xshamt */
  RVF_U,      /* rd,0ximm20 */
  RVF_LD,     /* rd,imm(rs1) */
  RVF_ST,     /* rs2,imm(rs1) */
  RVF_B,      /* rs1,rs2,target */
  RVF_JAL,    /* rd,target */
  RVF_FENCE,  /* pred,succ */
  RVF_CSR,    /* rd,csr,rs1 */
  RVF_CSRI,   /* rd,csr,uimm */
  RVF_AMO,    /* rd,rs2,(rs1) */
  RVF_LR,     /* rd,(rs1) */
  RVF_FR,     /* frd,frs1,frs2 */
  RVF_FR_RM,  /* frd,frs1,frs2[,rm] */
  RVF_FR4,    /* frd,frs1,frs2,frs3[,rm] */
  RVF_F1_RM,  /* frd,frs1[,rm] */
  RVF_F1,     /* frd,frs1 (exact conversions) */
  RVF_XF_RM,  /* rd,frs1[,rm] */
  RVF_FX_RM,  /* frd,rs1[,rm] */
  RVF_FX,     /* frd,rs1 */
  RVF_XF,     /* rd,frs1 */
  RVF_XFF,    /* rd,frs1,frs2 */
  RVF_FLD,    /* frd,imm(rs1) */
  RVF_FST,    /* frs2,imm(rs1) */
  RVF_X1,     /* rd,rs1 */
  RVF_ILL,
};

#define RV_OPS(X) \
  X(ILLEGAL, "illegal", RVF_ILL) \
  X(LUI, "lui", RVF_U) X(AUIPC, "auipc", RVF_U) X(JAL, "jal", RVF_JAL) X(JALR, "jalr", RVF_LD) \
  X(BEQ, "beq", RVF_B) X(BNE, "bne", RVF_B) X(BLT, "blt", RVF_B) X(BGE, "bge", RVF_B) \
  X(BLTU, "bltu", RVF_B) X(BGEU, "bgeu", RVF_B) \
  X(LB, "lb", RVF_LD) X(LH, "lh", RVF_LD) X(LW, "lw", RVF_LD) X(LD, "ld", RVF_LD) \
  X(LBU, "lbu", RVF_LD) X(LHU, "lhu", RVF_LD) X(LWU, "lwu", RVF_LD) \
  X(SB, "sb", RVF_ST) X(SH, "sh", RVF_ST) X(SW, "sw", RVF_ST) X(SD, "sd", RVF_ST) \
  X(ADDI, "addi", RVF_I) X(SLTI, "slti", RVF_I) X(SLTIU, "sltiu", RVF_I) X(XORI, "xori", RVF_I) \
  X(ORI, "ori", RVF_I) X(ANDI, "andi", RVF_I) \
  X(SLLI, "slli", RVF_SH) X(SRLI, "srli", RVF_SH) X(SRAI, "srai", RVF_SH) \
  X(ADD, "add", RVF_R) X(SUB, "sub", RVF_R) X(SLL, "sll", RVF_R) X(SLT, "slt", RVF_R) \
  X(SLTU, "sltu", RVF_R) X(XOR, "xor", RVF_R) X(SRL, "srl", RVF_R) X(SRA, "sra", RVF_R) \
  X(OR, "or", RVF_R) X(AND, "and", RVF_R) \
  X(ADDIW, "addiw", RVF_I) X(SLLIW, "slliw", RVF_SH) X(SRLIW, "srliw", RVF_SH) X(SRAIW, "sraiw", RVF_SH) \
  X(ADDW, "addw", RVF_R) X(SUBW, "subw", RVF_R) X(SLLW, "sllw", RVF_R) X(SRLW, "srlw", RVF_R) \
  X(SRAW, "sraw", RVF_R) \
  X(FENCE, "fence", RVF_FENCE) X(FENCE_TSO, "fence.tso", RVF_NONE) X(FENCE_I, "fence.i", RVF_NONE) \
  X(ECALL, "ecall", RVF_NONE) X(EBREAK, "ebreak", RVF_NONE) \
  X(CSRRW, "csrrw", RVF_CSR) X(CSRRS, "csrrs", RVF_CSR) X(CSRRC, "csrrc", RVF_CSR) \
  X(CSRRWI, "csrrwi", RVF_CSRI) X(CSRRSI, "csrrsi", RVF_CSRI) X(CSRRCI, "csrrci", RVF_CSRI) \
  X(MUL, "mul", RVF_R) X(MULH, "mulh", RVF_R) X(MULHSU, "mulhsu", RVF_R) X(MULHU, "mulhu", RVF_R) \
  X(DIV, "div", RVF_R) X(DIVU, "divu", RVF_R) X(REM, "rem", RVF_R) X(REMU, "remu", RVF_R) \
  X(MULW, "mulw", RVF_R) X(DIVW, "divw", RVF_R) X(DIVUW, "divuw", RVF_R) X(REMW, "remw", RVF_R) \
  X(REMUW, "remuw", RVF_R) \
  X(LR_W, "lr.w", RVF_LR) X(SC_W, "sc.w", RVF_AMO) X(AMOSWAP_W, "amoswap.w", RVF_AMO) \
  X(AMOADD_W, "amoadd.w", RVF_AMO) X(AMOXOR_W, "amoxor.w", RVF_AMO) X(AMOAND_W, "amoand.w", RVF_AMO) \
  X(AMOOR_W, "amoor.w", RVF_AMO) X(AMOMIN_W, "amomin.w", RVF_AMO) X(AMOMAX_W, "amomax.w", RVF_AMO) \
  X(AMOMINU_W, "amominu.w", RVF_AMO) X(AMOMAXU_W, "amomaxu.w", RVF_AMO) \
  X(LR_D, "lr.d", RVF_LR) X(SC_D, "sc.d", RVF_AMO) X(AMOSWAP_D, "amoswap.d", RVF_AMO) \
  X(AMOADD_D, "amoadd.d", RVF_AMO) X(AMOXOR_D, "amoxor.d", RVF_AMO) X(AMOAND_D, "amoand.d", RVF_AMO) \
  X(AMOOR_D, "amoor.d", RVF_AMO) X(AMOMIN_D, "amomin.d", RVF_AMO) X(AMOMAX_D, "amomax.d", RVF_AMO) \
  X(AMOMINU_D, "amominu.d", RVF_AMO) X(AMOMAXU_D, "amomaxu.d", RVF_AMO) \
  X(FLW, "flw", RVF_FLD) X(FSW, "fsw", RVF_FST) X(FLD, "fld", RVF_FLD) X(FSD, "fsd", RVF_FST) \
  X(FMADD_S, "fmadd.s", RVF_FR4) X(FMSUB_S, "fmsub.s", RVF_FR4) X(FNMSUB_S, "fnmsub.s", RVF_FR4) \
  X(FNMADD_S, "fnmadd.s", RVF_FR4) \
  X(FMADD_D, "fmadd.d", RVF_FR4) X(FMSUB_D, "fmsub.d", RVF_FR4) X(FNMSUB_D, "fnmsub.d", RVF_FR4) \
  X(FNMADD_D, "fnmadd.d", RVF_FR4) \
  X(FADD_S, "fadd.s", RVF_FR_RM) X(FSUB_S, "fsub.s", RVF_FR_RM) X(FMUL_S, "fmul.s", RVF_FR_RM) \
  X(FDIV_S, "fdiv.s", RVF_FR_RM) X(FSQRT_S, "fsqrt.s", RVF_F1_RM) \
  X(FSGNJ_S, "fsgnj.s", RVF_FR) X(FSGNJN_S, "fsgnjn.s", RVF_FR) X(FSGNJX_S, "fsgnjx.s", RVF_FR) \
  X(FMIN_S, "fmin.s", RVF_FR) X(FMAX_S, "fmax.s", RVF_FR) \
  X(FCVT_W_S, "fcvt.w.s", RVF_XF_RM) X(FCVT_WU_S, "fcvt.wu.s", RVF_XF_RM) \
  X(FCVT_L_S, "fcvt.l.s", RVF_XF_RM) X(FCVT_LU_S, "fcvt.lu.s", RVF_XF_RM) \
  X(FMV_X_W, "fmv.x.w", RVF_XF) X(FCLASS_S, "fclass.s", RVF_XF) \
  X(FEQ_S, "feq.s", RVF_XFF) X(FLT_S, "flt.s", RVF_XFF) X(FLE_S, "fle.s", RVF_XFF) \
  X(FCVT_S_W, "fcvt.s.w", RVF_FX_RM) X(FCVT_S_WU, "fcvt.s.wu", RVF_FX_RM) \
  X(FCVT_S_L, "fcvt.s.l", RVF_FX_RM) X(FCVT_S_LU, "fcvt.s.lu", RVF_FX_RM) X(FMV_W_X, "fmv.w.x", RVF_FX) \
  X(FADD_D, "fadd.d", RVF_FR_RM) X(FSUB_D, "fsub.d", RVF_FR_RM) X(FMUL_D, "fmul.d", RVF_FR_RM) \
  X(FDIV_D, "fdiv.d", RVF_FR_RM) X(FSQRT_D, "fsqrt.d", RVF_F1_RM) \
  X(FSGNJ_D, "fsgnj.d", RVF_FR) X(FSGNJN_D, "fsgnjn.d", RVF_FR) X(FSGNJX_D, "fsgnjx.d", RVF_FR) \
  X(FMIN_D, "fmin.d", RVF_FR) X(FMAX_D, "fmax.d", RVF_FR) \
  X(FCVT_S_D, "fcvt.s.d", RVF_F1_RM) X(FCVT_D_S, "fcvt.d.s", RVF_F1) \
  X(FCVT_W_D, "fcvt.w.d", RVF_XF_RM) X(FCVT_WU_D, "fcvt.wu.d", RVF_XF_RM) \
  X(FCVT_L_D, "fcvt.l.d", RVF_XF_RM) X(FCVT_LU_D, "fcvt.lu.d", RVF_XF_RM) \
  X(FMV_X_D, "fmv.x.d", RVF_XF) X(FCLASS_D, "fclass.d", RVF_XF) \
  X(FEQ_D, "feq.d", RVF_XFF) X(FLT_D, "flt.d", RVF_XFF) X(FLE_D, "fle.d", RVF_XFF) \
  X(FCVT_D_W, "fcvt.d.w", RVF_FX) X(FCVT_D_WU, "fcvt.d.wu", RVF_FX) \
  X(FCVT_D_L, "fcvt.d.l", RVF_FX_RM) X(FCVT_D_LU, "fcvt.d.lu", RVF_FX_RM) X(FMV_D_X, "fmv.d.x", RVF_FX) \
  X(SH1ADD, "sh1add", RVF_R) X(SH2ADD, "sh2add", RVF_R) X(SH3ADD, "sh3add", RVF_R) \
  X(ADD_UW, "add.uw", RVF_R) X(SH1ADD_UW, "sh1add.uw", RVF_R) X(SH2ADD_UW, "sh2add.uw", RVF_R) \
  X(SH3ADD_UW, "sh3add.uw", RVF_R) X(SLLI_UW, "slli.uw", RVF_SH) \
  X(ANDN, "andn", RVF_R) X(ORN, "orn", RVF_R) X(XNOR, "xnor", RVF_R) \
  X(CLZ, "clz", RVF_X1) X(CTZ, "ctz", RVF_X1) X(CPOP, "cpop", RVF_X1) \
  X(CLZW, "clzw", RVF_X1) X(CTZW, "ctzw", RVF_X1) X(CPOPW, "cpopw", RVF_X1) \
  X(MAX, "max", RVF_R) X(MAXU, "maxu", RVF_R) X(MIN, "min", RVF_R) X(MINU, "minu", RVF_R) \
  X(SEXT_B, "sext.b", RVF_X1) X(SEXT_H, "sext.h", RVF_X1) X(ZEXT_H, "zext.h", RVF_X1) \
  X(ROL, "rol", RVF_R) X(ROR, "ror", RVF_R) X(ROLW, "rolw", RVF_R) X(RORW, "rorw", RVF_R) \
  X(RORI, "rori", RVF_SH) X(RORIW, "roriw", RVF_SH) X(ORC_B, "orc.b", RVF_X1) X(REV8, "rev8", RVF_X1) \
  X(BCLR, "bclr", RVF_R) X(BCLRI, "bclri", RVF_SH) X(BEXT, "bext", RVF_R) X(BEXTI, "bexti", RVF_SH) \
  X(BINV, "binv", RVF_R) X(BINVI, "binvi", RVF_SH) X(BSET, "bset", RVF_R) X(BSETI, "bseti", RVF_SH)

typedef enum KitRv64Op {
#define RV_ENUM(e, name, fmt) RV_##e,
  RV_OPS(RV_ENUM)
#undef RV_ENUM
  RV_NOPS
} KitRv64Op;

typedef struct KitRv64OpInfo {
  const char *name;
  int fmt;
} KitRv64OpInfo;
extern const KitRv64OpInfo kit_rv64_op_info[RV_NOPS];

/* compressed forms, kept only for the disassembler (the decoder expands each
 * to its base op; objdump -M no-aliases prints the c. name) */
#define RVC_OPS(X) \
  X(NONE, "", 0) X(UNIMP, "c.unimp", 0) X(ADDI4SPN, "c.addi4spn", 0) X(FLD, "c.fld", 0) \
  X(LW, "c.lw", 0) X(LD, "c.ld", 0) X(FSD, "c.fsd", 0) X(SW, "c.sw", 0) X(SD, "c.sd", 0) \
  X(ADDI, "c.addi", 0) X(ADDIW, "c.addiw", 0) X(LI, "c.li", 0) X(ADDI16SP, "c.addi16sp", 0) \
  X(LUI, "c.lui", 0) X(SRLI, "c.srli", 0) X(SRAI, "c.srai", 0) X(ANDI, "c.andi", 0) \
  X(SUB, "c.sub", 0) X(XOR, "c.xor", 0) X(OR, "c.or", 0) X(AND, "c.and", 0) X(SUBW, "c.subw", 0) \
  X(ADDW, "c.addw", 0) X(J, "c.j", 0) X(BEQZ, "c.beqz", 0) X(BNEZ, "c.bnez", 0) X(SLLI, "c.slli", 0) \
  X(FLDSP, "c.fldsp", 0) X(LWSP, "c.lwsp", 0) X(LDSP, "c.ldsp", 0) X(JR, "c.jr", 0) X(MV, "c.mv", 0) \
  X(EBREAK, "c.ebreak", 0) X(JALR, "c.jalr", 0) X(ADD, "c.add", 0) X(FSDSP, "c.fsdsp", 0) \
  X(SWSP, "c.swsp", 0) X(SDSP, "c.sdsp", 0)

typedef enum KitRv64COp {
#define RVC_ENUM(e, name, unused) RVC_##e,
  RVC_OPS(RVC_ENUM)
#undef RVC_ENUM
  RVC_NOPS
} KitRv64COp;
extern const char *const kit_rv64_cop_name[RVC_NOPS];

/* rounding-mode field values */
enum { RV_RNE = 0, RV_RTZ = 1, RV_RDN = 2, RV_RUP = 3, RV_RMM = 4, RV_DYN = 7 };
/* fflags bits */
enum { RV_NX = 1, RV_UF = 2, RV_OF = 4, RV_DZ = 8, RV_NV = 16 };
/* the CSRs user code may touch */
enum { RV_CSR_FFLAGS = 1, RV_CSR_FRM = 2, RV_CSR_FCSR = 3, RV_CSR_CYCLE = 0xc00, RV_CSR_TIME = 0xc01,
       RV_CSR_INSTRET = 0xc02 };

unsigned kit_rv64_decode(const uint8_t *bytes, size_t avail, uint64_t pc, KitDecodedInsn *insn);
/* expand a 16-bit encoding; returns its compressed form (RVC_NONE if illegal) */
KitRv64COp kit_rv64_decode16(uint16_t raw, uint64_t pc, KitDecodedInsn *insn);
int kit_rv64_disasm(const KitDecodedInsn *insn, char *buf, size_t size);       /* objdump -M no-aliases */
int kit_rv64_disasm_alias(const KitDecodedInsn *insn, char *buf, size_t size); /* objdump's default names */
const char *kit_rv64_xreg_name(unsigned r);
const char *kit_rv64_freg_name(unsigned r);
const char *kit_rv64_csr_name(unsigned csr); /* NULL if unnamed */

int kit_rv64_lift(KitLiftEnv *env, KitCgBuilder *b, KitCgVal cpu, const KitDecodedInsn *insns, unsigned n,
                  KitCgVal *next_pc);

/* linux.c: the riscv64 Linux ABI of KitArch */
#define KIT_RV64_SIGFRAME_SIZE 1088u
void kit_rv64_syscall_args(const void *cpu, uint64_t *nr, uint64_t args[6]);
void kit_rv64_syscall_result(void *cpu, int64_t ret);
extern const KitArchSyscall kit_rv64_extra_syscalls[2];
void kit_rv64_sigframe_build(void *cpu, void *frame, uint64_t at, const KitArchSignal *sig);
uint64_t kit_rv64_sigframe_restore(void *cpu, const void *frame, uint64_t *mask);
extern const uint8_t kit_rv64_sigreturn_code[8];

#endif
