/* bench/cg/jit_bench.c — LLVM JIT latency for batches of small functions
 * shaped like lifted guest blocks (~30 ops: CPU-state loads, arithmetic, a
 * branch, stores) at opt 0 (CodeGenOpt None) and opt 2, three ways: one module
 * per function looked up right after its add (every module compiled alone),
 * one module per function all added before the first lookup (the JIT links
 * them into one batch), and one module holding all. Prints µs per function.
 * usage: jit_bench [NFUNCS] */
#include "kit/cg_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* CPU time of this process: the machine is shared, and wall time would
 * measure the neighbours (LLJIT compiles on the calling thread) */
static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* i64 block_k(ptr cpu): x[a] = (x[b] + k) ^ (x[c] << 3) ...; returns the next pc */
static void add_block(KitCgModule *m, unsigned k) {
  char name[32];
  snprintf(name, sizeof name, "block_%u", k);
  KitCgType pt = KIT_CG_PTR;
  KitCgFunc *f = kit_cg_func_declare(m, name, KIT_CG_I64, &pt, 1, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  KitCgBlkId entry = kit_cg_block_new(m, f), taken = kit_cg_block_new(m, f), fall = kit_cg_block_new(m, f);
  kit_cg_builder_at(&b, entry);
  KitCgVal cpu = kit_cg_param(f, 0);
  KitCgVal regs[4];
  for (unsigned i = 0; i < 4; i++) {
    KitCgVal off = kit_cg_iconst(&b, KIT_CG_I64, 8 * ((k + 7 * i) % 31 + 1));
    regs[i] = kit_cg_load(&b, KIT_CG_I64, kit_cg_ptradd(&b, cpu, off), 8, KIT_CG_INTERNAL);
  }
  KitCgVal v = kit_cg_binop(&b, KIT_CG_OP_ADD, regs[0], kit_cg_iconst(&b, KIT_CG_I64, k));
  v = kit_cg_binop(&b, KIT_CG_OP_XOR, v, kit_cg_binop(&b, KIT_CG_OP_SHL, regs[1], kit_cg_iconst(&b, KIT_CG_I64, 3)));
  v = kit_cg_binop(&b, KIT_CG_OP_MUL, v, regs[2]);
  KitCgVal w = kit_cg_binop(&b, KIT_CG_OP_SUB, regs[3], v);
  w = kit_cg_binop(&b, KIT_CG_OP_ASHR, w, kit_cg_iconst(&b, KIT_CG_I64, 2));
  KitCgVal o1 = kit_cg_iconst(&b, KIT_CG_I64, 8 * (k % 31 + 1));
  kit_cg_store(&b, v, kit_cg_ptradd(&b, cpu, o1), 8, KIT_CG_INTERNAL);
  KitCgVal o2 = kit_cg_iconst(&b, KIT_CG_I64, 8 * ((k + 3) % 31 + 1));
  kit_cg_store(&b, w, kit_cg_ptradd(&b, cpu, o2), 8, KIT_CG_INTERNAL);
  kit_cg_condbr(&b, kit_cg_cmp(&b, KIT_CG_SLT, v, w), taken, fall);
  kit_cg_builder_at(&b, taken);
  kit_cg_ret(&b, kit_cg_iconst(&b, KIT_CG_I64, 0x10000 + 4 * k));
  kit_cg_builder_at(&b, fall);
  kit_cg_ret(&b, kit_cg_iconst(&b, KIT_CG_I64, 0x20000 + 4 * k));
}

typedef enum { ONE_BY_ONE, BATCHED_ADDS, ONE_MODULE } Mode;
static const char *const mode_names[] = {"module/fn, add+lookup", "module/fn, adds first", "one module for all"};

static void lookup_all(KitJit *j, unsigned from, unsigned n) {
  for (unsigned k = from; k < from + n; k++) {
    char name[32];
    snprintf(name, sizeof name, "block_%u", k);
    if (!kit_jit_lookup(j, name)) {
      fprintf(stderr, "jit_bench: %s not found\n", name);
      exit(1);
    }
  }
}

/* Returns µs per function: add + lookup (the lookup materializes). */
static double run(int opt, unsigned n, Mode mode, double *lower_share) {
  bool per_function = mode != ONE_MODULE;
  KitJit *j = kit_jit_new(opt, NULL, NULL, stderr);
  if (!j) exit(1);
  unsigned nmods = per_function ? n : 1, per = per_function ? 1 : n;
  KitCgModule **mods = calloc(nmods, sizeof *mods);
  for (unsigned i = 0; i < nmods; i++) {
    mods[i] = kit_cg_module_new("bench");
    for (unsigned k = 0; k < per; k++) add_block(mods[i], i * per + k);
  }
  double t0 = now_us(), t_add = 0;
  for (unsigned i = 0; i < nmods; i++) {
    double a = now_us();
    if (kit_jit_add(j, mods[i], stderr)) exit(1);
    t_add += now_us() - a;
    if (mode != BATCHED_ADDS) lookup_all(j, i * per, per);
  }
  if (mode == BATCHED_ADDS) lookup_all(j, 0, n);
  double total = now_us() - t0;
  /* sanity: the code runs */
  uint64_t cpu[33] = {0};
  int64_t (*fn)(uint64_t *) = (int64_t(*)(uint64_t *))kit_jit_lookup(j, "block_0");
  if (fn(cpu) != 0x20000) fprintf(stderr, "jit_bench: block_0 returned a wrong pc\n");
  for (unsigned i = 0; i < nmods; i++) kit_cg_module_free(mods[i]);
  free(mods);
  kit_jit_free(j);
  *lower_share = t_add / total;
  return total / n;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100;
  if (n == 0 || n > 100000) {
    fprintf(stderr, "usage: jit_bench [NFUNCS 1..100000]\n");
    return 1;
  }
  printf("LLVM JIT latency, %u functions of ~30 CG ops each\n", n);
  printf("%-24s %4s %12s %10s\n", "batch", "opt", "cpu us/func", "in add");
  for (int opt = 0; opt <= 2; opt += 2)
    for (Mode mode = ONE_BY_ONE; mode <= ONE_MODULE; mode++) {
      double share, us = run(opt, n, mode, &share);
      printf("%-24s %4d %12.1f %9.0f%%\n", mode_names[mode], opt, us, 100 * share);
    }
  printf("(\"in add\": share of the CPU time spent in kit_jit_add, i.e. CG->LLVM lowering; the\n"
         " rest is linking the batch, LLVM's optimisation and code generation at the first lookup)\n");
  return 0;
}
