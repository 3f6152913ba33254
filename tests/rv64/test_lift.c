/* tests/rv64/test_lift.c — unit tests of the riscv64 lifter run in-process
 * on the CG interpreter: x0, instret, CSR legality, emulator exits (ecall,
 * ebreak, illegal, fence.i), block ends, lr/sc without a reservation, and
 * the floating-point helper's edge cases called directly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "kit/cg_exec.h"
#include "rv64.h"

static uint8_t guest[4096];
#define GBASE 0x10000ull

static uint64_t last_exit_pc;
static const char *last_exit;
static uint64_t record_exit(const char *what, uint64_t pc) {
  last_exit = what;
  last_exit_pc = pc;
  return 0x5000;
}
/* the next pc each exit is given: the instruction's end */
static uint64_t last_exit_next;
static uint64_t exit_with(const char *what, uint64_t pc, uint64_t next) {
  last_exit_next = next;
  return record_exit(what, pc);
}
static uint64_t emu_ecall(KitRv64Cpu *c, uint64_t pc, uint64_t next) { (void)c; return exit_with("ecall", pc, next); }
static uint64_t emu_ebreak(KitRv64Cpu *c, uint64_t pc, uint64_t next) { (void)c; return exit_with("ebreak", pc, next); }
static uint64_t emu_illegal(KitRv64Cpu *c, uint64_t pc, uint64_t next) { (void)c; return exit_with("illegal", pc, next); }
static uint64_t emu_fence_i(KitRv64Cpu *c, uint64_t pc, uint64_t next) { (void)c; return exit_with("fence_i", pc, next); }

static void *resolve(void *user, const char *name) {
  (void)user;
  if (!strcmp(name, "kit_emu_syscall_insn")) return (void *)emu_ecall;
  if (!strcmp(name, "kit_emu_breakpoint")) return (void *)emu_ebreak;
  if (!strcmp(name, "kit_emu_illegal")) return (void *)emu_illegal;
  if (!strcmp(name, "kit_emu_icache_flush")) return (void *)emu_fence_i;
  if (!strcmp(name, "kit_rv64_fp")) return (void *)kit_rv64_fp;
  if (!strcmp(name, "kit_rv64_csr")) return (void *)kit_rv64_csr;
  return NULL;
}

static KitCgVal host_ptr(KitCgBuilder *b, KitCgVal addr) {
  KitCgVal d = kit_cg_iconst(b, KIT_CG_I64, (uint64_t)(uintptr_t)guest - GBASE);
  return kit_cg_conv(b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, kit_cg_binop(b, KIT_CG_OP_ADD, addr, d));
}
static KitCgVal e_load(KitLiftEnv *e, KitCgBuilder *b, KitCgType t, KitCgVal a, uint64_t pc) {
  (void)e, (void)pc;
  return kit_cg_load(b, t, host_ptr(b, a), 1, KIT_CG_PROGRAM);
}
static void e_store(KitLiftEnv *e, KitCgBuilder *b, KitCgType t, KitCgVal v, KitCgVal a, uint64_t pc) {
  (void)e, (void)pc, (void)t;
  kit_cg_store(b, v, host_ptr(b, a), 1, KIT_CG_PROGRAM);
}
static KitCgVal e_host(KitLiftEnv *e, KitCgBuilder *b, KitCgVal a, uint32_t n, bool w, uint64_t pc) {
  (void)e, (void)n, (void)w, (void)pc;
  return host_ptr(b, a);
}

/* how the last block run ended, as the lifter reported it */
static KitLiftBranch last_branch;

/* decode words at pc, lift them as one block, run it once; returns next pc */
static uint64_t run(KitRv64Cpu *cpu, const uint32_t *words, unsigned n) {
  KitDecodedInsn insns[16];
  uint64_t pc = cpu->pc;
  for (unsigned i = 0; i < n; i++) {
    uint8_t b[4];
    memcpy(b, &words[i], 4);
    kit_rv64_decode(b, 4, pc, &insns[i]);
    pc += 4;
  }
  KitCgModule *m = kit_cg_module_new("t");
  KitCgType pt = KIT_CG_PTR;
  KitCgFunc *f = kit_cg_func_declare(m, "block", KIT_CG_I64, &pt, 1, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_builder_at(&b, kit_cg_block_new(m, f));
  KitLiftEnv env = {.load = e_load, .store = e_store, .host_addr = e_host};
  KitCgVal next;
  assert_int_equal(kit_arch_rv64.lift(&env, &b, kit_cg_param(f, 0), insns, n, &next), 0);
  last_branch = env.branch;
  kit_cg_ret(&b, next);
  assert_int_equal(kit_cg_verify(m, stderr), 0);
  KitInterp *ip = kit_interp_new(m, resolve, NULL, stderr);
  assert_non_null(ip);
  KitCgScalar arg = {.i = (uint64_t)(uintptr_t)cpu}, ret[2];
  assert_int_equal(kit_interp_call(ip, f, &arg, 1, ret), 0);
  assert_int_equal(ret[0].i, cpu->pc); /* returned and stored pc agree */
  kit_interp_free(ip);
  kit_cg_module_free(m);
  return ret[0].i;
}

static uint32_t I(uint32_t opc, unsigned rd, unsigned f3, unsigned rs1, int32_t imm) {
  return ((uint32_t)imm << 20) | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static uint32_t R(uint32_t opc, unsigned rd, unsigned f3, unsigned rs1, unsigned rs2, unsigned f7) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
#define ADDI(rd, rs1, imm) I(0x13, rd, 0, rs1, imm)

static void test_x0_and_fallthrough(void **st) {
  (void)st;
  KitRv64Cpu cpu = {.pc = GBASE};
  uint32_t w[] = {ADDI(0, 0, 5), ADDI(10, 0, 7), R(0x33, 11, 0, 10, 0, 0)};
  assert_int_equal(run(&cpu, w, 3), GBASE + 12);
  assert_int_equal(cpu.x[0], 0);
  assert_int_equal(cpu.x[10], 7);
  assert_int_equal(cpu.x[11], 7);
  assert_int_equal(cpu.instret, 3);
}

static void test_instret_csr(void **st) {
  (void)st;
  KitRv64Cpu cpu = {.pc = GBASE, .instret = 100};
  uint32_t w[] = {ADDI(5, 0, 1), ADDI(5, 5, 1), I(0x73, 10, 2, 0, 0xc02), ADDI(5, 5, 1)};
  run(&cpu, w, 4);
  assert_int_equal(cpu.x[10], 102); /* two instructions retired before the read */
  assert_int_equal(cpu.instret, 104);
  assert_int_equal(cpu.x[5], 3);
}

static void test_csr_legality(void **st) {
  (void)st;
  KitRv64Cpu cpu = {.pc = GBASE};
  uint32_t unknown[] = {ADDI(6, 0, 1), I(0x73, 10, 2, 0, 0x7c0)};
  last_exit = NULL;
  assert_int_equal(run(&cpu, unknown, 2), 0x5000);
  assert_string_equal(last_exit, "illegal");
  assert_int_equal(last_exit_pc, GBASE + 4);
  assert_int_equal(cpu.x[6], 1);
  cpu.pc = GBASE;
  uint32_t ro_write[] = {I(0x73, 10, 1, 6, 0xc00)}; /* csrrw a0, cycle, t1 */
  last_exit = NULL;
  run(&cpu, ro_write, 1);
  assert_string_equal(last_exit, "illegal");
  cpu.pc = GBASE;
  cpu.fcsr = 0;
  uint32_t frm[] = {I(0x73, 10, 5, 3, 0x002), I(0x73, 11, 2, 0, 0x003)}; /* csrrwi a0,frm,3; csrrs a1,fcsr,x0 */
  run(&cpu, frm, 2);
  assert_int_equal(cpu.x[10], 0);
  assert_int_equal(cpu.x[11], 3 << 5);
}

static void test_exits(void **st) {
  (void)st;
  KitRv64Cpu cpu = {.pc = GBASE};
  uint32_t ec[] = {ADDI(17, 0, 93), 0x00000073};
  assert_int_equal(run(&cpu, ec, 2), 0x5000);
  assert_string_equal(last_exit, "ecall");
  assert_int_equal(last_exit_pc, GBASE + 4);
  assert_int_equal(last_exit_next, GBASE + 8);
  assert_int_equal(cpu.x[17], 93);
  cpu.pc = GBASE;
  uint32_t eb[] = {0x00100073};
  run(&cpu, eb, 1);
  assert_string_equal(last_exit, "ebreak");
  cpu.pc = GBASE;
  uint32_t fi[] = {0x0000100f};
  run(&cpu, fi, 1);
  assert_string_equal(last_exit, "fence_i");
  assert_int_equal(last_exit_next, GBASE + 4); /* fence.i has no compressed form */
  cpu.pc = GBASE;
  uint32_t ill[] = {0x0000000b};
  run(&cpu, ill, 1);
  assert_string_equal(last_exit, "illegal");
  assert_int_equal(last_exit_pc, GBASE);
}

static void test_branch_ends_block(void **st) {
  (void)st;
  KitRv64Cpu cpu = {.pc = GBASE};
  /* beq x0,x0,+8 then addi a0,x0,1: the lifter stops at the branch */
  uint32_t w[] = {0x00000463, ADDI(10, 0, 1)};
  assert_int_equal(run(&cpu, w, 2), GBASE + 8);
  assert_int_equal(cpu.x[10], 0);
  assert_int_equal(cpu.instret, 1);
  /* the lifter reports the branch: the emulator's chained exits need it */
  assert_int_equal(last_branch.kind, KIT_LIFT_END_COND);
  assert_int_equal(last_branch.pred, KIT_CG_EQ);
  assert_int_equal(last_branch.target, GBASE + 8);
  assert_int_equal(last_branch.fall, GBASE + 4);
  cpu.pc = GBASE;
  cpu.x[5] = GBASE + 0x101;
  uint32_t jr[] = {I(0x67, 5, 0, 5, 3)}; /* jalr t0, 3(t0): rd = rs1, bit 0 cleared */
  assert_int_equal(run(&cpu, jr, 1), GBASE + 0x104);
  assert_int_equal(cpu.x[5], GBASE + 4);
  assert_int_equal(last_branch.kind, KIT_LIFT_END_INDIRECT);
  cpu.pc = GBASE;
  uint32_t add[] = {ADDI(10, 0, 1)};
  run(&cpu, add, 1);
  assert_int_equal(last_branch.kind, KIT_LIFT_END_FALL);
}

static void test_sc_without_reservation(void **st) {
  (void)st;
  KitRv64Cpu cpu = {.pc = GBASE};
  uint64_t v = 0x1111;
  memcpy(guest + 64, &v, 8);
  cpu.x[12] = GBASE + 64;
  cpu.x[11] = 0x2222;
  uint32_t sc[] = {R(0x2f, 10, 3, 12, 11, 0x03 << 2)}; /* sc.d a0, a1, (a2) */
  run(&cpu, sc, 1);
  assert_int_equal(cpu.x[10], 1);
  memcpy(&v, guest + 64, 8);
  assert_int_equal(v, 0x1111);
  cpu.pc = GBASE;
  uint32_t lrsc[] = {R(0x2f, 13, 3, 12, 0, 0x02 << 2), R(0x2f, 10, 3, 12, 11, 0x03 << 2)};
  run(&cpu, lrsc, 2);
  assert_int_equal(cpu.x[13], 0x1111);
  assert_int_equal(cpu.x[10], 0);
  memcpy(&v, guest + 64, 8);
  assert_int_equal(v, 0x2222);
  assert_int_equal(cpu.res_valid, 0);
}

static void test_nan_boxing_moves(void **st) {
  (void)st;
  KitRv64Cpu cpu = {.pc = GBASE};
  cpu.x[5] = 0x123456783f800000ull;
  /* fmv.w.x f1, t0; fmv.x.d a0, f1; fmv.x.w a1, f1 */
  uint32_t w[] = {R(0x53, 1, 0, 5, 0, 0x78), R(0x53, 10, 0, 1, 0, 0x71), R(0x53, 11, 0, 1, 0, 0x70)};
  run(&cpu, w, 3);
  assert_int_equal(cpu.f[1], 0xffffffff3f800000ull);
  assert_int_equal(cpu.x[10], 0xffffffff3f800000ull);
  assert_int_equal(cpu.x[11], 0x3f800000);
}

static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static void test_fp_helper(void **st) {
  (void)st;
  KitRv64Cpu cpu = {0};
  const uint32_t D = KIT_RV64_FP_DOUBLE;
  /* fcvt.w.s of a NaN: INT32_MAX and NV */
  assert_int_equal(kit_rv64_fp(&cpu, KIT_RV64_FP_CVT_W, RV_RTZ, 0xffffffff7fc00000ull, 0, 0), INT32_MAX);
  assert_int_equal(cpu.fcsr, RV_NV);
  cpu.fcsr = 0;
  /* a badly boxed f32 is the canonical NaN too */
  assert_int_equal(kit_rv64_fp(&cpu, KIT_RV64_FP_CVT_W, RV_RTZ, 0x3f800000ull, 0, 0), INT32_MAX);
  /* fcvt.wu.d of -1.0: 0, NV; of 1e10: UINT32_MAX sign-extended */
  cpu.fcsr = 0;
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_CVT_WU, RV_RNE, dbits(-1.0), 0, 0), 0);
  assert_int_equal(cpu.fcsr, RV_NV);
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_CVT_WU, RV_RNE, dbits(1e10), 0, 0), UINT64_MAX);
  /* rounding 2.5 in each static mode, and the dynamic mode from frm */
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_CVT_L, RV_RNE, dbits(2.5), 0, 0), 2);
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_CVT_L, RV_RMM, dbits(2.5), 0, 0), 3);
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_CVT_L, RV_RDN, dbits(-2.5), 0, 0), (uint64_t)-3);
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_CVT_L, RV_RUP, dbits(2.1), 0, 0), 3);
  cpu.fcsr = RV_RTZ << 5;
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_CVT_L, RV_DYN, dbits(-2.9), 0, 0), (uint64_t)-2);
  assert_int_equal(cpu.fcsr, (RV_RTZ << 5) | RV_NX);
  /* fmin with a signaling NaN: the other operand, NV; both NaN: canonical */
  cpu.fcsr = 0;
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_MIN, 0, 0x7ff4000000000000ull, dbits(1.0), 0), dbits(1.0));
  assert_int_equal(cpu.fcsr, RV_NV);
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_MAX, 0, 0xfff8000000000001ull, 0x7ff8000000000002ull, 0),
                   0x7ff8000000000000ull);
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_MIN, 0, dbits(0.0), dbits(-0.0), 0), dbits(-0.0));
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_MAX, 0, dbits(-0.0), dbits(0.0), 0), dbits(0.0));
  /* arithmetic NaN results are canonical, f32 results boxed */
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_SQRT, RV_RNE, dbits(-1.0), 0, 0), 0x7ff8000000000000ull);
  assert_int_equal(kit_rv64_fp(&cpu, KIT_RV64_FP_ADD, RV_RNE, 0xffffffff3f800000ull, 0xffffffff3f800000ull, 0),
                   0xffffffff40000000ull);
  /* fclass */
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_CLASS, 0, dbits(-INFINITY), 0, 0), 1);
  assert_int_equal(kit_rv64_fp(&cpu, D | KIT_RV64_FP_CLASS, 0, 0x7ff4000000000000ull, 0, 0), 1 << 8);
  assert_int_equal(kit_rv64_fp(&cpu, KIT_RV64_FP_CLASS, 0, 0x3f800000ull, 0, 0), 1 << 9);
  /* rounding of 1/3 differs between rdn and rup */
  uint64_t dn = kit_rv64_fp(&cpu, D | KIT_RV64_FP_DIV, RV_RDN, dbits(1.0), dbits(3.0), 0);
  uint64_t up = kit_rv64_fp(&cpu, D | KIT_RV64_FP_DIV, RV_RUP, dbits(1.0), dbits(3.0), 0);
  assert_int_equal(up, dn + 1);
}

static void test_arch_regs(void **st) {
  (void)st;
  KitRv64Cpu cpu = {0};
  kit_arch_rv64.set_reg(&cpu, 0, 99);
  kit_arch_rv64.set_reg(&cpu, 10, 42);
  kit_arch_rv64.set_reg(&cpu, 32 + 3, 0x1234);
  kit_arch_rv64.set_reg(&cpu, KIT_RV64_REG_FCSR, 0x1e5);
  kit_arch_rv64.set_pc(&cpu, 0x4000);
  assert_int_equal(kit_arch_rv64.get_reg(&cpu, 0), 0);
  assert_int_equal(kit_arch_rv64.get_reg(&cpu, 10), 42);
  assert_int_equal(cpu.f[3], 0x1234);
  assert_int_equal(cpu.fcsr, 0xe5);
  assert_int_equal(kit_arch_rv64.get_pc(&cpu), 0x4000);
  assert_int_equal(offsetof(KitRv64Cpu, pc), 0);
  assert_int_equal(kit_arch_rv64.cpu_state_size, sizeof(KitRv64Cpu));
  assert_string_equal(kit_arch_rv64.name, "riscv64");
  assert_int_equal(kit_arch_rv64.get_reg(&cpu, KIT_RV64_REG_PC), 0x4000);
  /* the descriptor names every register get_reg knows, by its number */
  assert_int_equal(kit_arch_rv64.nregs, KIT_RV64_NREGS);
  for (unsigned i = 0; i < kit_arch_rv64.nregs; i++) assert_int_equal(kit_arch_rv64.regs[i].num, i);
  assert_string_equal(kit_arch_rv64.regs[kit_arch_rv64.cc.sp].name, "sp");
  assert_string_equal(kit_arch_rv64.regs[kit_arch_rv64.cc.args[0]].name, "a0");
  assert_string_equal(kit_arch_rv64.regs[kit_arch_rv64.cc.fp].name, "fp");
  assert_int_equal(kit_arch_rv64.regs[KIT_RV64_REG_FCSR].group, KIT_ARCH_REG_CSR);
}

/* the Linux ABI: a7 and a0..a5 in, a0 out; a signal frame restores what it saved */
static void test_linux_abi(void **st) {
  (void)st;
  KitRv64Cpu cpu = {.pc = 0x1000};
  for (unsigned r = 1; r < 32; r++) cpu.x[r] = 0x100 + r;
  for (unsigned r = 0; r < 32; r++) cpu.f[r] = 0x200 + r;
  cpu.fcsr = 0x45;
  uint64_t nr, a[6];
  kit_arch_rv64.syscall_args(&cpu, &nr, a);
  assert_int_equal(nr, 0x100 + 17);
  assert_int_equal(a[0], 0x100 + 10);
  assert_int_equal(a[5], 0x100 + 15);
  static uint8_t frame[KIT_RV64_SIGFRAME_SIZE];
  KitRv64Cpu saved = cpu;
  KitArchSignal sig = {.signo = 10, .code = -6, .mask = 0x55, .handler = 0x2000, .restorer = 0x3000};
  kit_arch_rv64.sigframe_build(&cpu, frame, 0x7000, &sig);
  assert_int_equal(cpu.pc, 0x2000);
  assert_int_equal(cpu.x[1], 0x3000);
  assert_int_equal(cpu.x[2], 0x7000);
  assert_int_equal(cpu.x[10], 10);
  assert_int_equal(cpu.x[11], 0x7000);       /* siginfo first */
  assert_int_equal(cpu.x[12], 0x7000 + 128); /* then the ucontext */
  for (unsigned r = 1; r < 32; r++) cpu.x[r] = 0;
  cpu.fcsr = 0;
  uint64_t mask;
  assert_int_equal(kit_arch_rv64.sigframe_restore(&cpu, frame, &mask), 0x1000);
  assert_int_equal(mask, 0x55);
  assert_memory_equal(cpu.x, saved.x, sizeof cpu.x);
  assert_memory_equal(cpu.f, saved.f, sizeof cpu.f);
  assert_int_equal(cpu.fcsr, 0x45);
  kit_arch_rv64.syscall_result(&cpu, -38);
  assert_int_equal(cpu.x[10], (uint64_t)-38);
  /* the trampoline decodes as li a7, 139; ecall */
  KitDecodedInsn in;
  assert_int_equal(kit_arch_rv64.decode(kit_arch_rv64.sigreturn_code, 4, 0, &in), 4);
  assert_int_equal(in.rd, 17);
  assert_int_equal(in.imm, 139);
  assert_int_equal(kit_arch_rv64.decode(kit_arch_rv64.sigreturn_code + 4, 4, 4, &in), 4);
  assert_true(in.flags & KIT_DECODE_SYSCALL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_x0_and_fallthrough), cmocka_unit_test(test_instret_csr),
      cmocka_unit_test(test_csr_legality),       cmocka_unit_test(test_exits),
      cmocka_unit_test(test_branch_ends_block),  cmocka_unit_test(test_sc_without_reservation),
      cmocka_unit_test(test_nan_boxing_moves),   cmocka_unit_test(test_fp_helper),
      cmocka_unit_test(test_arch_regs),          cmocka_unit_test(test_linux_abi),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
