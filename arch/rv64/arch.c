/* arch/rv64/arch.c — the KitArch table for riscv64 (kit_arch_rv64): decoder,
 * disassembler, lifter, the register accessors and descriptor tools and the
 * syscall layer use (regs 0..31 = x, 32..63 = f, 64 = fcsr, 65 = pc), the
 * calling convention, and the Linux ABI of linux.c. */
#include "rv64.h"

static uint64_t get_reg(const void *cpu, unsigned reg) {
  const KitRv64Cpu *c = cpu;
  if (reg < 32) return reg ? c->x[reg] : 0;
  if (reg < 64) return c->f[reg - 32];
  if (reg == KIT_RV64_REG_FCSR) return c->fcsr;
  if (reg == KIT_RV64_REG_PC) return c->pc;
  return 0;
}

static void set_reg(void *cpu, unsigned reg, uint64_t v) {
  KitRv64Cpu *c = cpu;
  if (reg < 32) {
    if (reg) c->x[reg] = v;
  } else if (reg < 64) {
    c->f[reg - 32] = v;
  } else if (reg == KIT_RV64_REG_FCSR) {
    c->fcsr = (uint32_t)v & 0xff;
  } else if (reg == KIT_RV64_REG_PC) {
    c->pc = v;
  }
}

static uint64_t get_pc(const void *cpu) { return ((const KitRv64Cpu *)cpu)->pc; }
static void set_pc(void *cpu, uint64_t pc) { ((KitRv64Cpu *)cpu)->pc = pc; }
static void retire(void *cpu, uint64_t n) { ((KitRv64Cpu *)cpu)->instret += n; }

/* loads, stores (compressed ones expanded by the decoder) and FP ones access
 * rs1 + imm; LR, SC and AMOs access rs1 */
static bool mem_addr(const void *cpu, const KitDecodedInsn *in, uint64_t *addr) {
  if (!(in->flags & (KIT_DECODE_MEM_LOAD | KIT_DECODE_MEM_STORE))) return false;
  uint64_t off = in->flags & KIT_DECODE_ATOMIC ? 0 : (uint64_t)in->imm;
  *addr = get_reg(cpu, in->rs1 & 31) + off;
  return true;
}

#define XREG(n, name) {name, n, 64, KIT_ARCH_REG_INT}
#define FREG(n, name) {name, 32 + n, 64, KIT_ARCH_REG_FLOAT}
static const KitArchReg regs[KIT_RV64_NREGS] = {
    XREG(0, "zero"), XREG(1, "ra"),   XREG(2, "sp"),   XREG(3, "gp"),   XREG(4, "tp"),   XREG(5, "t0"),
    XREG(6, "t1"),   XREG(7, "t2"),   XREG(8, "fp"),   XREG(9, "s1"),   XREG(10, "a0"),  XREG(11, "a1"),
    XREG(12, "a2"),  XREG(13, "a3"),  XREG(14, "a4"),  XREG(15, "a5"),  XREG(16, "a6"),  XREG(17, "a7"),
    XREG(18, "s2"),  XREG(19, "s3"),  XREG(20, "s4"),  XREG(21, "s5"),  XREG(22, "s6"),  XREG(23, "s7"),
    XREG(24, "s8"),  XREG(25, "s9"),  XREG(26, "s10"), XREG(27, "s11"), XREG(28, "t3"),  XREG(29, "t4"),
    XREG(30, "t5"),  XREG(31, "t6"),
    FREG(0, "ft0"),  FREG(1, "ft1"),  FREG(2, "ft2"),  FREG(3, "ft3"),  FREG(4, "ft4"),  FREG(5, "ft5"),
    FREG(6, "ft6"),  FREG(7, "ft7"),  FREG(8, "fs0"),  FREG(9, "fs1"),  FREG(10, "fa0"), FREG(11, "fa1"),
    FREG(12, "fa2"), FREG(13, "fa3"), FREG(14, "fa4"), FREG(15, "fa5"), FREG(16, "fa6"), FREG(17, "fa7"),
    FREG(18, "fs2"), FREG(19, "fs3"), FREG(20, "fs4"), FREG(21, "fs5"), FREG(22, "fs6"), FREG(23, "fs7"),
    FREG(24, "fs8"), FREG(25, "fs9"), FREG(26, "fs10"), FREG(27, "fs11"), FREG(28, "ft8"), FREG(29, "ft9"),
    FREG(30, "ft10"), FREG(31, "ft11"),
    {"fcsr", KIT_RV64_REG_FCSR, 32, KIT_ARCH_REG_CSR},
    {"pc", KIT_RV64_REG_PC, 64, KIT_ARCH_REG_PC},
};

/* the register an instruction's format says its rd names (x or f), none for
 * stores, branches, fences and ecall; x0 is never written */
static unsigned insn_writes(const KitDecodedInsn *in, uint16_t *regs, unsigned max) {
  if (!max || in->op >= RV_NOPS) return 0;
  switch (kit_rv64_op_info[in->op].fmt) {
  case RVF_R: case RVF_I: case RVF_SH: case RVF_U: case RVF_LD: case RVF_JAL: case RVF_CSR: case RVF_CSRI:
  case RVF_AMO: case RVF_LR: case RVF_XF_RM: case RVF_XF: case RVF_XFF: case RVF_X1:
    if (!in->rd) return 0;
    regs[0] = in->rd;
    return 1;
  case RVF_FR: case RVF_FR_RM: case RVF_FR4: case RVF_F1_RM: case RVF_F1: case RVF_FX_RM: case RVF_FX: case RVF_FLD:
    regs[0] = (uint16_t)(32 + in->rd);
    return 1;
  default:
    return 0;
  }
}

/* gdb's riscv numbering (gdb/features/riscv): x0-x31, pc, f0-f31, then
 * fflags, frm and fcsr, which the stub reads out of fcsr */
#define GX(name, type) {name, 64, type, "general", "org.gnu.gdb.riscv.cpu", name, 0, 0, false}
#define GF(name) {name, 64, "ieee_double", "float", "org.gnu.gdb.riscv.fpu", name, 0, 0, false}
#define GC(name, shift, width) {name, 32, "int", "float", "org.gnu.gdb.riscv.fpu", "fcsr", shift, width, false}
static const KitArchGdbReg gdb_regs[] = {
    {"zero", 64, "int", "general", "org.gnu.gdb.riscv.cpu", "zero", 0, 0, true}, GX("ra", "code_ptr"), GX("sp", "data_ptr"), GX("gp", "data_ptr"), GX("tp", "data_ptr"),
    GX("t0", "int"),   GX("t1", "int"),      GX("t2", "int"),      GX("fp", "data_ptr"), GX("s1", "int"),
    GX("a0", "int"),   GX("a1", "int"),      GX("a2", "int"),      GX("a3", "int"),      GX("a4", "int"),
    GX("a5", "int"),   GX("a6", "int"),      GX("a7", "int"),      GX("s2", "int"),      GX("s3", "int"),
    GX("s4", "int"),   GX("s5", "int"),      GX("s6", "int"),      GX("s7", "int"),      GX("s8", "int"),
    GX("s9", "int"),   GX("s10", "int"),     GX("s11", "int"),     GX("t3", "int"),      GX("t4", "int"),
    GX("t5", "int"),   GX("t6", "int"),      GX("pc", "code_ptr"),
    GF("ft0"),  GF("ft1"),  GF("ft2"),  GF("ft3"),  GF("ft4"),  GF("ft5"),  GF("ft6"),  GF("ft7"),
    GF("fs0"),  GF("fs1"),  GF("fa0"),  GF("fa1"),  GF("fa2"),  GF("fa3"),  GF("fa4"),  GF("fa5"),
    GF("fa6"),  GF("fa7"),  GF("fs2"),  GF("fs3"),  GF("fs4"),  GF("fs5"),  GF("fs6"),  GF("fs7"),
    GF("fs8"),  GF("fs9"),  GF("fs10"), GF("fs11"), GF("ft8"),  GF("ft9"),  GF("ft10"), GF("ft11"),
    GC("fflags", 0, 5), GC("frm", 5, 3), GC("fcsr", 0, 0),
};
static const KitArchGdb gdb = {"riscv:rv64", gdb_regs, sizeof gdb_regs / sizeof gdb_regs[0], true};

const KitArch kit_arch_rv64 = {
    .name = "riscv64",
    .elf_machine = 243, /* EM_RISCV */
    .cpu_state_size = sizeof(KitRv64Cpu),
    .max_insn_len = 4,
    .decode = kit_rv64_decode,
    .disasm = kit_rv64_disasm,
    .lift = kit_rv64_lift,
    .get_reg = get_reg,
    .set_reg = set_reg,
    .get_pc = get_pc,
    .set_pc = set_pc,
    .retire = retire,
    .mem_addr = mem_addr,
    .insn_writes = insn_writes,
    .regs = regs,
    .nregs = KIT_RV64_NREGS,
    .cc = {.ra = 1, .sp = 2, .fp = 8, .tp = 4, .ret = 10, .args = {10, 11, 12, 13, 14, 15, 16, 17}},
    .syscall_args = kit_rv64_syscall_args,
    .syscall_result = kit_rv64_syscall_result,
    .extra_syscalls = kit_rv64_extra_syscalls,
    .nextra_syscalls = 2,
    .sigframe_size = KIT_RV64_SIGFRAME_SIZE,
    .sigframe_align = 16,
    .sigframe_build = kit_rv64_sigframe_build,
    .sigframe_restore = kit_rv64_sigframe_restore,
    .sigreturn_code = kit_rv64_sigreturn_code,
    .sigreturn_code_len = sizeof kit_rv64_sigreturn_code,
    .hwcap = 0x112d, /* IMAFDC: bit ('x' - 'a') per letter */
    .minsigstksz = 2048,
    .default_sysroot = "/usr/riscv64-linux-gnu",
    .gdb = &gdb,
};
