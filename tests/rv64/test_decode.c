/* tests/rv64/test_decode.c — unit tests of the riscv64 decoder and
 * disassembler on tricky encodings: compressed immediates and their sign
 * extension, control-flow flags, reserved and illegal encodings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "rv64.h"

static unsigned dec(uint32_t raw, unsigned len, uint64_t pc, KitDecodedInsn *d) {
  uint8_t b[4] = {(uint8_t)raw, (uint8_t)(raw >> 8), (uint8_t)(raw >> 16), (uint8_t)(raw >> 24)};
  return kit_rv64_decode(b, len, pc, d);
}

static void expect_text(uint32_t raw, unsigned len, uint64_t pc, const char *want) {
  KitDecodedInsn d;
  dec(raw, len, pc, &d);
  char buf[128];
  kit_rv64_disasm(&d, buf, sizeof buf);
  assert_string_equal(buf, want);
}

static void test_compressed_immediates(void **st) {
  (void)st;
  KitDecodedInsn d;
  assert_int_equal(dec(0x7131, 2, 0, &d), 2); /* c.addi16sp sp,-192 */
  assert_int_equal(d.op, RV_ADDI);
  assert_int_equal(d.rd, 2);
  assert_int_equal(d.rs1, 2);
  assert_int_equal(d.imm, -192);
  assert_int_equal(dec(0x737d, 2, 0, &d), 2); /* c.lui t1,0xfffff */
  assert_int_equal(d.op, RV_LUI);
  assert_int_equal(d.rd, 6);
  assert_int_equal(d.imm, -4096);
  dec(0x60e2, 2, 0, &d); /* c.ldsp ra,24(sp) */
  assert_int_equal(d.op, RV_LD);
  assert_int_equal(d.rd, 1);
  assert_int_equal(d.rs1, 2);
  assert_int_equal(d.imm, 24);
  dec(0xf922, 2, 0, &d); /* c.sdsp s0,176(sp) */
  assert_int_equal(d.op, RV_SD);
  assert_int_equal(d.rs2, 8);
  assert_int_equal(d.imm, 176);
  dec(0x1008, 2, 0, &d); /* c.addi4spn a0,sp,32 */
  assert_int_equal(d.op, RV_ADDI);
  assert_int_equal(d.rd, 10);
  assert_int_equal(d.imm, 32);
  dec(0x9381, 2, 0, &d); /* c.srli a5,0x20 */
  assert_int_equal(d.op, RV_SRLI);
  assert_int_equal(d.rd, 15);
  assert_int_equal(d.imm, 32);
  dec(0x9bc1, 2, 0, &d); /* c.andi a5,-16 */
  assert_int_equal(d.op, RV_ANDI);
  assert_int_equal(d.imm, -16);
  dec(0x1501, 2, 0, &d); /* c.addi a0,-32 */
  assert_int_equal(d.imm, -32);
  dec(0x405c, 2, 0, &d); /* c.lw a5,4(s0) */
  assert_int_equal(d.op, RV_LW);
  assert_int_equal(d.imm, 4);
  assert_int_equal(d.rs1, 8);
  dec(0x3d24, 2, 0, &d); /* c.fld fs1,120(a0) */
  assert_int_equal(d.op, RV_FLD);
  assert_int_equal(d.imm, 120);
  assert_int_equal(d.rd, 9);
  assert_true(d.flags & KIT_DECODE_FP);
}

static void test_compressed_branches(void **st) {
  (void)st;
  KitDecodedInsn d;
  dec(0xbfc9, 2, 0x26a6e, &d); /* c.j 26a40 (backwards) */
  assert_int_equal(d.op, RV_JAL);
  assert_int_equal(d.rd, 0);
  assert_int_equal(d.target, 0x26a40);
  assert_true(d.flags & KIT_DECODE_JUMP);
  assert_false(d.flags & KIT_DECODE_CALL);
  assert_true(d.flags & KIT_DECODE_TERMINATOR);
  dec(0xc781, 2, 0x26904, &d); /* c.beqz a5,2690c */
  assert_int_equal(d.op, RV_BEQ);
  assert_int_equal(d.rs1, 15);
  assert_int_equal(d.rs2, 0);
  assert_int_equal(d.target, 0x2690c);
  assert_true(d.flags & KIT_DECODE_BRANCH);
  dec(0x8082, 2, 0, &d); /* c.jr ra */
  assert_int_equal(d.op, RV_JALR);
  assert_true(d.flags & KIT_DECODE_RET);
  assert_true(d.flags & KIT_DECODE_INDIRECT);
  dec(0x9782, 2, 0, &d); /* c.jalr a5 */
  assert_int_equal(d.rd, 1);
  assert_int_equal(d.rs1, 15);
  assert_true(d.flags & KIT_DECODE_CALL);
  assert_false(d.flags & KIT_DECODE_RET);
  dec(0x9002, 2, 0, &d); /* c.ebreak */
  assert_int_equal(d.op, RV_EBREAK);
  assert_true(d.flags & KIT_DECODE_TRAP);
}

static void test_compressed_illegal(void **st) {
  (void)st;
  KitDecodedInsn d;
  static const uint16_t bad[] = {
      0x0000, /* c.unimp */
      0x0004, /* c.addi4spn with nzuimm 0 */
      0x4002, /* c.lwsp rd=0 */
      0x6002, /* c.ldsp rd=0 */
      0x8002, /* c.jr x0 */
      0x2001, /* c.addiw rd=0 */
      0x6081, /* c.lui imm 0 */
      0x6101, /* c.addi16sp imm 0 */
      0x9c41, /* reserved CA form */
      0x8000, /* q0 funct3 100 */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(dec(bad[i], 2, 0, &d), 0);
    assert_int_equal(d.op, RV_ILLEGAL);
    assert_true(d.flags & KIT_DECODE_ILLEGAL);
    assert_true(d.flags & KIT_DECODE_TERMINATOR);
  }
  expect_text(0x0000, 2, 0, "c.unimp");
  expect_text(0x8000, 2, 0, ".2byte\t0x8000");
}

static void test_base_encodings(void **st) {
  (void)st;
  KitDecodedInsn d;
  assert_int_equal(dec(0xfff00093, 4, 0, &d), 4); /* addi ra,zero,-1 */
  assert_int_equal(d.imm, -1);
  dec(0x800000b7, 4, 0, &d); /* lui ra,0x80000: sign-extended */
  assert_int_equal((uint64_t)d.imm, 0xffffffff80000000ull);
  dec(0x4030d093, 4, 0, &d); /* srai ra,ra,0x3 */
  assert_int_equal(d.op, RV_SRAI);
  assert_int_equal(d.imm, 3);
  dec(0x000080e7, 4, 0, &d); /* jalr ra,0(ra) */
  assert_true(d.flags & KIT_DECODE_CALL);
  dec(0x00008067, 4, 0, &d); /* jalr zero,0(ra) */
  assert_true(d.flags & KIT_DECODE_RET);
  dec(0x004282e7, 4, 0, &d); /* jalr t0,4(t0): call through t0 */
  assert_true(d.flags & KIT_DECODE_CALL);
  dec(0xffdff2ef, 4, 0x1000, &d); /* jal t0,ffc */
  assert_int_equal(d.target, 0xffc);
  assert_true(d.flags & KIT_DECODE_CALL);
  dec(0xfe0798e3, 4, 0x100, &d); /* bne a5,zero,f0 */
  assert_int_equal(d.op, RV_BNE);
  assert_int_equal(d.target, 0xf0);
  dec(0x1ce426af, 4, 0, &d); /* sc.w.aq a3,a4,(s0) */
  assert_int_equal(d.op, RV_SC_W);
  assert_int_equal(d.rm, 2);
  assert_true(d.flags & KIT_DECODE_ATOMIC);
  dec(0x00102773, 4, 0, &d); /* csrrs a4,fflags,zero */
  assert_int_equal(d.op, RV_CSRRS);
  assert_int_equal(d.csr, 1);
  assert_true(d.flags & KIT_DECODE_CSR);
  dec(0x0000100f, 4, 0, &d);
  assert_int_equal(d.op, RV_FENCE_I);
  assert_true(d.flags & KIT_DECODE_FENCE_I);
  assert_true(d.flags & KIT_DECODE_TERMINATOR);
  dec(0x00000073, 4, 0, &d);
  assert_true(d.flags & KIT_DECODE_SYSCALL);
  dec(0x8330000f, 4, 0, &d);
  assert_int_equal(d.op, RV_FENCE_TSO);
}

static void test_fp_encodings(void **st) {
  (void)st;
  KitDecodedInsn d;
  dec(0xc00796d3, 4, 0, &d); /* fcvt.w.s a3,fa5,rtz */
  assert_int_equal(d.op, RV_FCVT_W_S);
  assert_int_equal(d.rm, RV_RTZ);
  assert_int_equal(dec(0xc007d6d3, 4, 0, &d), 0); /* same with reserved rm 5 */
  assert_int_equal(dec(0x02a5e7d3, 4, 0, &d), 0); /* fadd.d with rm 6 */
  dec(0x6a0787c3, 4, 0, &d); /* fmadd.d fa5,fa5,ft0,fa3,rne */
  assert_int_equal(d.op, RV_FMADD_D);
  assert_int_equal(d.rs3, 13);
  assert_int_equal(dec(0x06a5f7d3, 4, 0, &d), 0); /* fmt 3 (quad) is not RV64GC */
  expect_text(0xc00796d3, 4, 0, "fcvt.w.s\ta3,fa5,rtz");
  expect_text(0x02a507d3, 4, 0, "fadd.d\tfa5,fa0,fa0,rne");
  expect_text(0x02a577d3, 4, 0, "fadd.d\tfa5,fa0,fa0");
}

static void test_truncated(void **st) {
  (void)st;
  KitDecodedInsn d;
  assert_int_equal(dec(0x00000013, 1, 0, &d), 0);
  assert_true(d.flags & KIT_DECODE_ILLEGAL);
  assert_int_equal(dec(0x00000013, 2, 0, &d), 0); /* a 32-bit encoding cut at 2 bytes */
  assert_int_equal(dec(0x0000001f, 4, 0, &d), 0); /* 48-bit encoding prefix */
  expect_text(0x0000000b, 4, 0, ".4byte\t0xb");
}

static void test_disasm_forms(void **st) {
  (void)st;
  expect_text(0xbfc9, 2, 0x26a6e, "c.j\t26a40");
  expect_text(0x737d, 2, 0, "c.lui\tt1,0xfffff");
  expect_text(0x1008, 2, 0, "c.addi4spn\ta0,sp,32");
  expect_text(0x04d727af, 4, 0, "amoadd.w.aq\ta5,a3,(a4)");
  expect_text(0x100427af, 4, 0, "lr.w\ta5,(s0)");
  expect_text(0x0f50000f, 4, 0, "fence\tiorw,ow");
  expect_text(0x7c0027f3, 4, 0, "csrrs\ta5,0x7c0,zero");
  expect_text(0x00186073, 4, 0, "csrrsi\tzero,fflags,16");
  expect_text(0xd603be03, 4, 0, "ld\tt3,-672(t2)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_compressed_immediates), cmocka_unit_test(test_compressed_branches),
      cmocka_unit_test(test_compressed_illegal),    cmocka_unit_test(test_base_encodings),
      cmocka_unit_test(test_fp_encodings),          cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_disasm_forms),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
