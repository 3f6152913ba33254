/* arch/rv64/arch.c — the KitArch table for riscv64 (kit_arch_rv64): decoder,
 * disassembler, lifter and the register accessors tools and the syscall
 * layer use (regs 0..31 = x, 32..63 = f, 64 = fcsr). */
#include "rv64.h"

static uint64_t get_reg(const void *cpu, unsigned reg) {
  const KitRv64Cpu *c = cpu;
  if (reg < 32) return reg ? c->x[reg] : 0;
  if (reg < 64) return c->f[reg - 32];
  if (reg == KIT_RV64_REG_FCSR) return c->fcsr;
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
};
