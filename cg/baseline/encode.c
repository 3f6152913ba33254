/* cg/baseline/encode.c — x86-64 instruction encoding (encode.h): the
 * ModRM/SIB/REX rules in enc_modrm, and each instruction form the baseline
 * compiler emits on top of it. */
#include "encode.h"

#include <stdlib.h>
#include <string.h>

/* ---- bytes ------------------------------------------------------------------ */

void code_put(CodeBuf *c, const void *p, size_t k) {
  if (c->n + k > c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 4096;
    while (cap < c->n + k) cap *= 2;
    uint8_t *q = realloc(c->bytes, cap);
    if (!q) {
      c->oom = true;
      return;
    }
    c->bytes = q;
    c->cap = cap;
  }
  memcpy(c->bytes + c->n, p, k);
  c->n += k;
}
void code_u8(CodeBuf *c, unsigned b) {
  uint8_t x = (uint8_t)b;
  code_put(c, &x, 1);
}
void code_u16(CodeBuf *c, uint16_t w) { code_put(c, &w, 2); }
void code_u32(CodeBuf *c, uint32_t w) { code_put(c, &w, 4); }
void code_u64(CodeBuf *c, uint64_t w) { code_put(c, &w, 8); }

/* ---- ModRM instructions ------------------------------------------------------------------ */

void enc_modrm(CodeBuf *c, int size, unsigned opc, int nopc, int reg, Operand rm) {
  if (size == 16) code_u8(c, 0x66);
  unsigned rex = 0x40 | (size == 64 ? 8 : 0) | (reg & 8 ? 4 : 0);
  if (rm.mem) rex |= (rm.index >= 0 && (rm.index & 8) ? 2 : 0) | (rm.base & 8 ? 1 : 0);
  else rex |= rm.base & 8 ? 1 : 0;
  /* byte registers spl/bpl/sil/dil need a REX prefix */
  bool byte_rex = (size == 8 && reg >= 4 && reg < 8 && nopc == 1) ||
                  ((size == 8 || rm.byte) && !rm.mem && rm.base >= 4 && rm.base < 8);
  if (rex != 0x40 || byte_rex) code_u8(c, rex);
  for (int i = nopc - 1; i >= 0; i--) code_u8(c, (opc >> (8 * i)) & 0xff);
  if (!rm.mem) {
    code_u8(c, 0xc0 | (reg & 7) << 3 | (rm.base & 7));
    return;
  }
  int mod = rm.disp == 0 && (rm.base & 7) != RBP ? 0 : fits8(rm.disp) ? 1 : 2;
  if (rm.index < 0 && (rm.base & 7) != RSP) {
    code_u8(c, mod << 6 | (reg & 7) << 3 | (rm.base & 7));
  } else {
    code_u8(c, mod << 6 | (reg & 7) << 3 | 4);
    code_u8(c, (rm.index < 0 ? 4 : rm.index & 7) << 3 | (rm.base & 7));
  }
  if (mod == 1) code_u8(c, (uint8_t)rm.disp);
  else if (mod == 2) code_u32(c, (uint32_t)rm.disp);
}

void enc_alu_rr(CodeBuf *c, int alu, int size, int dst, int src) {
  enc_modrm(c, size, (unsigned)(alu << 3 | (size == 8 ? 0 : 1)), 1, src, reg_op(dst));
}
void enc_alu_ri(CodeBuf *c, int alu, int size, Operand dst, int64_t imm) {
  if (size == 8) {
    enc_modrm(c, 8, 0x80, 1, alu, dst);
    code_u8(c, (uint8_t)imm);
  } else if (fits8(imm)) {
    enc_modrm(c, size, 0x83, 1, alu, dst);
    code_u8(c, (uint8_t)imm);
  } else {
    enc_modrm(c, size, 0x81, 1, alu, dst);
    if (size == 16) code_u16(c, (uint16_t)imm);
    else code_u32(c, (uint32_t)imm);
  }
}
uint32_t enc_alu_ri32(CodeBuf *c, int alu, int dst) {
  enc_modrm(c, 64, 0x81, 1, alu, reg_op(dst));
  uint32_t at = (uint32_t)c->n;
  code_u32(c, 0);
  return at;
}
void enc_mov_rr(CodeBuf *c, int size, int dst, int src) {
  if (dst != src || size == 32) enc_modrm(c, size == 64 ? 64 : 32, 0x89, 1, src, reg_op(dst));
}
void enc_mov_ri(CodeBuf *c, int dst, uint64_t imm) {
  if (imm <= UINT32_MAX) {
    if (dst & 8) code_u8(c, 0x41);
    code_u8(c, 0xb8 + (dst & 7));
    code_u32(c, (uint32_t)imm);
  } else if (fits32((int64_t)imm)) {
    enc_modrm(c, 64, 0xc7, 1, 0, reg_op(dst));
    code_u32(c, (uint32_t)imm);
  } else {
    code_u8(c, 0x48 | (dst & 8 ? 1 : 0));
    code_u8(c, 0xb8 + (dst & 7));
    code_u64(c, imm);
  }
}
void enc_mov_mi(CodeBuf *c, int size, Operand m, int64_t imm) {
  if (size == 8) {
    enc_modrm(c, 8, 0xc6, 1, 0, m);
    code_u8(c, (uint8_t)imm);
  } else if (size == 16) {
    enc_modrm(c, 16, 0xc7, 1, 0, m);
    code_u16(c, (uint16_t)imm);
  } else {
    enc_modrm(c, size, 0xc7, 1, 0, m);
    code_u32(c, (uint32_t)imm);
  }
}
void enc_movzx(CodeBuf *c, int dst, int from_size, Operand src) {
  src.byte = from_size == 8;
  enc_modrm(c, 32, from_size == 8 ? 0x0fb6 : 0x0fb7, 2, dst, src);
}
void enc_movsx(CodeBuf *c, int to_size, int dst, int from_size, Operand src) {
  src.byte = from_size == 8;
  if (from_size == 32) enc_modrm(c, 64, 0x63, 1, dst, src);
  else enc_modrm(c, to_size == 64 ? 64 : 32, from_size == 8 ? 0x0fbe : 0x0fbf, 2, dst, src);
}
void enc_lea(CodeBuf *c, int size, int dst, Operand m) { enc_modrm(c, size == 64 ? 64 : 32, 0x8d, 1, dst, m); }
void enc_load(CodeBuf *c, int size, int dst, Operand m) {
  if (size <= 16) enc_movzx(c, dst, size, m);
  else enc_modrm(c, size, 0x8b, 1, dst, m);
}
void enc_store(CodeBuf *c, int size, Operand m, int src) { enc_modrm(c, size, size == 8 ? 0x88 : 0x89, 1, src, m); }
void enc_cmov(CodeBuf *c, int size, int cc, int dst, int src) {
  enc_modrm(c, size == 64 ? 64 : 32, 0x0f40u | (unsigned)cc, 2, dst, reg_op(src));
}
void enc_setcc(CodeBuf *c, int cc, int dst) { enc_modrm(c, 8, 0x0f90u | (unsigned)cc, 2, 0, reg_op(dst)); }
void enc_test_rr(CodeBuf *c, int size, int a, int b) { enc_modrm(c, size, 0x85, 1, b, reg_op(a)); }
void enc_xchg_rr(CodeBuf *c, int a, int b) { enc_modrm(c, 64, 0x87, 1, b, reg_op(a)); }
void enc_imul_rr(CodeBuf *c, int size, int dst, int src) { enc_modrm(c, size, 0x0faf, 2, dst, reg_op(src)); }
void enc_imul_rri(CodeBuf *c, int size, int dst, int src, int32_t imm) {
  enc_modrm(c, size, 0x69, 1, dst, reg_op(src));
  code_u32(c, (uint32_t)imm);
}
void enc_unary(CodeBuf *c, int size, int digit, int r) { enc_modrm(c, size, 0xf7, 1, digit, reg_op(r)); }
void enc_shift_cl(CodeBuf *c, int size, int digit, int r) { enc_modrm(c, size, 0xd3, 1, digit, reg_op(r)); }
void enc_shift_ri(CodeBuf *c, int size, int digit, int r, unsigned amt) {
  enc_modrm(c, size, 0xc1, 1, digit, reg_op(r));
  code_u8(c, amt);
}

/* ---- fixed forms ------------------------------------------------------------------ */

void enc_sign_extend_rax(CodeBuf *c, int size) {
  if (size == 64) code_u8(c, 0x48);
  code_u8(c, 0x99);
}
void enc_push(CodeBuf *c, int r) {
  if (r & 8) code_u8(c, 0x41);
  code_u8(c, 0x50 + (r & 7));
}
void enc_pop(CodeBuf *c, int r) {
  if (r & 8) code_u8(c, 0x41);
  code_u8(c, 0x58 + (r & 7));
}
void enc_call_reg(CodeBuf *c, int r) { enc_modrm(c, 32, 0xff, 1, 2, reg_op(r)); }
void enc_jmp_reg(CodeBuf *c, int r) { enc_modrm(c, 32, 0xff, 1, 4, reg_op(r)); }
void enc_jmp_mem(CodeBuf *c, Operand m) { enc_modrm(c, 32, 0xff, 1, 4, m); }
void enc_ret(CodeBuf *c) { code_u8(c, 0xc3); }
void enc_mfence(CodeBuf *c) {
  code_u8(c, 0x0f), code_u8(c, 0xae), code_u8(c, 0xf0);
}
void enc_ud2(CodeBuf *c) { code_u8(c, 0x0f), code_u8(c, 0x0b); }

/* ---- jumps ------------------------------------------------------------------ */

uint32_t enc_jcc(CodeBuf *c, int cc) {
  code_u8(c, 0x0f);
  code_u8(c, 0x80 | cc);
  code_u32(c, 0);
  return (uint32_t)c->n - 4;
}
uint32_t enc_jmp(CodeBuf *c) {
  code_u8(c, 0xe9);
  code_u32(c, 0);
  return (uint32_t)c->n - 4;
}
void enc_patch_rel32(CodeBuf *c, uint32_t at, uint32_t to) {
  int32_t rel = (int32_t)to - (int32_t)(at + 4);
  memcpy(c->bytes + at, &rel, 4);
}
