/* cg/baseline/encode.h — x86-64 instruction encoding for the baseline
 * compiler: registers, operands, condition codes and one function per
 * instruction form, appending bytes to a growing code buffer. Knows nothing
 * of CG; tests/baseline/test_encode.c checks it against objdump. */
#ifndef KIT_BASELINE_ENCODE_H
#define KIT_BASELINE_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };

/* the /digit of the group-1 ALU instructions (80/81/83) and their r/m forms */
enum { ALU_ADD = 0, ALU_OR = 1, ALU_AND = 4, ALU_SUB = 5, ALU_XOR = 6, ALU_CMP = 7 };
/* the /digit of the shift group (c1/d3) */
enum { SHIFT_SHL = 4, SHIFT_SHR = 5, SHIFT_SAR = 7 };
/* the /digit of the f7 group's one-operand forms */
enum { UNARY_NOT = 2, UNARY_NEG = 3, UNARY_DIV = 6, UNARY_IDIV = 7 };
/* condition codes, as in jcc/setcc/cmovcc; cc ^ 1 is the opposite one */
enum { CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A, CC_S, CC_NS, CC_P, CC_NP, CC_L, CC_GE, CC_LE, CC_G };

/* machine code being emitted; oom once a growth failed (later bytes are dropped) */
typedef struct CodeBuf {
  uint8_t *bytes;
  size_t n, cap;
  bool oom;
} CodeBuf;

/* a register (mem false) or a memory operand [base + index + disp] */
typedef struct Operand {
  bool mem;
  bool byte; /* a byte register operand of a wider instruction (movzx, movsx) */
  int base, index; /* index -1: none */
  int32_t disp;
} Operand;
static inline Operand reg_op(int r) { return (Operand){false, false, r, -1, 0}; }
static inline Operand mem_op(int base, int index, int32_t disp) { return (Operand){true, false, base, index, disp}; }

static inline bool fits8(int64_t d) { return d >= -128 && d <= 127; }
static inline bool fits32(int64_t d) { return d >= INT32_MIN && d <= INT32_MAX; }

/* raw bytes */
void code_put(CodeBuf *c, const void *p, size_t k);
void code_u8(CodeBuf *c, unsigned b);
void code_u16(CodeBuf *c, uint16_t w);
void code_u32(CodeBuf *c, uint32_t w);
void code_u64(CodeBuf *c, uint64_t w);

/* one instruction: [66] [REX] opcode (nopc bytes) ModRM [SIB] [disp]; size is
 * the operand size (8, 16, 32, 64); reg is the ModRM reg field (a register
 * or a /digit) */
void enc_modrm(CodeBuf *c, int size, unsigned opc, int nopc, int reg, Operand rm);

/* sizes below are operand sizes (8, 16, 32, 64) unless said otherwise */
void enc_alu_rr(CodeBuf *c, int alu, int size, int dst, int src);       /* alu dst, src */
void enc_alu_ri(CodeBuf *c, int alu, int size, Operand dst, int64_t imm); /* alu dst, imm (imm8 when it fits) */
uint32_t enc_alu_ri32(CodeBuf *c, int alu, int dst);  /* alu dst64, imm32 0: returns the imm32's offset (patched later) */
void enc_mov_rr(CodeBuf *c, int size, int dst, int src); /* 64 or 32 (32 zero-extends; nothing when dst == src at 64) */
void enc_mov_ri(CodeBuf *c, int dst, uint64_t imm);      /* the shortest form; leaves the flags alone */
void enc_mov_mi(CodeBuf *c, int size, Operand m, int64_t imm); /* store an immediate */
void enc_movzx(CodeBuf *c, int dst, int from_size, Operand src); /* from 8 or 16 into dst32 */
void enc_movsx(CodeBuf *c, int to_size, int dst, int from_size, Operand src); /* from 8, 16 or 32 */
void enc_lea(CodeBuf *c, int size, int dst, Operand m);
void enc_load(CodeBuf *c, int size, int dst, Operand m); /* 8 and 16 zero-extend */
void enc_store(CodeBuf *c, int size, Operand m, int src);
void enc_cmov(CodeBuf *c, int size, int cc, int dst, int src);
void enc_setcc(CodeBuf *c, int cc, int dst);
void enc_test_rr(CodeBuf *c, int size, int a, int b);
void enc_xchg_rr(CodeBuf *c, int a, int b); /* 64-bit */
void enc_imul_rr(CodeBuf *c, int size, int dst, int src);
void enc_imul_rri(CodeBuf *c, int size, int dst, int src, int32_t imm);
void enc_unary(CodeBuf *c, int size, int digit, int r); /* not, neg, div, idiv (UNARY_*) */
void enc_shift_cl(CodeBuf *c, int size, int digit, int r); /* SHIFT_*: by cl */
void enc_shift_ri(CodeBuf *c, int size, int digit, int r, unsigned amt);
void enc_sign_extend_rax(CodeBuf *c, int size); /* cdq (32) / cqo (64) */
void enc_push(CodeBuf *c, int r);
void enc_pop(CodeBuf *c, int r);
void enc_call_reg(CodeBuf *c, int r);
void enc_jmp_reg(CodeBuf *c, int r);
void enc_jmp_mem(CodeBuf *c, Operand m);
void enc_ret(CodeBuf *c);
void enc_mfence(CodeBuf *c);
void enc_ud2(CodeBuf *c);
/* jcc / jmp with a rel32 of 0: return the rel32's offset, for enc_patch_rel32 */
uint32_t enc_jcc(CodeBuf *c, int cc);
uint32_t enc_jmp(CodeBuf *c);
/* the rel32 at offset at jumps to offset to */
void enc_patch_rel32(CodeBuf *c, uint32_t at, uint32_t to);

#pragma GCC visibility pop

#endif
