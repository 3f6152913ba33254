/* tests/interp/test_interp_calls.c — the interpreter beyond single ops:
 * memory ops, atomics, control flow (switch, phi copies), calls (deep
 * recursion, indirect, two results, byval), the host boundary (qsort
 * callbacks, printf-style varargs), interpreted variadics, globals, ctors. */
#include "helpers.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>

#define T_I1 KIT_CG_I1
#define T_I8 KIT_CG_I8
#define T_I16 KIT_CG_I16
#define T_I32 KIT_CG_I32
#define T_I64 KIT_CG_I64
#define T_F64 KIT_CG_F64
#define T_F80 KIT_CG_F80
#define T_PTR KIT_CG_PTR

static KitCgFunc *func(KitCgModule *m, KitCgBuilder *b, const char *name, KitCgType ret, const KitCgType *ps,
                       uint32_t n, bool variadic) {
  KitCgFunc *f = kit_cg_func_declare(m, name, ret, ps, n, variadic);
  kit_cg_builder_init(b, m, f);
  kit_cg_block_new(m, f);
  return f;
}

/* phis get their incoming values after the loop body exists; emitting may
 * move a block's instructions, so find the phi again by its value */
static void phi_in(KitCgModule *m, KitCgFunc *f, KitCgVal phi, KitCgVal v, KitCgBlkId from) {
  kit_cg_phi_add(m, kit_cg_def(f, phi), v, from);
}

static KitCgVal c64(KitCgBuilder *b, uint64_t v) { return kit_cg_iconst(b, T_I64, v); }

/* ---- memory -------------------------------------------------------------------- */

static void test_load_store_widths(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType ps[1] = {T_PTR};
  /* store each width at its offset, then return the sum of loading them back */
  KitCgFunc *f = func(m, &b, "f", T_I64, ps, 1, false);
  static const KitCgType types[] = {KIT_CG_I8, KIT_CG_I16, KIT_CG_I32, KIT_CG_I64, KIT_CG_I1};
  static const uint64_t vals[] = {0xfe, 0xfffe, 0xfffffffe, 0xfffffffffffffffeull, 1};
  static const uint64_t offs[] = {1, 3, 7, 13, 30}; /* unaligned on purpose */
  KitCgVal sum = c64(&b, 0);
  for (int i = 0; i < 5; i++) {
    KitCgVal p = kit_cg_ptradd(&b, 1, c64(&b, offs[i]));
    kit_cg_store(&b, kit_cg_iconst(&b, types[i], vals[i]), p, 1, KIT_CG_PROGRAM);
    KitCgVal v = kit_cg_load(&b, types[i], p, 1, KIT_CG_PROGRAM);
    if (types[i] != KIT_CG_I64) v = kit_cg_conv(&b, KIT_CG_OP_ZEXT, T_I64, v);
    sum = kit_cg_binop(&b, KIT_CG_OP_ADD, sum, v);
  }
  /* f32 / f64 / i128 / ptr round trips */
  KitCgVal pf = kit_cg_ptradd(&b, 1, c64(&b, 40));
  kit_cg_store(&b, kit_cg_fconst(&b, KIT_CG_F32, 2.5), pf, 4, KIT_CG_PROGRAM);
  KitCgVal pd = kit_cg_ptradd(&b, 1, c64(&b, 48));
  kit_cg_store(&b, kit_cg_fconst(&b, KIT_CG_F64, -4.25), pd, 8, KIT_CG_PROGRAM);
  KitCgVal pq = kit_cg_ptradd(&b, 1, c64(&b, 64));
  kit_cg_store(&b, kit_cg_i128const(&b, 0x1111, 0x2222), pq, 16, KIT_CG_PROGRAM);
  KitCgVal pp = kit_cg_ptradd(&b, 1, c64(&b, 80));
  kit_cg_store(&b, 1, pp, 8, KIT_CG_INTERNAL);
  KitCgVal back = kit_cg_load(&b, T_PTR, pp, 8, KIT_CG_INTERNAL);
  KitCgVal fl = kit_cg_load(&b, KIT_CG_F32, pf, 4, KIT_CG_PROGRAM);
  kit_cg_store(&b, fl, kit_cg_ptradd(&b, back, c64(&b, 88)), 4, KIT_CG_PROGRAM);
  kit_cg_ret(&b, sum);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  unsigned char buf[128];
  memset(buf, 0xaa, sizeof buf);
  KitCgScalar a = I((uintptr_t)buf), r[2];
  assert_int_equal(kit_interp_call(ip, f, &a, 1, r), 0);
  uint64_t want = 0;
  for (int i = 0; i < 5; i++) want += vals[i];
  assert_int_equal(r[0].i, want);
  assert_int_equal(buf[0], 0xaa); /* neighbours untouched */
  assert_int_equal(buf[2], 0xaa);
  assert_int_equal(buf[31], 0xaa);
  float fv;
  double dv;
  unsigned __int128 qv;
  void *pv;
  memcpy(&fv, buf + 40, 4);
  memcpy(&dv, buf + 48, 8);
  memcpy(&qv, buf + 64, 16);
  memcpy(&pv, buf + 80, 8);
  assert_true(fv == 2.5f);
  assert_true(dv == -4.25);
  assert_true(qv == (((unsigned __int128)0x2222 << 64) | 0x1111));
  assert_ptr_equal(pv, buf);
  memcpy(&fv, buf + 88, 4);
  assert_true(fv == 2.5f);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

static void test_memops(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType ps[1] = {T_PTR};
  KitCgFunc *f = func(m, &b, "f", KIT_CG_VOID, ps, 1, false);
  /* memmove overlapping forward: buf[2..10) <- buf[0..8) */
  kit_cg_memop(&b, KIT_CG_OP_MEMMOVE, kit_cg_ptradd(&b, 1, c64(&b, 2)), 1, c64(&b, 8), KIT_CG_PROGRAM);
  /* memset buf[20..25) = 0x5a */
  kit_cg_memop(&b, KIT_CG_OP_MEMSET, kit_cg_ptradd(&b, 1, c64(&b, 20)), kit_cg_iconst(&b, T_I8, 0x5a), c64(&b, 5),
               KIT_CG_PROGRAM);
  /* memcpy buf[40..44) <- buf[20..24) ; zero length is a no-op */
  kit_cg_memop(&b, KIT_CG_OP_MEMCPY, kit_cg_ptradd(&b, 1, c64(&b, 40)), kit_cg_ptradd(&b, 1, c64(&b, 20)),
               c64(&b, 4), KIT_CG_PROGRAM);
  kit_cg_memop(&b, KIT_CG_OP_MEMCPY, 1, kit_cg_ptradd(&b, 1, c64(&b, 20)), c64(&b, 0), KIT_CG_PROGRAM);
  kit_cg_ret(&b, 0);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  unsigned char buf[64];
  for (int i = 0; i < 64; i++) buf[i] = (unsigned char)i;
  KitCgScalar a = I((uintptr_t)buf), r[2];
  assert_int_equal(kit_interp_call(ip, f, &a, 1, r), 0);
  static const unsigned char want[12] = {0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 10, 11};
  assert_memory_equal(buf, want, 12);
  for (int i = 20; i < 25; i++) assert_int_equal(buf[i], 0x5a);
  assert_int_equal(buf[25], 25);
  for (int i = 40; i < 44; i++) assert_int_equal(buf[i], 0x5a);
  assert_int_equal(buf[44], 44);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

static void test_atomics(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType ps[1] = {T_PTR};
  KitCgFunc *f = func(m, &b, "f", T_I64, ps, 1, false);
  KitCgVal p = 1;
  KitCgVal a1[2] = {p, kit_cg_iconst(&b, T_I32, 5)};
  KitCgInst *add = kit_cg_emit(&b, KIT_CG_OP_ARMW, T_I32, a1, 2); /* old = 10, mem 15 */
  add->aux = KIT_CG_RMW_ADD;
  add->pred = KIT_CG_SEQCST;
  KitCgVal add_old = add->id;
  KitCgVal a2[3] = {p, kit_cg_iconst(&b, T_I32, 15), kit_cg_iconst(&b, T_I32, 100)};
  KitCgVal cx_old = kit_cg_emit(&b, KIT_CG_OP_ACMPXCHG, T_I32, a2, 3)->id; /* succeeds: old 15, mem 100 */
  KitCgVal a3[3] = {p, kit_cg_iconst(&b, T_I32, 1), kit_cg_iconst(&b, T_I32, 7)};
  KitCgVal cx2_old = kit_cg_emit(&b, KIT_CG_OP_ACMPXCHG, T_I32, a3, 3)->id; /* fails: old 100 */
  KitCgVal a4[2] = {p, kit_cg_iconst(&b, T_I32, 0xffffffffu)};
  kit_cg_emit(&b, KIT_CG_OP_ARMW, T_I32, a4, 2)->aux = KIT_CG_RMW_UMAX; /* mem -> 0xffffffff */
  KitCgVal a5[2] = {p, kit_cg_iconst(&b, T_I32, 3)};
  kit_cg_emit(&b, KIT_CG_OP_ARMW, T_I32, a5, 2)->aux = KIT_CG_RMW_SMAX; /* smax(-1, 3) -> 3 */
  kit_cg_emit(&b, KIT_CG_OP_FENCE, KIT_CG_VOID, NULL, 0);
  KitCgVal ld = kit_cg_emit(&b, KIT_CG_OP_ALOAD, T_I32, &p, 1)->id;
  KitCgVal a6[2] = {kit_cg_iconst(&b, T_I32, 42), kit_cg_ptradd(&b, p, c64(&b, 4))};
  kit_cg_emit(&b, KIT_CG_OP_ASTORE, KIT_CG_VOID, a6, 2);
  /* pack: add.old | cx.old<<8 | cx2.old<<16 | ld<<24 */
  KitCgVal r = kit_cg_conv(&b, KIT_CG_OP_ZEXT, T_I64, add_old);
  KitCgVal parts[3] = {cx_old, cx2_old, ld};
  for (int i = 0; i < 3; i++) {
    KitCgVal z = kit_cg_conv(&b, KIT_CG_OP_ZEXT, T_I64, parts[i]);
    r = kit_cg_binop(&b, KIT_CG_OP_OR, r, kit_cg_binop(&b, KIT_CG_OP_SHL, z, c64(&b, 8 * (i + 1))));
  }
  kit_cg_ret(&b, r);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  uint32_t mem[2] = {10, 0};
  KitCgScalar a = I((uintptr_t)mem), ret[2];
  assert_int_equal(kit_interp_call(ip, f, &a, 1, ret), 0);
  assert_int_equal(ret[0].i, 10 | (15 << 8) | (100 << 16) | (3ull << 24));
  assert_int_equal(mem[0], 3);
  assert_int_equal(mem[1], 42);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* alloca: aligned, freed by stackrestore (the next alloca reuses the
 * memory), and by returning; f(n) = address difference checks packed */
static void test_alloca(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType ps[1] = {T_I64};
  KitCgFunc *f = func(m, &b, "f", T_I64, ps, 1, false);
  KitCgVal save = kit_cg_emit(&b, KIT_CG_OP_STACKSAVE, T_PTR, NULL, 0)->id;
  KitCgInst *a1 = kit_cg_emit(&b, KIT_CG_OP_ALLOCA, T_PTR, (KitCgVal[]){1}, 1);
  a1->imm = 64;
  KitCgVal p1 = a1->id;
  kit_cg_memop(&b, KIT_CG_OP_MEMSET, p1, kit_cg_iconst(&b, T_I8, 7), 1, KIT_CG_PROGRAM);
  kit_cg_emit(&b, KIT_CG_OP_STACKRESTORE, KIT_CG_VOID, &save, 1);
  KitCgInst *a2 = kit_cg_emit(&b, KIT_CG_OP_ALLOCA, T_PTR, (KitCgVal[]){1}, 1);
  a2->imm = 64;
  KitCgVal p2 = a2->id;
  KitCgVal i1 = kit_cg_conv(&b, KIT_CG_OP_PTRTOINT, T_I64, p1), i2 = kit_cg_conv(&b, KIT_CG_OP_PTRTOINT, T_I64, p2);
  KitCgVal same = kit_cg_conv(&b, KIT_CG_OP_ZEXT, T_I64, kit_cg_cmp(&b, KIT_CG_EQ, i1, i2));
  KitCgVal al = kit_cg_binop(&b, KIT_CG_OP_AND, i1, c64(&b, 63));
  KitCgVal last = kit_cg_conv(&b, KIT_CG_OP_ZEXT, T_I64,
                              kit_cg_load(&b, T_I8, kit_cg_ptradd(&b, p2, kit_cg_binop(&b, KIT_CG_OP_SUB, 1, c64(&b, 1))),
                                          1, KIT_CG_PROGRAM));
  /* same * 1000 + misalignment * 100 + last byte */
  KitCgVal r = kit_cg_binop(&b, KIT_CG_OP_MUL, same, c64(&b, 1000));
  r = kit_cg_binop(&b, KIT_CG_OP_ADD, r, kit_cg_binop(&b, KIT_CG_OP_MUL, al, c64(&b, 100)));
  kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_ADD, r, last));
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  KitCgScalar a = I(100000), ret[2];
  for (int i = 0; i < 3; i++) { /* the frame's allocas are gone after each return */
    assert_int_equal(kit_interp_call(ip, f, &a, 1, ret), 0);
    assert_int_equal(ret[0].i, 1007);
  }
  a = I(1ull << 40); /* larger than the object stack: a trap, not a crash */
  assert_int_not_equal(kit_interp_call(ip, f, &a, 1, ret), 0);
  assert_non_null(strstr(errbuf, "alloca"));
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* ---- control flow ------------------------------------------------------------------- */

static void test_switch(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType ps[1] = {T_I32};
  KitCgFunc *f = func(m, &b, "f", T_I32, ps, 1, false);
  KitCgBlkId t[4], dflt = kit_cg_block_new(m, f), join = kit_cg_block_new(m, f);
  for (int i = 0; i < 4; i++) t[i] = kit_cg_block_new(m, f);
  int64_t cases[4] = {-7, 0, 3, 1000000};
  kit_cg_switch(&b, 1, dflt, cases, t, 4);
  KitCgVal v[5];
  for (int i = 0; i < 4; i++) {
    kit_cg_builder_at(&b, t[i]);
    v[i] = kit_cg_iconst(&b, T_I32, (uint64_t)(10 * (i + 1)));
    kit_cg_br(&b, join);
  }
  kit_cg_builder_at(&b, dflt);
  v[4] = kit_cg_iconst(&b, T_I32, 99);
  kit_cg_br(&b, join);
  kit_cg_builder_at(&b, join);
  KitCgVal phi = kit_cg_phi(&b, T_I32)->id;
  for (int i = 0; i < 4; i++) phi_in(m, f, phi, v[i], t[i]);
  phi_in(m, f, phi, v[4], dflt);
  kit_cg_ret(&b, phi);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  int64_t in[] = {-7, 0, 3, 1000000, 4, -1, 0x7fffffff};
  uint64_t want[] = {10, 20, 30, 40, 99, 99, 99};
  for (int i = 0; i < 7; i++) {
    KitCgScalar a = I((uint64_t)in[i]), r[2];
    assert_int_equal(kit_interp_call(ip, f, &a, 1, r), 0);
    assert_int_equal(r[0].i, want[i]);
  }
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* loop n times: (a, b, c) = (b, c, a) and (x, y) = (y, x): parallel copies
 * with cycles on the back edge */
static void test_phi_swap(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType ps[1] = {T_I64};
  KitCgFunc *f = func(m, &b, "f", T_I64, ps, 1, false);
  KitCgBlkId loop = kit_cg_block_new(m, f), done = kit_cg_block_new(m, f);
  KitCgVal one = c64(&b, 1), k1 = c64(&b, 1), k2 = c64(&b, 2), k3 = c64(&b, 3), zero = c64(&b, 0);
  kit_cg_br(&b, loop);
  kit_cg_builder_at(&b, loop);
  KitCgVal i = kit_cg_phi(&b, T_I64)->id, pa = kit_cg_phi(&b, T_I64)->id, pb = kit_cg_phi(&b, T_I64)->id,
           pc = kit_cg_phi(&b, T_I64)->id, px = kit_cg_phi(&b, T_I64)->id, py = kit_cg_phi(&b, T_I64)->id;
  KitCgVal in = kit_cg_binop(&b, KIT_CG_OP_ADD, i, one);
  KitCgVal c = kit_cg_cmp(&b, KIT_CG_ULT, in, 1);
  kit_cg_condbr(&b, c, loop, done);
  phi_in(m, f, i, zero, 0);
  phi_in(m, f, i, in, loop);
  phi_in(m, f, pa, k1, 0);
  phi_in(m, f, pa, pb, loop);
  phi_in(m, f, pb, k2, 0);
  phi_in(m, f, pb, pc, loop);
  phi_in(m, f, pc, k3, 0);
  phi_in(m, f, pc, pa, loop);
  phi_in(m, f, px, k1, 0);
  phi_in(m, f, px, py, loop);
  phi_in(m, f, py, k2, 0);
  phi_in(m, f, py, px, loop);
  kit_cg_builder_at(&b, done);
  /* the phis' values at exit are those of the last iteration */
  KitCgVal r = kit_cg_binop(&b, KIT_CG_OP_MUL, pa, c64(&b, 1000));
  r = kit_cg_binop(&b, KIT_CG_OP_ADD, r, kit_cg_binop(&b, KIT_CG_OP_MUL, pb, c64(&b, 100)));
  r = kit_cg_binop(&b, KIT_CG_OP_ADD, r, kit_cg_binop(&b, KIT_CG_OP_MUL, pc, c64(&b, 10)));
  r = kit_cg_binop(&b, KIT_CG_OP_ADD, r, px);
  kit_cg_ret(&b, r);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  /* after n-1 rotations (the exit sees the values entering the last iteration) */
  uint64_t want[] = {1231, 2312, 3121, 1231, 2312};
  for (int n = 1; n <= 5; n++) {
    KitCgScalar a = I((uint64_t)n), r2[2];
    assert_int_equal(kit_interp_call(ip, f, &a, 1, r2), 0);
    uint64_t w = want[n - 1];
    w = w - (w % 10) + ((n - 1) % 2 ? 2 : 1);
    assert_int_equal(r2[0].i, w);
  }
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* ---- calls ---------------------------------------------------------------------------- */

/* sum(n) = n == 0 ? 0 : n + sum(n - 1), recursing on the interpreter's stacks */
static KitCgFunc *build_sum(KitCgModule *m) {
  KitCgBuilder b;
  KitCgType ps[1] = {T_I64};
  KitCgFunc *f = func(m, &b, "sum", T_I64, ps, 1, false);
  uint32_t obj = kit_cg_stack_new(m, f, 8, 8, 0); /* a stack object per frame */
  KitCgBlkId rec = kit_cg_block_new(m, f), base = kit_cg_block_new(m, f);
  KitCgVal z = c64(&b, 0);
  kit_cg_condbr(&b, kit_cg_cmp(&b, KIT_CG_EQ, 1, z), base, rec);
  kit_cg_builder_at(&b, base);
  kit_cg_ret(&b, z);
  kit_cg_builder_at(&b, rec);
  KitCgVal p = kit_cg_stackaddr(&b, obj);
  kit_cg_store(&b, 1, p, 8, KIT_CG_PROGRAM);
  KitCgVal nm1 = kit_cg_binop(&b, KIT_CG_OP_SUB, 1, c64(&b, 1));
  KitCgVal s = kit_cg_call(&b, f->sym, T_I64, &nm1, 1);
  KitCgVal mine = kit_cg_load(&b, T_I64, p, 8, KIT_CG_PROGRAM); /* own frame's object survived the call */
  kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_ADD, s, mine));
  return f;
}

static void test_deep_recursion(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgFunc *f = build_sum(m);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  KitCgScalar a = I(100000), r[2];
  assert_int_equal(kit_interp_call(ip, f, &a, 1, r), 0);
  assert_int_equal(r[0].i, 100000ull * 100001 / 2);
  uint64_t ops = kit_interp_ops(ip);
  assert_true(ops > 100000 * 5);
  /* runaway recursion traps instead of crashing */
  a = I(50000000);
  assert_int_not_equal(kit_interp_call(ip, f, &a, 1, r), 0);
  assert_non_null(strstr(errbuf, "stack overflow"));
  a = I(10);
  assert_int_equal(kit_interp_call(ip, f, &a, 1, r), 0);
  assert_int_equal(r[0].i, 55);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* even(n) = n == 0 ? 1 : tail odd(n-1); odd(n) = n == 0 ? 0 : tail (&even)(n-1):
 * a million tail calls run in constant frame space */
static void test_tail_calls(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType ps[1] = {T_I64};
  KitCgFunc *even = kit_cg_func_declare(m, "even", T_I64, ps, 1, false);
  KitCgFunc *odd = kit_cg_func_declare(m, "odd", T_I64, ps, 1, false);
  for (int k = 0; k < 2; k++) {
    KitCgFunc *f = k ? odd : even;
    kit_cg_builder_init(&b, m, f);
    kit_cg_block_new(m, f);
    KitCgBlkId zero = kit_cg_block_new(m, f), rec = kit_cg_block_new(m, f);
    kit_cg_condbr(&b, kit_cg_cmp(&b, KIT_CG_EQ, 1, c64(&b, 0)), zero, rec);
    kit_cg_builder_at(&b, zero);
    kit_cg_ret(&b, c64(&b, k ? 0 : 1));
    kit_cg_builder_at(&b, rec);
    KitCgVal nm1 = kit_cg_binop(&b, KIT_CG_OP_SUB, 1, c64(&b, 1));
    KitCgVal r = k ? kit_cg_calli(&b, kit_cg_symaddr(&b, even->sym, 0), T_I64, &nm1, 1)
                   : kit_cg_call(&b, odd->sym, T_I64, &nm1, 1);
    KitCgBlock *bb = &f->blocks[rec];
    bb->insts[bb->ninsts - 1].flags |= KIT_CG_F_TAIL;
    kit_cg_ret(&b, r);
  }
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  KitCgScalar a = I(1000001), r[2];
  assert_int_equal(kit_interp_call(ip, even, &a, 1, r), 0);
  assert_int_equal(r[0].i, 0);
  a = I(1000000);
  assert_int_equal(kit_interp_call(ip, even, &a, 1, r), 0);
  assert_int_equal(r[0].i, 1);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* host threads run interpreted code at the same time, each on its own
 * interpreter stacks: worker(k) adds 1 to @counter 10000 times atomically
 * and returns sum(k * 1000) computed by deep recursion */
static void test_threads(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgFunc *sum = build_sum(m);
  KitCgGlobal *counter = kit_cg_global_new(m, "counter", 8, 8);
  KitCgBuilder b;
  KitCgType ps[1] = {T_PTR};
  KitCgFunc *w = func(m, &b, "worker", T_PTR, ps, 1, false);
  KitCgBlkId loop = kit_cg_block_new(m, w), done = kit_cg_block_new(m, w);
  KitCgVal z = c64(&b, 0), one = c64(&b, 1), cp = kit_cg_symaddr(&b, counter->sym, 0);
  kit_cg_br(&b, loop);
  kit_cg_builder_at(&b, loop);
  KitCgVal i = kit_cg_phi(&b, T_I64)->id;
  KitCgVal ra[2] = {cp, one};
  kit_cg_emit(&b, KIT_CG_OP_ARMW, T_I64, ra, 2)->aux = KIT_CG_RMW_ADD;
  KitCgVal i2 = kit_cg_binop(&b, KIT_CG_OP_ADD, i, one);
  kit_cg_condbr(&b, kit_cg_cmp(&b, KIT_CG_ULT, i2, c64(&b, 10000)), loop, done);
  phi_in(m, w, i, z, 0);
  phi_in(m, w, i, i2, loop);
  kit_cg_builder_at(&b, done);
  KitCgVal n = kit_cg_binop(&b, KIT_CG_OP_MUL, kit_cg_conv(&b, KIT_CG_OP_PTRTOINT, T_I64, 1), c64(&b, 1000));
  KitCgVal s = kit_cg_call(&b, sum->sym, T_I64, &n, 1);
  kit_cg_ret(&b, kit_cg_conv(&b, KIT_CG_OP_INTTOPTR, T_PTR, s));
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  void *(*start)(void *) = (void *(*)(void *))kit_interp_symbol(ip, "worker");
  assert_non_null(start);
  pthread_t th[4];
  for (uintptr_t k = 0; k < 4; k++) assert_int_equal(pthread_create(&th[k], NULL, start, (void *)(k + 1)), 0);
  for (uintptr_t k = 0; k < 4; k++) {
    void *r;
    assert_int_equal(pthread_join(th[k], &r), 0);
    uint64_t nk = (k + 1) * 1000;
    assert_int_equal((uintptr_t)r, nk * (nk + 1) / 2);
  }
  assert_int_equal(*(int64_t *)kit_interp_symbol(ip, "counter"), 40000);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* a thread-local global: each thread starts from the initial image and
 * changes only its own copy */
static void test_tls_per_thread(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgGlobal *tl = kit_cg_global_new(m, "tl", 8, 8);
  int64_t init = 100;
  kit_cg_global_set_init(m, tl, &init, 8);
  tl->is_tls = true;
  KitCgBuilder b;
  KitCgType ps[1] = {T_PTR};
  func(m, &b, "bump", T_PTR, ps, 1, false);
  KitCgVal p = kit_cg_symaddr(&b, tl->sym, 0);
  KitCgVal v = kit_cg_binop(&b, KIT_CG_OP_ADD, kit_cg_load(&b, T_I64, p, 8, KIT_CG_PROGRAM),
                            kit_cg_conv(&b, KIT_CG_OP_PTRTOINT, T_I64, 1));
  kit_cg_store(&b, v, p, 8, KIT_CG_PROGRAM);
  kit_cg_ret(&b, kit_cg_conv(&b, KIT_CG_OP_INTTOPTR, T_PTR, kit_cg_load(&b, T_I64, p, 8, KIT_CG_PROGRAM)));
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  void *(*bump)(void *) = (void *(*)(void *))kit_interp_symbol(ip, "bump");
  pthread_t th[3];
  for (uintptr_t k = 0; k < 3; k++) assert_int_equal(pthread_create(&th[k], NULL, bump, (void *)(k + 1)), 0);
  for (uintptr_t k = 0; k < 3; k++) {
    void *r;
    assert_int_equal(pthread_join(th[k], &r), 0);
    assert_int_equal((uintptr_t)r, 101 + k);
  }
  assert_int_equal(*(int64_t *)kit_interp_symbol(ip, "tl"), 100);
  assert_int_equal((uintptr_t)bump((void *)5), 105);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* the emulator makes an interpreter per guest block: that must stay cheap
 * (no per-interpreter stacks) */
static void test_many_interpreters(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgFunc *f = build_sum(m);
  enum { N = 30000 }; /* all alive at once: more than vm.max_map_count / 3 */
  KitInterp **ips = calloc(N, sizeof *ips);
  FILE *err = errstream();
  for (int i = 0; i < N; i++) {
    ips[i] = kit_interp_new(m, NULL, NULL, err);
    assert_non_null(ips[i]);
    KitCgScalar a = I(3), r[2];
    assert_int_equal(kit_interp_call(ips[i], f, &a, 1, r), 0);
    assert_int_equal(r[0].i, 6);
  }
  for (int i = 0; i < N; i++) kit_interp_free(ips[i]);
  free(ips);
  kit_cg_module_free(m);
}

static void test_indirect_and_pairs(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType ps[2] = {T_I64, T_F64};
  /* pair(x, d) -> {x * 2, d + 1} */
  KitCgFunc *pair = func(m, &b, "pair", T_I64, ps, 2, false);
  pair->ret[1] = T_F64;
  KitCgVal rv[2] = {kit_cg_binop(&b, KIT_CG_OP_MUL, 1, c64(&b, 2)),
                    kit_cg_binop(&b, KIT_CG_OP_FADD, 2, kit_cg_fconst(&b, T_F64, 1.0))};
  kit_cg_emit(&b, KIT_CG_OP_RET, KIT_CG_VOID, rv, 2);
  /* caller(x) = calli (&pair)(x, 0.5) -> a + (i64)b */
  KitCgFunc *caller = func(m, &b, "caller", T_I64, ps, 1, false);
  KitCgVal fp = kit_cg_symaddr(&b, pair->sym, 0);
  KitCgVal args[2] = {1, kit_cg_fconst(&b, T_F64, 0.5)};
  KitCgVal first = kit_cg_calli(&b, fp, T_I64, args, 2);
  KitCgInst *call = &b.f->blocks[0].insts[b.f->blocks[0].ninsts - 1];
  call->type2 = T_F64;
  KitCgVal sec = kit_cg_emit(&b, KIT_CG_OP_SECOND, T_F64, &first, 1)->id;
  KitCgVal si = kit_cg_conv(&b, KIT_CG_OP_FPTOSI, T_I64, kit_cg_binop(&b, KIT_CG_OP_FMUL, sec, kit_cg_fconst(&b, T_F64, 10)));
  kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_ADD, first, si));
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  KitCgScalar a[2] = {I(21), D(0)}, r[2];
  assert_int_equal(kit_interp_call(ip, caller, a, 1, r), 0);
  assert_int_equal(r[0].i, 42 + 15);
  /* both results from the host side */
  a[1] = D(2.25);
  assert_int_equal(kit_interp_call(ip, pair, a, 2, r), 0);
  assert_int_equal(r[0].i, 42);
  assert_true(r[1].f64 == 3.25);
  /* and through the host-callable pointer: the SysV pair lands in rax:xmm0 */
  typedef struct { int64_t a; double b; } P;
  P (*hp)(int64_t, double) = (P(*)(int64_t, double))kit_interp_symbol(ip, "pair");
  assert_non_null(hp);
  P p = hp(5, 1.5);
  assert_int_equal(p.a, 10);
  assert_true(p.b == 2.5);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

typedef struct { int64_t lo, hi; } Pair64;
static Pair64 host_divmod(int64_t a, int64_t b) { return (Pair64){a / b, a % b}; }
typedef struct { char bytes[40]; } Big;
static int host_big_sum(Big s) {
  int t = 0;
  for (int i = 0; i < 40; i++) t += s.bytes[i];
  return t;
}
static void *test_resolver(void *user, const char *name) {
  (void)user;
  if (!strcmp(name, "host_divmod")) return (void *)host_divmod;
  if (!strcmp(name, "host_big_sum")) return (void *)host_big_sum;
  return NULL;
}

static void test_host_pairs_and_byval(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType p2[2] = {T_I64, T_I64}, pp[1] = {T_PTR};
  KitCgFunc *dm = kit_cg_func_declare(m, "host_divmod", T_I64, p2, 2, false);
  dm->ret[1] = T_I64;
  KitCgFunc *bs = kit_cg_func_declare(m, "host_big_sum", T_I32, pp, 1, false);
  bs->params[0].attrs = KIT_CG_PA_BYVAL;
  bs->params[0].byval_size = 40;
  bs->params[0].byval_align = 8;
  /* f(a, b) = q * 1000 + r */
  KitCgFunc *f = func(m, &b, "f", T_I64, p2, 2, false);
  KitCgVal args[2] = {1, 2};
  KitCgVal q = kit_cg_call(&b, dm->sym, T_I64, args, 2);
  b.f->blocks[0].insts[b.f->blocks[0].ninsts - 1].type2 = T_I64;
  KitCgVal r = kit_cg_emit(&b, KIT_CG_OP_SECOND, T_I64, &q, 1)->id;
  kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_ADD, kit_cg_binop(&b, KIT_CG_OP_MUL, q, c64(&b, 1000)), r));
  /* interpreted byval callee: scribbles on its copy, returns the first byte */
  KitCgFunc *cal = func(m, &b, "callee", T_I32, pp, 1, false);
  cal->params[0].attrs = KIT_CG_PA_BYVAL;
  cal->params[0].byval_size = 40;
  cal->params[0].byval_align = 8;
  KitCgVal v = kit_cg_load(&b, T_I8, 1, 1, KIT_CG_PROGRAM);
  kit_cg_store(&b, kit_cg_iconst(&b, T_I8, 0), 1, 1, KIT_CG_PROGRAM);
  kit_cg_ret(&b, kit_cg_conv(&b, KIT_CG_OP_ZEXT, T_I32, v));
  /* g(p) = callee(p) * 1000 + host_big_sum(p) */
  KitCgFunc *g = func(m, &b, "g", T_I32, pp, 1, false);
  KitCgVal x = kit_cg_call(&b, cal->sym, T_I32, (KitCgVal[]){1}, 1);
  KitCgVal y = kit_cg_call(&b, bs->sym, T_I32, (KitCgVal[]){1}, 1);
  kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_ADD, kit_cg_binop(&b, KIT_CG_OP_MUL, x, kit_cg_iconst(&b, T_I32, 1000)), y));
  KitInterp *ip = new_interp(m, test_resolver, NULL, errstream());
  assert_non_null(ip);
  KitCgScalar a[2] = {I((uint64_t)-47), I(5)}, ret[2];
  assert_int_equal(kit_interp_call(ip, f, a, 2, ret), 0);
  assert_int_equal((int64_t)ret[0].i, -9 * 1000 + -2);
  Big big;
  for (int i = 0; i < 40; i++) big.bytes[i] = (char)(i + 1);
  a[0] = I((uintptr_t)&big);
  assert_int_equal(kit_interp_call(ip, g, a, 1, ret), 0);
  assert_int_equal(ret[0].i, 1 * 1000 + 820);
  assert_int_equal(big.bytes[0], 1); /* the callee changed only its copy */
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* qsort from the host calls back into an interpreted comparator */
static void test_qsort_callback(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType q4[4] = {T_PTR, T_I64, T_I64, T_PTR}, pp[2] = {T_PTR, T_PTR};
  KitCgFunc *qs = kit_cg_func_declare(m, "qsort", KIT_CG_VOID, q4, 4, false);
  KitCgFunc *cmp = func(m, &b, "cmp", T_I32, pp, 2, false);
  KitCgVal x = kit_cg_load(&b, T_I32, 1, 4, KIT_CG_PROGRAM), y = kit_cg_load(&b, T_I32, 2, 4, KIT_CG_PROGRAM);
  KitCgVal gt = kit_cg_conv(&b, KIT_CG_OP_ZEXT, T_I32, kit_cg_cmp(&b, KIT_CG_SGT, x, y));
  KitCgVal lt = kit_cg_conv(&b, KIT_CG_OP_ZEXT, T_I32, kit_cg_cmp(&b, KIT_CG_SLT, x, y));
  kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_SUB, gt, lt));
  KitCgType p1[2] = {T_PTR, T_I64};
  KitCgFunc *sort = func(m, &b, "sort", KIT_CG_VOID, p1, 2, false);
  KitCgVal args[4] = {1, 2, c64(&b, 4), kit_cg_symaddr(&b, cmp->sym, 0)};
  kit_cg_call(&b, qs->sym, KIT_CG_VOID, args, 4);
  kit_cg_ret(&b, 0);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  int arr[9] = {5, -3, 9, 0, 2, -100, 7, 7, 1};
  KitCgScalar a[2] = {I((uintptr_t)arr), I(9)}, r[2];
  assert_int_equal(kit_interp_call(ip, sort, a, 2, r), 0);
  int want[9] = {-100, -3, 0, 1, 2, 5, 7, 7, 9};
  assert_memory_equal(arr, want, sizeof arr);
  /* the closure is also a plain host function pointer */
  int (*c)(const void *, const void *) = (int (*)(const void *, const void *))kit_interp_symbol(ip, "cmp");
  int one = 1, two = 2;
  assert_int_equal(c(&one, &two), -1);
  assert_int_equal(c(&two, &one), 1);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* ---- variadics --------------------------------------------------------------------- */

static KitCgSym add_string(KitCgModule *m, const char *name, const char *s) {
  KitCgGlobal *g = kit_cg_global_new(m, name, strlen(s) + 1, 1);
  kit_cg_global_set_init(m, g, s, strlen(s) + 1);
  g->is_const = true;
  return g->sym;
}

static void test_host_printf(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType sp[3] = {T_PTR, T_I64, T_PTR};
  KitCgFunc *snp = kit_cg_func_declare(m, "snprintf", T_I32, sp, 3, true);
  KitCgSym fmt = add_string(m, "fmt", "%d|%.3f|%lld|%s|%.2Lf|%c|%g");
  KitCgSym word = add_string(m, "word", "kit");
  KitCgType ps[1] = {T_PTR};
  KitCgFunc *f = func(m, &b, "f", T_I32, ps, 1, false);
  KitCgVal args[10] = {1,
                       c64(&b, 100),
                       kit_cg_symaddr(&b, fmt, 0),
                       kit_cg_iconst(&b, T_I32, (uint64_t)-42),
                       kit_cg_fconst(&b, T_F64, 3.14159),
                       c64(&b, 1ull << 40),
                       kit_cg_symaddr(&b, word, 0),
                       kit_cg_f80const(&b, 2.5L),
                       kit_cg_iconst(&b, T_I32, 'Z'),
                       kit_cg_fconst(&b, T_F64, 1e-5)};
  kit_cg_ret(&b, kit_cg_call(&b, snp->sym, T_I32, args, 10));
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  char buf[100];
  KitCgScalar a = I((uintptr_t)buf), r[2];
  assert_int_equal(kit_interp_call(ip, f, &a, 1, r), 0);
  assert_string_equal(buf, "-42|3.142|1099511627776|kit|2.50|Z|1e-05");
  assert_int_equal(r[0].i, strlen(buf));
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* vsum(n, ...): n pairs (i32, f64) summed as f64 via va.arg; vfmt(buf,
 * fmt, ...) hands its va_list to the host's vsnprintf */
static void test_interpreted_variadic(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgType p1[1] = {T_I32};
  KitCgFunc *vsum = func(m, &b, "vsum", T_F64, p1, 1, true);
  uint32_t ap = kit_cg_stack_new(m, vsum, 24, 8, 0);
  KitCgBlkId loop = kit_cg_block_new(m, vsum), done = kit_cg_block_new(m, vsum);
  KitCgVal app = kit_cg_stackaddr(&b, ap);
  kit_cg_emit(&b, KIT_CG_OP_VASTART, KIT_CG_VOID, &app, 1);
  KitCgVal z32 = kit_cg_iconst(&b, T_I32, 0), zf = kit_cg_fconst(&b, T_F64, 0), one = kit_cg_iconst(&b, T_I32, 1);
  kit_cg_condbr(&b, kit_cg_cmp(&b, KIT_CG_SGT, 1, z32), loop, done);
  kit_cg_builder_at(&b, loop);
  KitCgVal i = kit_cg_phi(&b, T_I32)->id, acc = kit_cg_phi(&b, T_F64)->id;
  KitCgVal iv = kit_cg_emit(&b, KIT_CG_OP_VAARG, T_I32, &app, 1)->id;
  KitCgVal dv = kit_cg_emit(&b, KIT_CG_OP_VAARG, T_F64, &app, 1)->id;
  KitCgVal acc2 = kit_cg_binop(&b, KIT_CG_OP_FADD, acc, kit_cg_conv(&b, KIT_CG_OP_SITOFP, T_F64, iv));
  acc2 = kit_cg_binop(&b, KIT_CG_OP_FADD, acc2, dv);
  KitCgVal i2 = kit_cg_binop(&b, KIT_CG_OP_ADD, i, one);
  kit_cg_condbr(&b, kit_cg_cmp(&b, KIT_CG_SLT, i2, 1), loop, done);
  phi_in(m, vsum, i, z32, 0);
  phi_in(m, vsum, i, i2, loop);
  phi_in(m, vsum, acc, zf, 0);
  phi_in(m, vsum, acc, acc2, loop);
  kit_cg_builder_at(&b, done);
  KitCgVal res = kit_cg_phi(&b, T_F64)->id;
  phi_in(m, vsum, res, zf, 0);
  phi_in(m, vsum, res, acc2, loop);
  kit_cg_emit(&b, KIT_CG_OP_VAEND, KIT_CG_VOID, &app, 1);
  kit_cg_ret(&b, res);

  KitCgFunc *caller = func(m, &b, "caller", T_F64, NULL, 0, false);
  KitCgVal args[7] = {kit_cg_iconst(&b, T_I32, 3),          kit_cg_iconst(&b, T_I32, (uint64_t)-1),
                      kit_cg_fconst(&b, T_F64, 0.25),       kit_cg_iconst(&b, T_I32, 10),
                      kit_cg_fconst(&b, T_F64, 0.5),        kit_cg_iconst(&b, T_I32, 100),
                      kit_cg_fconst(&b, T_F64, 1000.125)};
  kit_cg_ret(&b, kit_cg_call(&b, vsum->sym, T_F64, args, 7));

  KitCgType vp[4] = {T_PTR, T_I64, T_PTR, T_PTR};
  KitCgFunc *vsn = kit_cg_func_declare(m, "vsnprintf", T_I32, vp, 4, false);
  KitCgType fp2[2] = {T_PTR, T_PTR};
  KitCgFunc *vfmt = func(m, &b, "vfmt", T_I32, fp2, 2, true);
  uint32_t ap2 = kit_cg_stack_new(m, vfmt, 24, 8, 0);
  uint32_t ap3 = kit_cg_stack_new(m, vfmt, 24, 8, 0);
  KitCgVal a2 = kit_cg_stackaddr(&b, ap2), a3 = kit_cg_stackaddr(&b, ap3);
  kit_cg_emit(&b, KIT_CG_OP_VASTART, KIT_CG_VOID, &a2, 1);
  KitCgVal cp[2] = {a3, a2};
  kit_cg_emit(&b, KIT_CG_OP_VACOPY, KIT_CG_VOID, cp, 2);
  KitCgVal vargs[4] = {1, c64(&b, 64), 2, a3};
  KitCgVal n = kit_cg_call(&b, vsn->sym, T_I32, vargs, 4);
  kit_cg_emit(&b, KIT_CG_OP_VAEND, KIT_CG_VOID, &a2, 1);
  kit_cg_ret(&b, n);
  KitCgSym fmt = add_string(m, "fmt", "%s=%d %.1f %Lg %lu");
  KitCgSym nm = add_string(m, "nm", "x");
  KitCgFunc *callfmt = func(m, &b, "callfmt", T_I32, fp2, 1, false);
  KitCgVal fa[7] = {1,
                    kit_cg_symaddr(&b, fmt, 0),
                    kit_cg_symaddr(&b, nm, 0),
                    kit_cg_iconst(&b, T_I32, 7),
                    kit_cg_fconst(&b, T_F64, 2.5),
                    kit_cg_f80const(&b, 0.125L),
                    c64(&b, 18446744073709551615ull)};
  kit_cg_ret(&b, kit_cg_call(&b, vfmt->sym, T_I32, fa, 7));

  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  KitCgScalar r[2];
  assert_int_equal(kit_interp_call(ip, caller, NULL, 0, r), 0);
  assert_true(r[0].f64 == -1 + 0.25 + 10 + 0.5 + 100 + 1000.125);
  /* from the host: extra arguments travel as 64-bit integers */
  KitCgScalar ha[3] = {I(1), I(5), I(0)};
  assert_int_equal(kit_interp_call(ip, vsum, ha, 3, r), 0);
  assert_true(r[0].f64 == 5.0);
  char buf[64];
  KitCgScalar a = I((uintptr_t)buf);
  assert_int_equal(kit_interp_call(ip, callfmt, &a, 1, r), 0);
  assert_string_equal(buf, "x=7 2.5 0.125 18446744073709551615");
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

/* ---- globals and ctors ----------------------------------------------------------------- */

static void test_globals_relocs(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgGlobal *val = kit_cg_global_new(m, "val", 8, 8);
  int32_t init[2] = {42, 43};
  kit_cg_global_set_init(m, val, init, 8);
  KitCgFunc *get = func(m, &b, "get", T_I32, NULL, 0, false);
  kit_cg_ret(&b, kit_cg_iconst(&b, T_I32, 7));
  KitCgGlobal *tbl = kit_cg_global_new(m, "tbl", 24, 8);
  kit_cg_global_add_reloc(m, tbl, 0, val->sym, 4, 8);
  kit_cg_global_add_reloc(m, tbl, 8, get->sym, 0, 8);
  kit_cg_global_add_reloc(m, tbl, 16, kit_cg_global_declare(m, "stdout")->sym, 0, 8);
  KitCgGlobal *big = kit_cg_global_new(m, "aligned", 4, 64);
  big->is_tls = true;
  /* use() = *tbl[0] * 100 + tbl[1]() */
  KitCgFunc *use = func(m, &b, "use", T_I32, NULL, 0, false);
  KitCgVal t = kit_cg_symaddr(&b, tbl->sym, 0);
  KitCgVal p = kit_cg_load(&b, T_PTR, t, 8, KIT_CG_PROGRAM);
  KitCgVal v = kit_cg_load(&b, T_I32, p, 4, KIT_CG_PROGRAM);
  KitCgVal fp = kit_cg_load(&b, T_PTR, kit_cg_symaddr(&b, tbl->sym, 8), 8, KIT_CG_PROGRAM);
  KitCgVal c = kit_cg_calli(&b, fp, T_I32, NULL, 0);
  kit_cg_store(&b, c, kit_cg_symaddr(&b, big->sym, 0), 4, KIT_CG_PROGRAM);
  kit_cg_ret(&b, kit_cg_binop(&b, KIT_CG_OP_ADD, kit_cg_binop(&b, KIT_CG_OP_MUL, v, kit_cg_iconst(&b, T_I32, 100)), c));
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  assert_non_null(ip);
  KitCgScalar r[2];
  assert_int_equal(kit_interp_call(ip, use, NULL, 0, r), 0);
  assert_int_equal(r[0].i, 4307);
  void **tp = kit_interp_symbol(ip, "tbl");
  assert_ptr_equal(tp[0], (char *)kit_interp_symbol(ip, "val") + 4);
  assert_ptr_equal(tp[1], kit_interp_symbol(ip, "get"));
  assert_ptr_equal(tp[2], &stdout);
  int32_t *al = kit_interp_symbol(ip, "aligned");
  assert_int_equal((uintptr_t)al % 64, 0);
  assert_int_equal(*al, 7);
  kit_interp_free(ip);

  /* an unresolvable external is an error, not a crash */
  kit_cg_global_declare(m, "kit_no_such_symbol_anywhere");
  assert_null(new_interp(m, NULL, NULL, errstream()));
  assert_non_null(strstr(errbuf, "kit_no_such_symbol_anywhere"));
  kit_cg_module_free(m);
}

static void test_ctors_dtors(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgGlobal *log = kit_cg_global_new(m, "log", 8, 8);
  /* each ctor does log = log * 10 + k */
  KitCgSym syms[4];
  for (int k = 1; k <= 4; k++) {
    char name[8];
    snprintf(name, sizeof name, "c%d", k);
    KitCgFunc *f = func(m, &b, name, KIT_CG_VOID, NULL, 0, false);
    KitCgVal a = kit_cg_symaddr(&b, log->sym, 0);
    KitCgVal v = kit_cg_load(&b, T_I64, a, 8, KIT_CG_PROGRAM);
    v = kit_cg_binop(&b, KIT_CG_OP_ADD, kit_cg_binop(&b, KIT_CG_OP_MUL, v, c64(&b, 10)), c64(&b, (uint64_t)k));
    kit_cg_store(&b, v, a, 8, KIT_CG_PROGRAM);
    kit_cg_ret(&b, 0);
    syms[k - 1] = f->sym;
  }
  kit_cg_add_ctor(m, syms[0], 65535);
  kit_cg_add_ctor(m, syms[1], 101);
  kit_cg_add_ctor(m, syms[2], 65535);
  kit_cg_add_dtor(m, syms[3], 200);
  kit_cg_add_dtor(m, syms[0], 65535);
  KitInterp *ip = new_interp(m, NULL, NULL, errstream());
  assert_int_equal(kit_interp_run_ctors(ip), 0);
  int64_t *lg = kit_interp_symbol(ip, "log");
  assert_int_equal(*lg, 213);
  *lg = 0;
  assert_int_equal(kit_interp_run_dtors(ip), 0);
  assert_int_equal(*lg, 14);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

static void test_bad_input(void **st) {
  (void)st;
  KitCgModule *m = kit_cg_module_new("t");
  KitCgBuilder b;
  KitCgFunc *f = func(m, &b, "f", T_I32, NULL, 0, false);
  kit_cg_iconst(&b, T_I32, 1); /* no terminator */
  KitCgFunc *decl = kit_cg_func_declare(m, "abs", T_I32, (KitCgType[]){T_I32}, 1, false);
  KitInterp *ip = kit_interp_new(m, NULL, NULL, errstream()); /* unverified on purpose */
  assert_non_null(ip);
  KitCgScalar r[2];
  assert_int_not_equal(kit_interp_call(ip, f, NULL, 0, r), 0);
  assert_non_null(strstr(errbuf, "terminator"));
  assert_int_not_equal(kit_interp_call(ip, decl, NULL, 0, r), 0);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_load_store_widths), cmocka_unit_test(test_memops),
      cmocka_unit_test(test_atomics),           cmocka_unit_test(test_alloca),
      cmocka_unit_test(test_switch),
      cmocka_unit_test(test_phi_swap),          cmocka_unit_test(test_deep_recursion),
      cmocka_unit_test(test_tail_calls),        cmocka_unit_test(test_threads),
      cmocka_unit_test(test_tls_per_thread),    cmocka_unit_test(test_many_interpreters),
      cmocka_unit_test(test_indirect_and_pairs), cmocka_unit_test(test_host_pairs_and_byval),
      cmocka_unit_test(test_qsort_callback),    cmocka_unit_test(test_host_printf),
      cmocka_unit_test(test_interpreted_variadic), cmocka_unit_test(test_globals_relocs),
      cmocka_unit_test(test_ctors_dtors),       cmocka_unit_test(test_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
