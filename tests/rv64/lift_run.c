/* tests/rv64/lift_run.c — a minimal riscv64 runner for the lifter tests:
 * loads a flat guest image into a host buffer, then repeatedly decodes a
 * block, lifts it into CG, verifies it and runs it on the CG interpreter.
 * ecall supports write(64) and exit(93/94), enough for test programs that
 * print their registers, so the output can be compared with qemu-riscv64.
 * With --jit the blocks run through the LLVM ORC JIT instead; with --one
 * each instruction is lifted by its own lift call into the block (the way
 * the emulator lifts when a tool observes every retired instruction).
 *   rv64-lift-run IMAGE BASE ENTRY [--print-cg] [--jit] [--one] */
#include "rv64.h"
#include "kit/cg_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEM_SIZE (4u << 20)
#define MAX_BLOCK 64

static uint8_t *mem;
static uint64_t mem_base;
static int exit_code = -1;
static bool print_cg, use_jit, one_by_one;
#ifdef KIT_RV64_WITH_JIT
static KitJit *jit;
#endif

static uint8_t *host_of(uint64_t a, uint64_t n) {
  if (a < mem_base || a - mem_base + n > MEM_SIZE) {
    fprintf(stderr, "rv64-lift-run: guest address 0x%llx outside the test window\n", (unsigned long long)a);
    exit(3);
  }
  return mem + (a - mem_base);
}

/* ---- the emulator side the tests stand in for ---- */

uint64_t kit_emu_syscall_insn(KitRv64Cpu *cpu, uint64_t pc, uint64_t next);
uint64_t kit_emu_syscall_insn(KitRv64Cpu *cpu, uint64_t pc, uint64_t next) {
  (void)pc;
  uint64_t nr = cpu->x[17];
  if (nr == 64) {
    fwrite(host_of(cpu->x[11], cpu->x[12]), 1, cpu->x[12], stdout);
    cpu->x[10] = cpu->x[12];
  } else if (nr == 93 || nr == 94) {
    exit_code = (int)cpu->x[10];
  } else {
    cpu->x[10] = (uint64_t)-38; /* ENOSYS */
  }
  return next;
}

static uint64_t stop(const char *what, uint64_t pc) {
  fflush(stdout);
  fprintf(stderr, "rv64-lift-run: %s at 0x%llx\n", what, (unsigned long long)pc);
  exit_code = 128;
  return pc;
}
uint64_t kit_emu_breakpoint(KitRv64Cpu *cpu, uint64_t pc, uint64_t next);
uint64_t kit_emu_breakpoint(KitRv64Cpu *cpu, uint64_t pc, uint64_t next) { (void)cpu, (void)next; return stop("ebreak", pc); }
uint64_t kit_emu_illegal(KitRv64Cpu *cpu, uint64_t pc, uint64_t next);
uint64_t kit_emu_illegal(KitRv64Cpu *cpu, uint64_t pc, uint64_t next) {
  (void)cpu, (void)next;
  return stop("illegal instruction", pc);
}
uint64_t kit_emu_icache_flush(KitRv64Cpu *cpu, uint64_t pc, uint64_t next);
uint64_t kit_emu_icache_flush(KitRv64Cpu *cpu, uint64_t pc, uint64_t next) {
  (void)cpu, (void)pc;
  return next;
}

static void *resolve(void *user, const char *name) {
  (void)user;
  static const struct { const char *n; void *p; } syms[] = {
      {"kit_emu_syscall_insn", (void *)kit_emu_syscall_insn}, {"kit_emu_breakpoint", (void *)kit_emu_breakpoint},
      {"kit_emu_illegal", (void *)kit_emu_illegal},           {"kit_emu_icache_flush", (void *)kit_emu_icache_flush},
      {"kit_rv64_fp", (void *)kit_rv64_fp},         {"kit_rv64_csr", (void *)kit_rv64_csr},
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
    if (!strcmp(name, syms[i].n)) return syms[i].p;
  return NULL;
}

/* ---- the memory seam: guest address + (host buffer - guest base) ---- */

static KitCgVal host_ptr(KitCgBuilder *b, KitCgVal addr) {
  KitCgVal delta = kit_cg_iconst(b, KIT_CG_I64, (uint64_t)(uintptr_t)mem - mem_base);
  KitCgVal h = kit_cg_binop(b, KIT_CG_OP_ADD, addr, delta);
  return kit_cg_conv(b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, h);
}

static KitCgVal env_load(KitLiftEnv *env, KitCgBuilder *b, KitCgType t, KitCgVal addr, uint64_t pc) {
  (void)env, (void)pc;
  return kit_cg_load(b, t, host_ptr(b, addr), 1, KIT_CG_PROGRAM);
}

static void env_store(KitLiftEnv *env, KitCgBuilder *b, KitCgType t, KitCgVal v, KitCgVal addr, uint64_t pc) {
  (void)env, (void)pc, (void)t;
  kit_cg_store(b, v, host_ptr(b, addr), 1, KIT_CG_PROGRAM);
}

static KitCgVal env_host_addr(KitLiftEnv *env, KitCgBuilder *b, KitCgVal addr, uint32_t size, bool w, uint64_t pc) {
  (void)env, (void)size, (void)w, (void)pc;
  return host_ptr(b, addr);
}

/* ---- translation cache: one module + interpreter per block ---- */

typedef struct Block {
  uint64_t pc;
  KitCgModule *m;
  KitCgFunc *f;
  KitInterp *ip;
} Block;
static Block *blocks;
static size_t nblocks, cap;

static Block *translate(uint64_t pc) {
  for (size_t i = 0; i < nblocks; i++)
    if (blocks[i].pc == pc) return &blocks[i];
  KitDecodedInsn insns[MAX_BLOCK];
  unsigned n = 0;
  uint64_t at = pc;
  while (n < MAX_BLOCK) {
    KitDecodedInsn *d = &insns[n++];
    uint64_t avail = mem_base + MEM_SIZE - at;
    kit_rv64_decode(host_of(at, 2), avail < 4 ? avail : 4, at, d);
    if (d->flags & KIT_DECODE_TERMINATOR) break;
    at += d->len;
  }
  char name[64];
  snprintf(name, sizeof name, "block_%llx", (unsigned long long)pc);
  KitCgModule *m = kit_cg_module_new(name);
  KitCgType pt = KIT_CG_PTR;
  KitCgFunc *f = kit_cg_func_declare(m, name, KIT_CG_I64, &pt, 1, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_builder_at(&b, kit_cg_block_new(m, f));
  KitLiftEnv env = {.load = env_load, .store = env_store, .host_addr = env_host_addr};
  KitCgVal next;
  int rc = 0;
  if (one_by_one)
    for (unsigned i = 0; i < n && !rc; i++) rc = kit_rv64_lift(&env, &b, kit_cg_param(f, 0), &insns[i], 1, &next);
  else
    rc = kit_rv64_lift(&env, &b, kit_cg_param(f, 0), insns, n, &next);
  if (rc) {
    fprintf(stderr, "rv64-lift-run: cannot lift the block at 0x%llx\n", (unsigned long long)pc);
    exit(2);
  }
  kit_cg_ret(&b, next);
  if (print_cg) kit_cg_print(m, stderr);
  if (kit_cg_verify(m, stderr)) {
    kit_cg_print(m, stderr);
    exit(2);
  }
  KitInterp *ip = NULL;
  if (use_jit) {
#ifdef KIT_RV64_WITH_JIT
    if (kit_jit_add(jit, m, stderr)) exit(2);
#endif
  } else if (!(ip = kit_interp_new(m, resolve, NULL, stderr))) {
    exit(2);
  }
  if (nblocks == cap) blocks = realloc(blocks, (cap = cap ? 2 * cap : 64) * sizeof *blocks);
  blocks[nblocks] = (Block){pc, m, f, ip};
  return &blocks[nblocks++];
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: rv64-lift-run IMAGE BASE ENTRY [--print-cg] [--jit] [--one]\n");
    return 2;
  }
  for (int i = 4; i < argc; i++) {
    if (!strcmp(argv[i], "--print-cg")) print_cg = true;
    else if (!strcmp(argv[i], "--jit")) use_jit = true;
    else if (!strcmp(argv[i], "--one")) one_by_one = true;
  }
#ifdef KIT_RV64_WITH_JIT
  if (use_jit && !(jit = kit_jit_new(0, resolve, NULL, stderr))) return 2;
#else
  if (use_jit) {
    fprintf(stderr, "rv64-lift-run: built without the LLVM backend\n");
    return 2;
  }
#endif
  mem = calloc(1, MEM_SIZE);
  mem_base = strtoull(argv[2], NULL, 0);
  FILE *fp = fopen(argv[1], "rb");
  if (!fp) {
    perror(argv[1]);
    return 2;
  }
  size_t got = fread(mem, 1, MEM_SIZE, fp);
  fclose(fp);
  if (!got) return 2;
  KitRv64Cpu cpu = {.pc = strtoull(argv[3], NULL, 0)};
  cpu.x[2] = mem_base + MEM_SIZE - 4096; /* a stack at the top of the window, as a kernel would give */
  for (unsigned long steps = 0; exit_code < 0; steps++) {
    if (steps > 10000000) {
      fprintf(stderr, "rv64-lift-run: too many blocks\n");
      return 4;
    }
    Block *bl = translate(cpu.pc);
    KitCgScalar arg = {.i = (uint64_t)(uintptr_t)&cpu}, ret[2];
    int rc;
#ifdef KIT_RV64_WITH_JIT
    if (use_jit) rc = kit_jit_call(jit, bl->m, bl->f, &arg, 1, ret);
    else
#endif
      rc = kit_interp_call(bl->ip, bl->f, &arg, 1, ret);
    if (rc) {
      fprintf(stderr, "rv64-lift-run: the block at 0x%llx trapped\n", (unsigned long long)bl->pc);
      return 2;
    }
    if (ret[0].i != cpu.pc) {
      fprintf(stderr, "rv64-lift-run: block returned 0x%llx but stored pc 0x%llx\n", (unsigned long long)ret[0].i,
              (unsigned long long)cpu.pc);
      return 2;
    }
  }
  fflush(stdout);
  return exit_code;
}
