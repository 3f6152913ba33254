/* arch/rv64/cpu.h — the riscv64 guest CPU state the lifted code reads and
 * writes (pc first, at offset 0, as include/kit/arch.h requires), and the
 * host helpers lifted code calls for floating point and CSRs. */
#ifndef KIT_ARCH_RV64_CPU_H
#define KIT_ARCH_RV64_CPU_H

#include <stddef.h>
#include <stdint.h>

typedef struct KitRv64Cpu {
  uint64_t pc;
  uint64_t x[32];
  uint64_t f[32];        /* NaN-boxed: an f32 lives in the low half, upper half all ones */
  uint32_t fcsr;         /* frm in bits 7:5, fflags in bits 4:0 */
  uint32_t res_valid;    /* lr/sc reservation */
  uint64_t res_addr;
  uint64_t res_value;
  uint64_t instret;      /* instructions retired (the instret and cycle CSRs) */
} KitRv64Cpu;

/* register numbers of KitArch.get_reg/set_reg */
enum { KIT_RV64_REG_X0 = 0, KIT_RV64_REG_F0 = 32, KIT_RV64_REG_FCSR = 64, KIT_RV64_REG_PC = 65, KIT_RV64_NREGS = 66 };

#define KIT_RV64_OFF_X(r) (offsetof(KitRv64Cpu, x) + 8u * (r))
#define KIT_RV64_OFF_F(r) (offsetof(KitRv64Cpu, f) + 8u * (r))

/* Floating-point operations for the helper, one per rounding/flag-visible
 * RISC-V op. Operands and results are raw register bits (f32 NaN-boxed). */
typedef enum KitRv64FpOp {
  KIT_RV64_FP_ADD, KIT_RV64_FP_SUB, KIT_RV64_FP_MUL, KIT_RV64_FP_DIV, KIT_RV64_FP_SQRT,
  KIT_RV64_FP_MADD, KIT_RV64_FP_MSUB, KIT_RV64_FP_NMSUB, KIT_RV64_FP_NMADD,
  KIT_RV64_FP_SGNJ, KIT_RV64_FP_SGNJN, KIT_RV64_FP_SGNJX, KIT_RV64_FP_MIN, KIT_RV64_FP_MAX,
  KIT_RV64_FP_EQ, KIT_RV64_FP_LT, KIT_RV64_FP_LE, KIT_RV64_FP_CLASS,
  KIT_RV64_FP_CVT_W, KIT_RV64_FP_CVT_WU, KIT_RV64_FP_CVT_L, KIT_RV64_FP_CVT_LU, /* float -> int */
  KIT_RV64_FP_CVT_FROM_W, KIT_RV64_FP_CVT_FROM_WU, KIT_RV64_FP_CVT_FROM_L, KIT_RV64_FP_CVT_FROM_LU,
  KIT_RV64_FP_CVT_S_D, KIT_RV64_FP_CVT_D_S,
} KitRv64FpOp;

/* op | KIT_RV64_FP_DOUBLE selects the D form (else S). rm is the
 * instruction's rounding-mode field (7 = dynamic: frm; the reserved modes
 * 5 and 6 are rejected by the decoder, and a reserved frm rounds to
 * nearest). Returns the result bits (integer results sign-extended as
 * RISC-V writes them) and accumulates fflags in cpu->fcsr. */
#define KIT_RV64_FP_DOUBLE 0x100u
uint64_t kit_rv64_fp(KitRv64Cpu *cpu, uint32_t op, uint32_t rm, uint64_t a, uint64_t b, uint64_t c);

/* csrrw/csrrs/csrrc on the user CSRs: kind 0 = write, 1 = set bits, 2 = clear
 * bits; write = 0 skips the write (rs1 = x0 forms). Returns the old value. */
uint64_t kit_rv64_csr(KitRv64Cpu *cpu, uint32_t csr, uint32_t kind, uint64_t value, uint32_t write);

#endif
