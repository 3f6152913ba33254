/* bench/cg/jit_bench.c — LLVM JIT latency for batches of small functions
 * shaped like lifted guest blocks (~30 ops: CPU-state loads, arithmetic, a
 * branch, stores) at opt 0 (CodeGenOpt None), opt 1 and 2 (also with the fast
 * code generator, KIT_JIT_FAST_CODEGEN), three ways at opt 0: one module
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

/* i64 region(ptr cpu, i64 n): a hot loop of lifted code, n iterations of
 * eight register-file instructions x[d] = x[a] op x[b], every operand loaded
 * from and every result stored to the CPU state as a lifter emits them; the
 * optimiser can keep the registers in host registers across the loop. */
static KitCgFunc *add_region(KitCgModule *m) {
  KitCgType ps[2] = {KIT_CG_PTR, KIT_CG_I64};
  KitCgFunc *f = kit_cg_func_declare(m, "region", KIT_CG_I64, ps, 2, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  KitCgBlkId entry = kit_cg_block_new(m, f), loop = kit_cg_block_new(m, f), done = kit_cg_block_new(m, f);
  kit_cg_builder_at(&b, entry);
  KitCgVal cpu = kit_cg_param(f, 0), n = kit_cg_param(f, 1), zero = kit_cg_iconst(&b, KIT_CG_I64, 0);
  kit_cg_br(&b, loop);
  kit_cg_builder_at(&b, loop);
  KitCgVal iv = kit_cg_phi(&b, KIT_CG_I64)->id; /* the inst moves as the block grows */
  static const KitCgOp ops[8] = {KIT_CG_OP_ADD, KIT_CG_OP_XOR, KIT_CG_OP_SUB, KIT_CG_OP_OR,
                                 KIT_CG_OP_ADD, KIT_CG_OP_AND, KIT_CG_OP_MUL, KIT_CG_OP_XOR};
  for (unsigned k = 0; k < 8; k++) {
    KitCgVal pa = kit_cg_ptradd(&b, cpu, kit_cg_iconst(&b, KIT_CG_I64, 8 * ((3 * k) % 8)));
    KitCgVal pb = kit_cg_ptradd(&b, cpu, kit_cg_iconst(&b, KIT_CG_I64, 8 * ((5 * k + 1) % 8)));
    KitCgVal pd = kit_cg_ptradd(&b, cpu, kit_cg_iconst(&b, KIT_CG_I64, 8 * ((7 * k + 2) % 8)));
    KitCgVal v = kit_cg_binop(&b, ops[k], kit_cg_load(&b, KIT_CG_I64, pa, 8, KIT_CG_INTERNAL),
                              kit_cg_load(&b, KIT_CG_I64, pb, 8, KIT_CG_INTERNAL));
    kit_cg_store(&b, v, pd, 8, KIT_CG_INTERNAL);
  }
  KitCgVal next = kit_cg_binop(&b, KIT_CG_OP_ADD, iv, kit_cg_iconst(&b, KIT_CG_I64, 1));
  kit_cg_phi_add(m, kit_cg_def(f, iv), zero, entry);
  kit_cg_phi_add(m, kit_cg_def(f, iv), next, loop);
  kit_cg_condbr(&b, kit_cg_cmp(&b, KIT_CG_ULT, next, n), loop, done);
  kit_cg_builder_at(&b, done);
  kit_cg_ret(&b, kit_cg_load(&b, KIT_CG_I64, cpu, 8, KIT_CG_INTERNAL));
  return f;
}

/* ns per iteration of region's loop compiled at opt */
static double region_speed(int opt) {
  KitCgModule *m = kit_cg_module_new("region");
  add_region(m);
  KitJit *j = kit_jit_new(opt, NULL, NULL, stderr);
  if (!j || kit_jit_add(j, m, stderr)) exit(1);
  int64_t (*fn)(uint64_t *, int64_t) = (int64_t(*)(uint64_t *, int64_t))kit_jit_lookup(j, "region");
  if (!fn) exit(1);
  uint64_t cpu[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const int64_t iters = 20000000;
  double best = 1e30;
  for (int rep = 0; rep < 3; rep++) { /* the best of three: neighbours only ever slow us down */
    double t0 = now_us();
    fn(cpu, iters);
    double t = now_us() - t0;
    if (t < best) best = t;
  }
  kit_jit_free(j);
  kit_cg_module_free(m);
  return best * 1e3 / (double)iters;
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
  static const int opts[] = {0, 1 | KIT_JIT_FAST_CODEGEN, 2 | KIT_JIT_FAST_CODEGEN, 1, 2};
  for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++)
    for (Mode mode = ONE_BY_ONE; mode <= ONE_MODULE; mode++) {
      if (o > 0 && mode == ONE_BY_ONE) continue; /* the batching tradeoff shows at opt 0 */
      double share, us = run(opts[o], n, mode, &share);
      char opt[8];
      snprintf(opt, sizeof opt, "%d%s", opts[o] & 3, opts[o] & KIT_JIT_FAST_CODEGEN ? "f" : "");
      printf("%-24s %4s %12.1f %9.0f%%\n", mode_names[mode], opt, us, 100 * share);
    }
  printf("(opt Nf: the IR passes of -ON with the fast code generator, KIT_JIT_FAST_CODEGEN)\n");
  printf("\ncode speed: a lifted loop of 8 register-file instructions (24 CPU-state accesses)\n");
  printf("%-24s %4s %12s\n", "", "opt", "ns/iter");
  for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
    char opt[8];
    snprintf(opt, sizeof opt, "%d%s", opts[o] & 3, opts[o] & KIT_JIT_FAST_CODEGEN ? "f" : "");
    printf("%-24s %4s %12.2f\n", "region", opt, region_speed(opts[o]));
  }
  printf("(\"in add\": share of the CPU time spent in kit_jit_add, i.e. CG->LLVM lowering; the\n"
         " rest is linking the batch, LLVM's optimisation and code generation at the first lookup)\n");
  return 0;
}
