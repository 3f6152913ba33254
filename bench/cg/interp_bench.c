/* bench/cg/interp_bench.c — CG interpreter throughput: simple ops per second
 * on a loop kernel (add/xor/compare/branch), host->interpreter calls per
 * second on a tiny emulator-style block function, interpreted calls per
 * second on recursive fib. Prints numbers; asserts nothing about time. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kit/cg_exec.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time too: the machine is shared, and wall time then measures the load */
static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* i64 kernel(i64 n): for (i = 0; i < n; i++) acc = (acc + i) ^ 0x5555; */
static KitCgFunc *build_kernel(KitCgModule *m) {
  KitCgType p[1] = {KIT_CG_I64};
  KitCgFunc *f = kit_cg_func_declare(m, "kernel", KIT_CG_I64, p, 1, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_block_new(m, f);
  KitCgBlkId loop = kit_cg_block_new(m, f), done = kit_cg_block_new(m, f);
  KitCgVal zero = kit_cg_iconst(&b, KIT_CG_I64, 0), one = kit_cg_iconst(&b, KIT_CG_I64, 1);
  kit_cg_br(&b, loop);
  kit_cg_builder_at(&b, loop);
  KitCgVal i = kit_cg_phi(&b, KIT_CG_I64)->id, acc = kit_cg_phi(&b, KIT_CG_I64)->id;
  KitCgVal sum = kit_cg_binop(&b, KIT_CG_OP_ADD, acc, i);
  KitCgVal acc2 = kit_cg_binop(&b, KIT_CG_OP_XOR, sum, kit_cg_iconst(&b, KIT_CG_I64, 0x5555));
  KitCgVal i2 = kit_cg_binop(&b, KIT_CG_OP_ADD, i, one);
  kit_cg_condbr(&b, kit_cg_cmp(&b, KIT_CG_SLT, i2, 1), loop, done);
  kit_cg_phi_add(m, kit_cg_def(f, i), zero, 0);
  kit_cg_phi_add(m, kit_cg_def(f, i), i2, loop);
  kit_cg_phi_add(m, kit_cg_def(f, acc), zero, 0);
  kit_cg_phi_add(m, kit_cg_def(f, acc), acc2, loop);
  kit_cg_builder_at(&b, done);
  kit_cg_ret(&b, acc2);
  return f;
}

/* i64 block(ptr cpu): cpu->pc += 4; return cpu->pc — the shape of a tier-0
 * guest block the emulator calls once per executed block */
static KitCgFunc *build_block(KitCgModule *m) {
  KitCgType p[1] = {KIT_CG_PTR};
  KitCgFunc *f = kit_cg_func_declare(m, "block", KIT_CG_I64, p, 1, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_block_new(m, f);
  KitCgVal pc = kit_cg_load(&b, KIT_CG_I64, 1, 8, KIT_CG_INTERNAL);
  KitCgVal n = kit_cg_binop(&b, KIT_CG_OP_ADD, pc, kit_cg_iconst(&b, KIT_CG_I64, 4));
  kit_cg_store(&b, n, 1, 8, KIT_CG_INTERNAL);
  kit_cg_ret(&b, n);
  return f;
}

/* i64 fib(i64 n) = n < 2 ? n : fib(n-1) + fib(n-2) */
static KitCgFunc *build_fib(KitCgModule *m) {
  KitCgType p[1] = {KIT_CG_I64};
  KitCgFunc *f = kit_cg_func_declare(m, "fib", KIT_CG_I64, p, 1, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_block_new(m, f);
  KitCgBlkId base = kit_cg_block_new(m, f), rec = kit_cg_block_new(m, f);
  KitCgVal two = kit_cg_iconst(&b, KIT_CG_I64, 2), one = kit_cg_iconst(&b, KIT_CG_I64, 1);
  kit_cg_condbr(&b, kit_cg_cmp(&b, KIT_CG_SLT, 1, two), base, rec);
  kit_cg_builder_at(&b, base);
  kit_cg_ret(&b, 1);
  kit_cg_builder_at(&b, rec);
  KitCgVal a1 = kit_cg_binop(&b, KIT_CG_OP_SUB, 1, one), a2 = kit_cg_binop(&b, KIT_CG_OP_SUB, 1, two);
  KitCgVal r1 = kit_cg_call(&b, f->sym, KIT_CG_I64, &a1, 1), r2 = kit_cg_call(&b, f->sym, KIT_CG_I64, &a2, 1);
  kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_ADD, r1, r2));
  return f;
}

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000000ull;
  KitCgModule *m = kit_cg_module_new("bench");
  KitCgFunc *kernel = build_kernel(m), *block = build_block(m), *fib = build_fib(m);
  KitInterp *ip = kit_interp_new(m, NULL, NULL, stderr);
  if (!ip) return 1;
  KitCgScalar a, r[2];

  a.i = 1000; /* decode outside the timed region */
  kit_interp_call(ip, kernel, &a, 1, r);
  uint64_t ops0 = kit_interp_ops(ip);
  double t0 = now(), c0 = cpu();
  a.i = n;
  if (kit_interp_call(ip, kernel, &a, 1, r)) return 1;
  double t1 = now(), c1 = cpu();
  uint64_t ops = kit_interp_ops(ip) - ops0;
  printf("loop kernel: %llu iterations, %llu ops in %.3f s: %.1f M ops/s wall, %.1f M ops/s cpu (result %llx)\n",
         (unsigned long long)n, (unsigned long long)ops, t1 - t0, (double)ops / (t1 - t0) / 1e6,
         (double)ops / (c1 - c0) / 1e6, (unsigned long long)r[0].i);

  uint64_t calls = n / 20, state[4] = {0x10000, 0, 0, 0};
  a.i = (uint64_t)(uintptr_t)state;
  kit_interp_call(ip, block, &a, 1, r);
  t0 = now();
  c0 = cpu();
  for (uint64_t k = 0; k < calls; k++)
    if (kit_interp_call(ip, block, &a, 1, r)) return 1;
  t1 = now();
  c1 = cpu();
  printf("block calls: %llu kit_interp_call in %.3f s: %.1f M calls/s wall, %.0f ns/call cpu (pc %llx)\n",
         (unsigned long long)calls, t1 - t0, (double)calls / (t1 - t0) / 1e6, (c1 - c0) / (double)calls * 1e9,
         (unsigned long long)state[0]);

  a.i = 27;
  t0 = now();
  if (kit_interp_call(ip, fib, &a, 1, r)) return 1;
  t1 = now();
  double ncalls = 2.0 * (double)r[0].i * 1.618 - 1; /* ~ calls of naive fib */
  printf("fib(27) = %llu in %.3f s: ~%.1f M interpreted calls/s\n", (unsigned long long)r[0].i, t1 - t0,
         ncalls / (t1 - t0) / 1e6);
  kit_interp_free(ip);
  kit_cg_module_free(m);
  return 0;
}
