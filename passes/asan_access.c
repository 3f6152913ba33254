/* passes/asan_access.c — ASan's check of one PROGRAM access: the inline
 * shadow test (shadow byte at (addr >> 3) + base; k == 0 passes; for accesses
 * under 8 bytes the partial-granule test (addr & 7) + size - 1 >= k), a cold
 * block that calls __asan_report_{load,store}N, and the rewrite of PROGRAM
 * memcpy/memmove/memset into the runtime's checking versions (small
 * power-of-two ones get inline checks instead). */
#include "asan_internal.h"

#include <stdio.h>

static KitCgVal check_address(AsanFn *A, KitCgVal ptr) {
  if (A->c->check_addr) return A->c->check_addr(A->c->user, &A->b, ptr);
  return asan_emit(A, KIT_CG_OP_PTRTOINT, KIT_CG_I64, &ptr, 1)->id;
}

static void condbr_cold(AsanFn *A, KitCgVal cond, KitCgBlkId unlikely, KitCgBlkId likely) {
  kit_cg_condbr(&A->b, cond, unlikely, likely);
  KitCgBlock *bb = &A->f->blocks[A->b.blk];
  bb->insts[bb->ninsts - 1].flags |= KIT_CG_F_COLD | KIT_CG_F_NOINSTR;
}

/* __asan_{load,store}N(addr, size) for sizes without an inline check */
static void check_range(AsanFn *A, KitCgVal a, KitCgVal len, bool is_write) {
  char name[48];
  snprintf(name, sizeof name, "__asan_%sN%s", is_write ? "store" : "load", A->c->recover ? "_noabort" : "");
  KitCgType p[2] = {KIT_CG_I64, KIT_CG_I64};
  KitCgVal args[2] = {a, len};
  asan_call(A, kit_pass_runtime_fn(A->m, name, KIT_CG_VOID, p, 2, false), KIT_CG_VOID, args, 2);
}

void asan_check_access(AsanFn *A, KitCgVal ptr, uint64_t size, bool is_write) {
  KitCgVal a = check_address(A, ptr);
  if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16) {
    check_range(A, a, asan_i64(A, size), is_write);
    return;
  }
  KitCgVal sp = asan_shadow_ptr(A, a);
  KitCgType kt = size == 16 ? KIT_CG_I16 : KIT_CG_I8;
  KitCgVal k = asan_emit(A, KIT_CG_OP_LOAD, kt, &sp, 1)->id;
  KitCgVal zero = kit_cg_iconst(&A->b, kt, 0);
  KitCgVal args[2] = {k, zero};
  KitCgInst *nz = asan_emit(A, KIT_CG_OP_ICMP, KIT_CG_I1, args, 2);
  nz->pred = KIT_CG_NE;
  KitCgBlkId cont = kit_cg_block_new(A->m, A->f);
  KitCgBlkId report = kit_cg_block_new(A->m, A->f);
  KitCgBlkId slow = size < 8 ? kit_cg_block_new(A->m, A->f) : report;
  condbr_cold(A, nz->id, slow, cont);
  if (size < 8) {
    kit_cg_builder_at(&A->b, slow);
    KitCgVal x[2] = {a, asan_i64(A, 7)};
    KitCgVal lo = asan_emit(A, KIT_CG_OP_AND, KIT_CG_I64, x, 2)->id;
    x[0] = lo;
    x[1] = asan_i64(A, size - 1);
    KitCgVal last = asan_emit(A, KIT_CG_OP_ADD, KIT_CG_I64, x, 2)->id;
    KitCgVal last8 = asan_emit(A, KIT_CG_OP_TRUNC, KIT_CG_I8, &last, 1)->id;
    x[0] = last8;
    x[1] = k;
    KitCgInst *bad = asan_emit(A, KIT_CG_OP_ICMP, KIT_CG_I1, x, 2);
    bad->pred = KIT_CG_SGE;
    condbr_cold(A, bad->id, report, cont);
  }
  kit_cg_builder_at(&A->b, report);
  char name[48];
  snprintf(name, sizeof name, "__asan_report_%s%u%s", is_write ? "store" : "load", (unsigned)size,
           A->c->recover ? "_noabort" : "");
  KitCgType p = KIT_CG_I64;
  KitCgInst *call;
  asan_call(A, kit_pass_runtime_fn(A->m, name, KIT_CG_VOID, &p, 1, !A->c->recover), KIT_CG_VOID, &a, 1);
  KitCgBlock *bb = &A->f->blocks[report];
  call = &bb->insts[bb->ninsts - 1];
  call->flags |= KIT_CG_F_NOMERGE | KIT_CG_F_COLD;
  if (A->c->recover)
    kit_cg_br(&A->b, cont);
  else
    kit_cg_unreachable(&A->b);
  kit_cg_builder_at(&A->b, cont);
}

bool asan_memop(AsanFn *A, const KitCgInst *in) {
  KitCgVal dst = in->args[0], src = in->args[1], len = in->args[2];
  /* a constant length at constant in-bounds offsets cannot fault */
  if (len < A->nvals0 && A->fact[len].kind == FACT_CONST && A->fact[len].off >= 0) {
    uint64_t n = (uint64_t)A->fact[len].off;
    bool dst_ok = asan_provably_safe(A, dst, n);
    bool src_ok = in->op == KIT_CG_OP_MEMSET || asan_provably_safe(A, src, n);
    if (dst_ok && src_ok) return true;
    /* A small power-of-two copy is a load and a store once LLVM expands it, as
     * clang sees union and struct copies after SROA: checked inline, not in
     * __asan_memcpy. */
    if (!A->c->check_addr && (n == 1 || n == 2 || n == 4 || n == 8 || n == 16)) {
      if (!src_ok) asan_check_access(A, src, n, false);
      if (!dst_ok) asan_check_access(A, dst, n, true);
      return true;
    }
  }
  if (A->c->check_addr) {
    if (in->op != KIT_CG_OP_MEMSET) check_range(A, check_address(A, src), len, false);
    check_range(A, check_address(A, dst), len, true);
    return true;
  }
  if (in->op == KIT_CG_OP_MEMSET) {
    KitCgVal c = asan_emit(A, KIT_CG_OP_ZEXT, KIT_CG_I32, &src, 1)->id;
    KitCgType p[3] = {KIT_CG_PTR, KIT_CG_I32, KIT_CG_I64};
    KitCgVal args[3] = {dst, c, len};
    asan_call(A, kit_pass_runtime_fn(A->m, "__asan_memset", KIT_CG_PTR, p, 3, false), KIT_CG_PTR, args, 3);
  } else {
    KitCgType p[3] = {KIT_CG_PTR, KIT_CG_PTR, KIT_CG_I64};
    KitCgVal args[3] = {dst, src, len};
    const char *name = in->op == KIT_CG_OP_MEMCPY ? "__asan_memcpy" : "__asan_memmove";
    asan_call(A, kit_pass_runtime_fn(A->m, name, KIT_CG_PTR, p, 3, false), KIT_CG_PTR, args, 3);
  }
  return false;
}
