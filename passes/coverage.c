/* passes/coverage.c — SanitizerCoverage over CG (-fsanitize-coverage=), with
 * clang's callback names and section conventions so user-written callbacks
 * and the sancov tooling work: per instrumented block a guard in
 * __sancov_guards (trace-pc-guard), an 8-bit counter in __sancov_cntrs
 * (inline-8bit-counters), a flag in __sancov_bools (inline-bool-flag), a
 * {pc, flags} pair in __sancov_pcs (pc-table), or a plain
 * __sanitizer_cov_trace_pc() call; a module constructor hands each section's
 * bounds to the *_init callbacks. trace-cmp / trace-div / trace-gep call the
 * __sanitizer_cov_trace_* hooks before comparisons, switches, divisions and
 * variable pointer offsets. Works on compiled and lifted code alike. */
#include <stdio.h>
#include <string.h>

#include "kit/passes.h"

typedef struct Cov {
  KitCgModule *m;
  KitCgFunc *f;
  uint32_t opts; /* KIT_COV_* */
  KitCgBuilder b;
  /* one array per function for each kind, like clang */
  KitCgSym guards, cntrs, bools, pcs;
  uint32_t npoints;
  bool any[4]; /* a section was emitted: guards, cntrs, bools, pcs */
  uint8_t *is_const; /* per value id of the function as it came: defined by CONST */
  uint32_t nvals;
} Cov;

enum { SEC_GUARDS, SEC_CNTRS, SEC_BOOLS, SEC_PCS };
static const char *const sec_name[] = {"__sancov_guards", "__sancov_cntrs", "__sancov_bools", "__sancov_pcs"};
static const char *const sec_init[] = {"__sanitizer_cov_trace_pc_guard_init", "__sanitizer_cov_8bit_counters_init",
                                       "__sanitizer_cov_bool_flag_init", "__sanitizer_cov_pcs_init"};

static KitCgSym callee(KitCgModule *m, const char *name, const KitCgType *params, uint32_t n) {
  KitCgFunc *f = kit_cg_func_declare(m, name, KIT_CG_VOID, params, n, false);
  f->attrs |= KIT_CG_FA_NOUNWIND;
  return f->sym;
}

/* a call inserted at (blk, *pos); *pos moves past it */
static void call_at(Cov *C, KitCgBlkId blk, uint32_t *pos, KitCgSym fn, const KitCgVal *args, uint32_t n) {
  KitCgInst *in = kit_cg_insert(C->m, C->f, blk, (*pos)++, KIT_CG_OP_CALL, KIT_CG_VOID, args, n);
  in->aux = fn;
  in->flags |= KIT_CG_F_NOINSTR;
}

static KitCgInst *ins(Cov *C, KitCgBlkId blk, uint32_t *pos, KitCgOp op, KitCgType t, const KitCgVal *args,
                      uint32_t n) {
  KitCgInst *in = kit_cg_insert(C->m, C->f, blk, (*pos)++, op, t, args, n);
  in->flags |= KIT_CG_F_NOINSTR;
  if (kit_cg_op_info[op].flags & KIT_CGO_MEM) in->cls = KIT_CG_INTERNAL;
  return in;
}

static KitCgVal ins_const(Cov *C, KitCgBlkId blk, uint32_t *pos, KitCgType t, uint64_t v) {
  KitCgInst *in = ins(C, blk, pos, KIT_CG_OP_CONST, t, NULL, 0);
  in->imm = v;
  return in->id;
}

static KitCgVal ins_addr(Cov *C, KitCgBlkId blk, uint32_t *pos, KitCgSym s, int64_t off) {
  KitCgInst *in = ins(C, blk, pos, KIT_CG_OP_SYMADDR, KIT_CG_PTR, NULL, 0);
  in->aux = s;
  in->imm = (uint64_t)off;
  return in->id;
}

static KitCgSym section_array(Cov *C, int sec, uint64_t elem, uint32_t n, unsigned align) {
  char name[96];
  unsigned k = 0;
  do snprintf(name, sizeof name, "%s.%s.%u", sec_name[sec], kit_cg_func_name(C->m, C->f), k++);
  while (kit_cg_sym_find(C->m, name) != UINT32_MAX);
  KitCgGlobal *g = kit_cg_global_new(C->m, name, elem * n, align);
  g->section = kit_cg_str(C->m, sec_name[sec]);
  g->no_redzone = true;
  g->used = true; /* as clang's compiler.used: kept when no code reads it */
  C->m->syms[g->sym].linkage = KIT_CG_LINK_INTERNAL;
  C->any[sec] = true;
  return g->sym;
}

/* ---- per-block instrumentation ------------------------------------------------ */

static uint32_t first_non_phi(const KitCgBlock *bb) {
  uint32_t i = 0;
  while (i < bb->ninsts && bb->insts[i].op == KIT_CG_OP_PHI) i++;
  return i;
}

static void instrument_point(Cov *C, KitCgBlkId blk, uint32_t idx) {
  uint32_t pos = first_non_phi(&C->f->blocks[blk]);
  KitCgLoc loc = pos < C->f->blocks[blk].ninsts ? C->f->blocks[blk].insts[pos].loc : C->f->loc;
  uint32_t start = pos;
  if (C->opts & KIT_COV_TRACE_PC) {
    call_at(C, blk, &pos, callee(C->m, "__sanitizer_cov_trace_pc", NULL, 0), NULL, 0);
  }
  if (C->opts & KIT_COV_TRACE_PC_GUARD) {
    KitCgVal g = ins_addr(C, blk, &pos, C->guards, (int64_t)idx * 4);
    KitCgType p = KIT_CG_PTR;
    call_at(C, blk, &pos, callee(C->m, "__sanitizer_cov_trace_pc_guard", &p, 1), &g, 1);
  }
  if (C->opts & KIT_COV_INLINE_8BIT_COUNTERS) {
    KitCgVal a = ins_addr(C, blk, &pos, C->cntrs, idx);
    KitCgInst *ld = ins(C, blk, &pos, KIT_CG_OP_LOAD, KIT_CG_I8, &a, 1);
    ld->imm = 1;
    KitCgVal args[2] = {ld->id, ins_const(C, blk, &pos, KIT_CG_I8, 1)};
    KitCgVal inc = ins(C, blk, &pos, KIT_CG_OP_ADD, KIT_CG_I8, args, 2)->id;
    KitCgVal st[2] = {inc, a};
    ins(C, blk, &pos, KIT_CG_OP_STORE, KIT_CG_VOID, st, 2)->imm = 1;
  }
  if (C->opts & KIT_COV_INLINE_BOOL_FLAG) {
    KitCgVal a = ins_addr(C, blk, &pos, C->bools, idx);
    KitCgVal st[2] = {ins_const(C, blk, &pos, KIT_CG_I8, 1), a};
    ins(C, blk, &pos, KIT_CG_OP_STORE, KIT_CG_VOID, st, 2)->imm = 1;
  }
  for (uint32_t i = start; i < pos; i++) C->f->blocks[blk].insts[i].loc = loc;
}

/* ---- trace-cmp, trace-div, trace-gep -------------------------------------------- */

static bool is_const(Cov *C, KitCgVal v) { return v < C->nvals && C->is_const[v]; }

static void mark_consts(Cov *C) {
  C->nvals = C->f->nvals;
  C->is_const = kit_cg_alloc(C->m, C->nvals ? C->nvals : 1);
  for (KitCgBlkId b = 0; b < C->f->nblocks; b++)
    for (uint32_t i = 0; i < C->f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &C->f->blocks[b].insts[i];
      if (in->op == KIT_CG_OP_CONST && in->id < C->nvals) C->is_const[in->id] = 1;
    }
}

static void trace_cmp(Cov *C, KitCgBlkId blk, uint32_t *i) {
  KitCgInst in = C->f->blocks[blk].insts[*i];
  KitCgType t = kit_cg_val_type(C->f, in.args[0]);
  unsigned size = kit_cg_type_size(t);
  if (!kit_cg_type_is_int(t) || t == KIT_CG_I1 || t == KIT_CG_I128) return;
  KitCgVal a = in.args[0], b = in.args[1];
  bool c0 = is_const(C, a), c1 = is_const(C, b);
  if (c0 && c1) return;
  if (c1) { /* the constant goes first, as clang passes it */
    KitCgVal x = a;
    a = b;
    b = x;
  }
  char name[64];
  snprintf(name, sizeof name, "__sanitizer_cov_trace_%scmp%u", (c0 || c1) ? "const_" : "", size);
  KitCgType p[2] = {t, t};
  uint32_t pos = *i;
  KitCgVal args[2] = {a, b};
  call_at(C, blk, &pos, callee(C->m, name, p, 2), args, 2);
  C->f->blocks[blk].insts[pos - 1].loc = in.loc;
  *i = pos;
}

static void trace_switch(Cov *C, KitCgBlkId blk, uint32_t *i) {
  KitCgInst in = C->f->blocks[blk].insts[*i];
  KitCgType t = kit_cg_val_type(C->f, in.args[0]);
  if (!kit_cg_type_is_int(t) || t == KIT_CG_I128 || in.nblks < 2) return;
  uint32_t n = in.nblks - 1;
  /* {ncases, bits, case...} as u64, the layout __sanitizer_cov_trace_switch reads */
  char name[96];
  unsigned k = 0;
  do snprintf(name, sizeof name, "__sancov_gen_cov_switch_values.%u", k++);
  while (kit_cg_sym_find(C->m, name) != UINT32_MAX);
  KitCgGlobal *g = kit_cg_global_new(C->m, name, 8 * (n + 2), 8);
  uint64_t *vals = kit_cg_alloc(C->m, 8 * (n + 2));
  vals[0] = n;
  vals[1] = kit_cg_type_bits(t);
  for (uint32_t c = 0; c < n; c++) vals[2 + c] = (uint64_t)in.cases[c];
  kit_cg_global_set_init(C->m, g, vals, 8 * (n + 2));
  g->is_const = true;
  g->no_redzone = true;
  C->m->syms[g->sym].linkage = KIT_CG_LINK_INTERNAL;
  uint32_t pos = *i;
  KitCgVal v = in.args[0];
  if (t != KIT_CG_I64) v = ins(C, blk, &pos, KIT_CG_OP_ZEXT, KIT_CG_I64, &v, 1)->id;
  KitCgVal args[2] = {v, ins_addr(C, blk, &pos, g->sym, 0)};
  KitCgType p[2] = {KIT_CG_I64, KIT_CG_PTR};
  call_at(C, blk, &pos, callee(C->m, "__sanitizer_cov_trace_switch", p, 2), args, 2);
  *i = pos;
}

static void trace_div(Cov *C, KitCgBlkId blk, uint32_t *i) {
  KitCgInst in = C->f->blocks[blk].insts[*i];
  KitCgType t = (KitCgType)in.type;
  if ((t != KIT_CG_I32 && t != KIT_CG_I64) || is_const(C, in.args[1])) return;
  uint32_t pos = *i;
  KitCgVal d = in.args[1];
  call_at(C, blk, &pos, callee(C->m, t == KIT_CG_I32 ? "__sanitizer_cov_trace_div4" : "__sanitizer_cov_trace_div8", &t, 1),
          &d, 1);
  *i = pos;
}

static void trace_gep(Cov *C, KitCgBlkId blk, uint32_t *i) {
  KitCgInst in = C->f->blocks[blk].insts[*i];
  if (is_const(C, in.args[1])) return;
  uint32_t pos = *i;
  KitCgVal off = in.args[1];
  KitCgType p = KIT_CG_I64;
  call_at(C, blk, &pos, callee(C->m, "__sanitizer_cov_trace_gep", &p, 1), &off, 1);
  *i = pos;
}

static void trace_ops(Cov *C, KitCgBlkId blk) {
  for (uint32_t i = 0; i < C->f->blocks[blk].ninsts; i++) {
    KitCgInst *in = &C->f->blocks[blk].insts[i];
    if (in->flags & KIT_CG_F_NOINSTR) continue;
    switch (in->op) {
    case KIT_CG_OP_ICMP:
      if (C->opts & KIT_COV_TRACE_CMP) trace_cmp(C, blk, &i);
      break;
    case KIT_CG_OP_SWITCH:
      if (C->opts & KIT_COV_TRACE_CMP) trace_switch(C, blk, &i);
      break;
    case KIT_CG_OP_SDIV: case KIT_CG_OP_UDIV: case KIT_CG_OP_SREM: case KIT_CG_OP_UREM:
      if (C->opts & KIT_COV_TRACE_DIV) trace_div(C, blk, &i);
      break;
    case KIT_CG_OP_PTRADD:
      if (C->opts & KIT_COV_TRACE_GEP) trace_gep(C, blk, &i);
      break;
    default:
      break;
    }
  }
}

/* ---- functions and the module constructor ------------------------------------------- */

static bool wants_points(uint32_t o) {
  return o & (KIT_COV_TRACE_PC | KIT_COV_TRACE_PC_GUARD | KIT_COV_INLINE_8BIT_COUNTERS | KIT_COV_INLINE_BOOL_FLAG |
              KIT_COV_PC_TABLE);
}

/* edge granularity: a block on each critical edge (a branch with several
 * successors to a block with several predecessors), so every edge has a point */
static void split_critical_edges(Cov *C) {
  uint32_t n = C->f->nblocks;
  uint32_t *npred = kit_cg_alloc(C->m, n * sizeof *npred);
  for (KitCgBlkId b = 0; b < n; b++) {
    const KitCgBlkId *succ;
    uint32_t ns = kit_cg_block_succs(C->f, b, &succ);
    for (uint32_t k = 0; k < ns; k++) npred[succ[k]]++;
  }
  for (KitCgBlkId b = 0; b < n; b++) {
    KitCgBlock *bb = &C->f->blocks[b];
    if (!bb->ninsts) continue;
    KitCgInst *t = &bb->insts[bb->ninsts - 1];
    if ((t->op != KIT_CG_OP_CONDBR && t->op != KIT_CG_OP_SWITCH) || t->nblks < 2) continue;
    for (uint32_t k = 0; k < t->nblks; k++) {
      KitCgBlkId to = t->blks[k];
      bool repeated = false;
      for (uint32_t j = 0; j < t->nblks; j++) repeated |= j != k && t->blks[j] == to;
      if (npred[to] < 2 || repeated) continue;
      KitCgBlkId mid = kit_cg_block_new(C->m, C->f);
      KitCgBuilder b2;
      kit_cg_builder_init(&b2, C->m, C->f);
      kit_cg_builder_at(&b2, mid);
      b2.loc = t->loc;
      kit_cg_br(&b2, to);
      C->f->blocks[mid].insts[0].flags |= KIT_CG_F_NOINSTR;
      t = &C->f->blocks[b].insts[C->f->blocks[b].ninsts - 1]; /* blocks may have moved */
      t->blks[k] = mid;
      KitCgBlock *tb = &C->f->blocks[to];
      for (uint32_t i = 0; i < tb->ninsts && tb->insts[i].op == KIT_CG_OP_PHI; i++)
        for (uint32_t j = 0; j < tb->insts[i].nblks; j++)
          if (tb->insts[i].blks[j] == b) tb->insts[i].blks[j] = mid;
    }
  }
}

static void instrument_func(Cov *C) {
  if (C->opts & (KIT_COV_TRACE_CMP | KIT_COV_TRACE_DIV | KIT_COV_TRACE_GEP)) mark_consts(C);
  uint32_t nblocks = C->f->nblocks;
  for (KitCgBlkId bi = 0; bi < nblocks; bi++) trace_ops(C, bi);
  if (!wants_points(C->opts)) return;
  /* func: the entry block; bb: every block; edge (the default): every block
   * after the critical edges got their own */
  if (!(C->opts & (KIT_COV_FUNC | KIT_COV_BB))) split_critical_edges(C);
  nblocks = C->f->nblocks;
  uint32_t n = (C->opts & KIT_COV_FUNC) ? 1 : nblocks;
  C->guards = C->cntrs = C->bools = C->pcs = 0;
  if (C->opts & KIT_COV_TRACE_PC_GUARD) C->guards = section_array(C, SEC_GUARDS, 4, n, 4);
  if (C->opts & KIT_COV_INLINE_8BIT_COUNTERS) C->cntrs = section_array(C, SEC_CNTRS, 1, n, 1);
  if (C->opts & KIT_COV_INLINE_BOOL_FLAG) C->bools = section_array(C, SEC_BOOLS, 1, n, 1);
  if (C->opts & KIT_COV_PC_TABLE) {
    /* {pc, flags}: the function's address, flag 1, for its entry; other blocks
     * cannot be named in CG (no block addresses), so they carry the function's
     * address with flag 0 */
    KitCgGlobal *g;
    C->pcs = section_array(C, SEC_PCS, 16, n, 8);
    g = kit_cg_global_of(C->m, C->pcs);
    uint64_t *init = kit_cg_alloc(C->m, 16 * n);
    init[1] = 1;
    kit_cg_global_set_init(C->m, g, init, 16 * n);
    for (uint32_t k = 0; k < n; k++) kit_cg_global_add_reloc(C->m, g, 16 * k, C->f->sym, 0, 8);
  }
  for (uint32_t k = 0; k < n; k++) instrument_point(C, k, k);
  C->npoints += n;
}

static void module_ctor(Cov *C) {
  char name[64];
  unsigned k = 0;
  do snprintf(name, sizeof name, "sancov.module_ctor.%u", k++);
  while (kit_cg_sym_find(C->m, name) != UINT32_MAX);
  KitCgFunc *f = kit_cg_func_declare(C->m, name, KIT_CG_VOID, NULL, 0, false);
  kit_cg_func_set_linkage(C->m, f, KIT_CG_LINK_INTERNAL);
  f->attrs |= KIT_CG_FA_NOSANITIZE | KIT_CG_FA_NOUNWIND;
  KitCgBuilder b;
  kit_cg_builder_init(&b, C->m, f);
  kit_cg_builder_at(&b, kit_cg_block_new(C->m, f));
  for (int s = 0; s < 4; s++) {
    if (!C->any[s]) continue;
    char start[64], stop[64];
    snprintf(start, sizeof start, "__start_%s", sec_name[s]);
    snprintf(stop, sizeof stop, "__stop_%s", sec_name[s]);
    KitCgGlobal *g0 = kit_cg_global_declare(C->m, start), *g1 = kit_cg_global_declare(C->m, stop);
    C->m->syms[g0->sym].visibility = KIT_CG_VIS_HIDDEN;
    C->m->syms[g1->sym].visibility = KIT_CG_VIS_HIDDEN;
    KitCgVal args[2] = {kit_cg_symaddr(&b, g0->sym, 0), kit_cg_symaddr(&b, g1->sym, 0)};
    KitCgType p[2] = {KIT_CG_PTR, KIT_CG_PTR};
    kit_cg_call(&b, callee(C->m, sec_init[s], p, 2), KIT_CG_VOID, args, 2);
  }
  kit_cg_ret(&b, 0);
  kit_cg_add_ctor(C->m, f->sym, 2);
}

/* Instrument every function of m for the -fsanitize-coverage= options in opts. */
int kit_coverage_run(KitCgModule *m, uint32_t opts) {
  if (!opts) return 0;
  /* clang: trace-pc-guard etc. alone mean edge granularity; a granularity
   * alone means trace-pc-guard */
  if ((opts & (KIT_COV_FUNC | KIT_COV_BB | KIT_COV_EDGE)) && !wants_points(opts)) opts |= KIT_COV_TRACE_PC_GUARD;
  Cov C = {.m = m, .opts = opts};
  uint32_t nf = m->nfuncs;
  for (uint32_t k = 0; k < nf; k++) {
    KitCgFunc *f = m->funcs[k];
    if (kit_cg_func_is_decl(f) || (f->attrs & KIT_CG_FA_NOSANITIZE)) continue;
    /* the program's own callbacks must not call themselves */
    if (!strncmp(kit_cg_func_name(m, f), "__sanitizer_cov", 15)) continue;
    C.f = f;
    instrument_func(&C);
  }
  if (C.any[0] || C.any[1] || C.any[2] || C.any[3]) module_ctor(&C);
  return 0;
}
