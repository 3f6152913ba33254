/* emu/translate.c — translation of guest instructions into a CG block
 * function: the arch's lift through the memory seam, tool shims in the
 * block's prologue and epilogue, the exits (chained or not: chain.c), the
 * loop back to a region's blocks, then the pass pipeline. Called on the JIT
 * worker too. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "instrument.h"
#include "translate.h"

typedef struct Xlate {
  KitEmuSeam seam; /* first: the seam's callbacks take env->user as theirs */
  int mode;
  /* loops: an exit to the block's own pc branches back to `head` (its
   * entry check) instead of leaving the function */
  bool loops;
  KitCgBlkId head;
  uint64_t head_pc;
  /* a region (kit_emu_region): its blocks after the first, where they start
   * in the function, and the one being lifted */
  unsigned nmembers, cur;
  uint64_t member_pc[REGION_MAX_MEMBERS];
  KitCgBlkId member[REGION_MAX_MEMBERS];
  KitEmu *emu;
} Xlate;

/* an exit to pc: back to the head when it is the block's own start, to the
 * block of the region that starts there (through a signal check when the
 * branch goes back: every cycle passes one) */
static bool loop_back(Xlate *x, KitCgBuilder *b, uint64_t pc) {
  if (!x->loops) return false;
  if (pc == x->head_pc) {
    kit_cg_br(b, x->head);
    return true;
  }
  for (unsigned j = 0; j < x->nmembers; j++) {
    if (x->member_pc[j] != pc) continue;
    if (j + 1 > x->cur) kit_cg_br(b, x->member[j]); /* forward (member j is block j + 1 of the region) */
    else kit_emu_emit_stop_check(b, x->seam.cpu, pc, x->member[j]);
    return true;
  }
  return false;
}

static void side_exit(KitLiftEnv *env, KitCgBuilder *b, uint64_t next);

/* the block's end when it may chain: one slot per static target (the
 * taken and the fall-through side of a branch); indirect jumps look up */
static bool static_exit(KitEmu *emu, Xlate *x, KitCgBuilder *b, KitCgVal cpu, uint64_t to) {
  if (loop_back(x, b, to)) return true;
  KitEmuExit *s = kit_tcache_exit_new(emu->tc, to);
  if (!s) return false;
  kit_emu_emit_exit(b, cpu, s);
  return true;
}

/* the condition the lifter reported for the branch that ends the block,
 * compared again here so that the compare feeds the branch directly (the
 * block's stores came between); else next == target */
static KitCgVal taken_cond(KitCgBuilder *b, const KitLiftBranch *br, KitCgVal next, const KitDecodedInsn *last) {
  if (br->kind == KIT_LIFT_END_COND && br->target == last->target) return kit_cg_cmp(b, br->pred, br->lhs, br->rhs);
  return kit_cg_cmp(b, KIT_CG_EQ, next, kit_cg_iconst(b, KIT_CG_I64, last->target));
}

static bool emit_chain_exits(KitEmu *emu, Xlate *x, KitCgBuilder *b, KitCgVal cpu, KitCgVal next,
                             const KitDecodedInsn *last) {
  if (last->flags & KIT_DECODE_INDIRECT) {
    kit_emu_emit_indirect_exit(b, cpu, next);
    return true;
  }
  if (!(last->flags & KIT_DECODE_BRANCH) || !last->target) {
    /* a direct jump's target, or the fall-through of what ends the block */
    uint64_t to = last->target && (last->flags & KIT_DECODE_JUMP)  ? last->target
                  : !(last->flags & KIT_DECODE_TERMINATOR) ? last->pc + last->len
                                                            : 0;
    if (!to) { /* no static target: the dispatcher goes on at the pc returned */
      kit_cg_ret(b, next);
      return true;
    }
    return static_exit(emu, x, b, cpu, to);
  }
  KitCgBlkId taken = kit_cg_block_new(b->m, b->f), fall = kit_cg_block_new(b->m, b->f);
  kit_cg_condbr(b, taken_cond(b, &x->seam.env.branch, next, last), taken, fall);
  kit_cg_builder_at(b, taken);
  if (!static_exit(emu, x, b, cpu, last->target)) return false;
  kit_cg_builder_at(b, fall);
  return static_exit(emu, x, b, cpu, last->pc + last->len);
}

/* what a translation is for: tier 0, or LLVM with chaining off, or LLVM
 * with chaining (entry check; CHAIN_OUT: exits jump on too) */
enum { FOR_TIER0, FOR_JIT, FOR_JIT_CHAIN_IN, FOR_JIT_CHAIN_OUT };

static KitCgFunc *translate_insns(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n,
                                  const char *name, FILE *err, int mode);

KitCgFunc *kit_emu_translate_insns(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n,
                                   FILE *err) {
  char name[48];
  snprintf(name, sizeof name, "emu_block_%" PRIx64, insns[0].pc);
  return translate_insns(emu, m, insns, n, name, err, FOR_TIER0);
}

KitCgFunc *kit_emu_translate_jit(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n, const char *name,
                                  FILE *err) {
  const KitDecodedInsn *last = &insns[n - 1];
  int mode = !kit_emu_chaining(emu) ? FOR_JIT
             : last->flags & (KIT_DECODE_SYSCALL | KIT_DECODE_TRAP | KIT_DECODE_ILLEGAL | KIT_DECODE_FENCE_I)
                 ? FOR_JIT_CHAIN_IN
                 : FOR_JIT_CHAIN_OUT;
  return translate_insns(emu, m, insns, n, name, err, mode);
}

/* where a host fault finds the block it stopped, chained LLVM blocks too */
static void store_block_pc(KitCgBuilder *b, KitCgVal cpu, uint64_t pc) {
  kit_cg_store(b, kit_cg_iconst(b, KIT_CG_I64, pc), kit_emu_cg_thread_field(b, cpu, offsetof(KitEmuThread, block_pc)), 8,
               KIT_CG_INTERNAL);
}

/* the function's start: the loop head, the block pc, the entry check */
static void prologue(KitEmu *emu, Xlate *x, KitCgBuilder *b, const KitDecodedInsn *insns) {
  KitCgVal cpu = x->seam.cpu;
  /* a block that leads back to its own start loops inside its function
   * (through the entry check, so signals still stop it) */
  x->loops = x->mode == FOR_JIT_CHAIN_OUT && !emu->opt.single_step;
  if (x->loops) {
    x->head = kit_cg_block_new(b->m, b->f);
    x->head_pc = insns[0].pc;
    kit_cg_br(b, x->head);
    kit_cg_builder_at(b, x->head);
  }
  store_block_pc(b, cpu, insns[0].pc);
  if (x->mode >= FOR_JIT_CHAIN_IN) kit_emu_emit_entry_check(b, cpu, insns[0].pc);
}

/* a region's blocks (kit_emu_region) are lifted one after the other, each
 * from its own CG block, with branches between them: where each starts in
 * insns (starts[k] = n); returns their count */
static unsigned region_members(Xlate *x, KitCgBuilder *b, const KitDecodedInsn *insns, unsigned n,
                               unsigned starts[REGION_MAX_MEMBERS + 2]) {
  unsigned k = 1;
  starts[0] = 0;
  for (unsigned i = 1; x->loops && i < n && k <= REGION_MAX_MEMBERS; i++)
    if (insns[i].flags & KIT_DECODE_REGION_MEMBER) {
      x->member_pc[k - 1] = insns[i].pc;
      x->member[k - 1] = kit_cg_block_new(b->m, b->f);
      starts[k++] = i;
    }
  starts[k] = n;
  x->nmembers = k - 1;
  return k;
}

/* ---- the tools' instrumentation (instrument.c's records) as code ------------------------- */

static void call_list(KitCgBuilder *b, const char *helper, const KitEmuCbList *l) {
  if (!l->n) return;
  KitCgType pt[1] = {KIT_CG_PTR};
  KitCgVal a[1] = {kit_emu_cg_host_ptr(b, l)};
  kit_emu_call_helper(b, helper, KIT_CG_VOID, pt, a, 1);
}

/* the running guest thread's number, from its block */
static KitCgVal vcpu_of(const Xlate *x, KitCgBuilder *b) {
  return kit_cg_load(b, KIT_CG_I32, kit_emu_cg_thread_field(b, x->seam.cpu, offsetof(KitEmuThread, vcpu)), 4,
                     KIT_CG_INTERNAL);
}

/* a call of a tool's own function fn, straight from the code (the resolver
 * reads the address back from the name) */
static void call_direct(KitCgBuilder *b, const void *fn, const KitCgType *pt, const KitCgVal *a, uint32_t n) {
  char name[48];
  snprintf(name, sizeof name, KIT_EMU_DIRECT_CALL_PREFIX "%" PRIxPTR, (uintptr_t)fn);
  kit_emu_call_helper(b, name, KIT_CG_VOID, pt, a, n);
}

/* execution callbacks: one tool's a direct call of its function with its
 * constants (no list to walk), several tools' one call of the helper that
 * walks theirs */
static void exec_calls(const Xlate *x, KitCgBuilder *b, const KitEmuCbList *l) {
  if (l->n != 1) {
    call_list(b, "kit_emu_tool_exec", l);
    return;
  }
  KitCgType pt[3] = {KIT_CG_PTR, KIT_CG_I32, KIT_CG_PTR};
  KitCgVal a[3] = {kit_emu_cg_host_ptr(b, x->emu), vcpu_of(x, b), kit_emu_cg_host_ptr(b, l->cb[0].user)};
  call_direct(b, (const void *)l->cb[0].fn.exec, pt, a, 3);
}

/* a counter's address: a per-thread one relative to the CPU pointer (one
 * addressing mode for the baseline compiler's add, no 64-bit constant), a
 * shared one a constant */
static KitCgVal counter_ptr(const Xlate *x, KitCgBuilder *b, const KitEmuCb *c) {
  if (c->addr) return kit_emu_cg_host_ptr(b, c->addr);
  KitEmuThread *t = x->emu->threads[0];
  size_t area = (size_t)(t->tool_area - (uint8_t *)t);
  return kit_emu_cg_thread_field(b, x->seam.cpu, area + c->area_off);
}

/* the start of a PUSH cursor's scoreboard entry (a shared cursor: itself) */
static KitCgVal entry_ptr(const Xlate *x, KitCgBuilder *b, const KitEmuCb *c) {
  if (c->addr) return kit_emu_cg_host_ptr(b, c->addr);
  KitEmuThread *t = x->emu->threads[0];
  size_t area = (size_t)(t->tool_area - (uint8_t *)t);
  return kit_emu_cg_thread_field(b, x->seam.cpu, area + c->base_off);
}

static bool same_counter(const KitEmuCb *a, const KitEmuCb *c) {
  return a->addr == c->addr && a->area_off == c->area_off;
}

/* inline ops l[0..n): no call. A run of PUSHes to one cursor is one load
 * and one store of it, a store per word between. Returns how many it
 * emitted (>= 1). */
static uint32_t inline_ops(const Xlate *x, KitCgBuilder *b, const KitEmuCb *l, uint32_t n) {
  const KitEmuCb *c = &l[0];
  KitCgVal p = counter_ptr(x, b, c);
  if (c->op == KIT_EMU_INLINE_PUSH) {
    uint32_t k = 1;
    while (k < n && l[k].op == KIT_EMU_INLINE_PUSH && same_counter(&l[k], c)) k++;
    KitCgVal off = kit_cg_load(b, KIT_CG_I64, p, 8, KIT_CG_INTERNAL);
    KitCgVal at = kit_cg_ptradd(b, entry_ptr(x, b, c), off);
    for (uint32_t i = 0; i < k; i++)
      kit_cg_store(b, kit_cg_iconst(b, KIT_CG_I64, l[i].imm), i ? kit_cg_ptradd(b, at, kit_cg_iconst(b, KIT_CG_I64, 8 * i)) : at,
                   8, KIT_CG_INTERNAL);
    kit_cg_store(b, kit_cg_binop(b, KIT_CG_OP_ADD, off, kit_cg_iconst(b, KIT_CG_I64, 8 * k)), p, 8, KIT_CG_INTERNAL);
    return k;
  }
  KitCgVal v = kit_cg_iconst(b, KIT_CG_I64, c->imm);
  if (c->op == KIT_EMU_INLINE_ADD) v = kit_cg_binop(b, KIT_CG_OP_ADD, kit_cg_load(b, KIT_CG_I64, p, 8, KIT_CG_INTERNAL), v);
  kit_cg_store(b, v, p, 8, KIT_CG_INTERNAL);
  return 1;
}
static void inline_op(const Xlate *x, KitCgBuilder *b, const KitEmuCb *c) { inline_ops(x, b, c, 1); }

/* conditional callbacks: the compare inline, the call only when it holds */
static void cond_calls(const Xlate *x, KitCgBuilder *b, const KitEmuCbList *l) {
  static const KitCgPred pred[] = {KIT_CG_EQ, KIT_CG_NE, KIT_CG_ULT, KIT_CG_ULE, KIT_CG_UGT, KIT_CG_UGE};
  for (uint32_t i = 0; i < l->n; i++) {
    const KitEmuCb *c = &l->cb[i];
    KitCgVal v = kit_cg_load(b, KIT_CG_I64, counter_ptr(x, b, c), 8, KIT_CG_INTERNAL);
    KitCgVal hit = kit_cg_cmp(b, pred[c->op], v, kit_cg_iconst(b, KIT_CG_I64, c->imm));
    KitCgBlkId call = kit_cg_block_new(b->m, b->f), on = kit_cg_block_new(b->m, b->f);
    kit_cg_condbr(b, hit, call, on);
    kit_cg_builder_at(b, call);
    KitCgType pt[1] = {KIT_CG_PTR};
    KitCgVal a[1] = {kit_emu_cg_host_ptr(b, c)};
    kit_emu_call_helper(b, "kit_emu_tool_cond", KIT_CG_VOID, pt, a, 1);
    kit_cg_br(b, on);
    kit_cg_builder_at(b, on);
  }
}

/* a block's entry (of a trace's or region's blocks, each one's): its inline
 * ops, its instructions' ADDs summed per counter (taken back on a fault:
 * kit_emu_instr_fault), its conditional and plain callbacks */
static void tb_entry(const Xlate *x, KitCgBuilder *b, const KitDecodedInsn *seq, unsigned i, unsigned sn) {
  const KitEmuTbRec *r = seq[i].instr->tb;
  for (uint32_t k = 0; k < r->inl.n;) k += inline_ops(x, b, &r->inl.cb[k], r->inl.n - k);
  KitEmuCb acc[16]; /* one ADD per counter, imm the sum */
  unsigned nacc = 0;
  for (unsigned j = i; j < sn && j < i + r->ninsns; j++) {
    const KitEmuInstr *e = seq[j].instr;
    if (!e || e->tb != r || !e->has_add) continue;
    for (uint32_t k = 0; k < e->inl.n; k++) {
      const KitEmuCb *c = &e->inl.cb[k];
      if (c->op != KIT_EMU_INLINE_ADD) continue;
      unsigned a = 0;
      while (a < nacc && (acc[a].addr != c->addr || acc[a].area_off != c->area_off)) a++;
      if (a == nacc) {
        if (nacc == 16) { /* more counters than that: the rest one by one */
          inline_op(x, b, c);
          continue;
        }
        acc[nacc++] = (KitEmuCb){.addr = c->addr, .area_off = c->area_off, .op = KIT_EMU_INLINE_ADD};
      }
      acc[a].imm += c->imm;
    }
  }
  for (unsigned a = 0; a < nacc; a++) inline_op(x, b, &acc[a]);
  cond_calls(x, b, &r->cond);
  exec_calls(x, b, &r->exec);
}

static bool instr_before(const KitDecodedInsn *seq, unsigned i) {
  const KitEmuInstr *e = seq[i].instr;
  if (!e) return false;
  if (e->index == 0 || e->exec.n || e->cond.n) return true;
  for (uint32_t k = 0; k < e->inl.n; k++)
    if (e->inl.cb[k].op != KIT_EMU_INLINE_ADD) return true;
  return false;
}

/* before instruction i: its block's entry when it starts one, then its own
 * stores, conditional and plain callbacks (the CPU state flushed, and the pc
 * stored when something is called) */
static void emit_before(Xlate *x, KitCgBuilder *b, const KitDecodedInsn *seq, unsigned i, unsigned sn) {
  const KitEmuInstr *e = seq[i].instr;
  bool calls = e->exec.n || e->cond.n || (e->index == 0 && (e->tb->exec.n || e->tb->cond.n));
  if (calls) kit_cg_store(b, kit_cg_iconst(b, KIT_CG_I64, seq[i].pc), x->seam.cpu, 8, KIT_CG_INTERNAL);
  if (e->index == 0) tb_entry(x, b, seq, i, sn);
  for (uint32_t k = 0; k < e->inl.n;) {
    if (e->inl.cb[k].op == KIT_EMU_INLINE_ADD) { /* summed at the block's entry */
      k++;
      continue;
    }
    uint32_t m = k + 1; /* the run of non-ADDs from k */
    while (m < e->inl.n && e->inl.cb[m].op != KIT_EMU_INLINE_ADD) m++;
    k += inline_ops(x, b, &e->inl.cb[k], m - k);
  }
  cond_calls(x, b, &e->cond);
  exec_calls(x, b, &e->exec);
}

static bool lift_run(KitEmu *emu, Xlate *x, KitCgBuilder *b, const KitDecodedInsn *seq, unsigned n, KitCgVal *next) {
  x->seam.insns = seq, x->seam.ninsns = n;
  return emu->arch->lift(&x->seam.env, b, x->seam.cpu, seq, n, next) >= 0;
}

/* the arch's lift of seq, split where a tool's instrumentation goes between
 * instructions; the next pc in *next */
static bool lift_seq(KitEmu *emu, Xlate *x, KitCgBuilder *b, const KitDecodedInsn *seq, unsigned sn, KitCgVal *next) {
  unsigned start = 0;
  for (unsigned i = 0; i < sn; i++) {
    const KitEmuInstr *e = seq[i].instr;
    if (!e) continue;
    if (instr_before(seq, i)) {
      if (i > start && !lift_run(emu, x, b, seq + start, i - start, next)) return false;
      start = i;
      emit_before(x, b, seq, i, sn);
    }
    if (e->regw.n) { /* after it: the registers it wrote, flushed */
      if (!lift_run(emu, x, b, seq + start, i + 1 - start, next)) return false;
      start = i + 1;
      call_list(b, "kit_emu_tool_regw", &e->regw);
    }
  }
  return start == sn || lift_run(emu, x, b, seq + start, sn - start, next);
}

/* the block's end: the tools' edge callbacks, then the exits */
static bool epilogue(KitEmu *emu, Xlate *x, KitCgBuilder *b, KitCgVal next, const KitDecodedInsn *last, FILE *err) {
  const KitEmuInstr *e = last->instr;
  const KitEmuCbList *l = e && e->index + 1 == e->tb->ninsns ? &e->tb->edge : NULL;
  if (l && l->n == 1) { /* one tool's: a direct call, as exec_calls */
    const KitEmuCb *c = &l->cb[0];
    KitCgBlkId call = 0, on = 0;
    if (c->len) { /* the call only when the target is outside [lo, lo + len) */
      KitCgVal off = kit_cg_binop(b, KIT_CG_OP_SUB, next, kit_cg_iconst(b, KIT_CG_I64, c->lo));
      call = kit_cg_block_new(b->m, b->f), on = kit_cg_block_new(b->m, b->f);
      kit_cg_condbr(b, kit_cg_cmp(b, KIT_CG_UGE, off, kit_cg_iconst(b, KIT_CG_I64, c->len)), call, on);
      kit_cg_builder_at(b, call);
    }
    KitCgType pt[6] = {KIT_CG_PTR, KIT_CG_I32, KIT_CG_I64, KIT_CG_I64, KIT_CG_I32, KIT_CG_PTR};
    KitCgVal a[6] = {kit_emu_cg_host_ptr(b, emu), vcpu_of(x, b), kit_cg_iconst(b, KIT_CG_I64, l->pc),
                     next, kit_cg_iconst(b, KIT_CG_I32, l->kind), kit_emu_cg_host_ptr(b, c->user)};
    call_direct(b, (const void *)c->fn.edge, pt, a, 6);
    if (c->len) {
      kit_cg_br(b, on);
      kit_cg_builder_at(b, on);
    }
  } else if (l && l->n) {
    KitCgType pt[2] = {KIT_CG_PTR, KIT_CG_I64};
    KitCgVal a[2] = {kit_emu_cg_host_ptr(b, l), next};
    kit_emu_call_helper(b, "kit_emu_tool_edge", KIT_CG_VOID, pt, a, 2);
  }
  if (x->mode != FOR_JIT_CHAIN_OUT) {
    kit_cg_ret(b, next);
    return true;
  }
  if (emit_chain_exits(emu, x, b, x->seam.cpu, next, last)) return true;
  fprintf(err, "kit-emu: out of memory for exit slots\n");
  return false;
}

/* the pass pipeline, and the verifier (it checks the lifter, not the
 * guest: only under -d; it was ~5% of a tier-0 start-up) */
static bool run_passes(KitEmu *emu, KitCgModule *m, KitCgFunc *f, uint64_t pc, FILE *err) {
  for (unsigned i = 0; i < emu->npasses; i++)
    if (emu->passes[i].fn(emu->passes[i].user, m, f) != 0) {
      fprintf(err, "kit-emu: a pass refused the block at 0x%" PRIx64 "\n", pc);
      return false;
    }
  if ((emu->opt.debug & ~(KIT_EMU_DEBUG_STATS | KIT_EMU_DEBUG_PERFMAP)) && kit_cg_verify(m, err) != 0) {
    fprintf(err, "kit-emu: internal error: lifted block at 0x%" PRIx64 " does not verify\n", pc);
    return false;
  }
  return true;
}

static KitCgFunc *translate_insns(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n,
                                  const char *name, FILE *err, int mode) {
  /* jitted blocks with chaining also take the exit slot they are entered
   * through (for kit_emu_exit_stub) */
  KitCgType pt[2] = {KIT_CG_PTR, KIT_CG_PTR};
  KitCgFunc *f = kit_cg_func_declare(m, name, KIT_CG_I64, pt, mode >= FOR_JIT_CHAIN_IN ? 2 : 1, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_builder_at(&b, kit_cg_block_new(m, f));
  b.loc = (KitCgLoc){.pc = insns[0].pc};
  const void *repl = kit_emu_instr_replaced(emu, insns[0].pc);
  if (repl) { /* a tool's function instead of the guest's */
    KitCgType rt[3] = {KIT_CG_PTR, KIT_CG_I64, KIT_CG_PTR};
    KitCgVal ra[3] = {kit_cg_param(f, 0), kit_cg_iconst(&b, KIT_CG_I64, insns[0].pc), kit_emu_cg_host_ptr(&b, repl)};
    kit_cg_ret(&b, kit_emu_call_helper(&b, "kit_emu_tool_replaced", KIT_CG_I64, rt, ra, 3));
    return run_passes(emu, m, f, insns[0].pc, err) ? f : NULL;
  }
  Xlate x = {.mode = mode, .emu = emu};
  kit_emu_seam_init(&x.seam, emu, kit_cg_param(f, 0));
  x.seam.env.exit = side_exit;
  x.seam.env.pc_at_exits = mode == FOR_JIT_CHAIN_OUT;
  prologue(emu, &x, &b, insns);
  unsigned starts[REGION_MAX_MEMBERS + 2];
  unsigned k = region_members(&x, &b, insns, n, starts);
  for (unsigned j = 0; j < k; j++) {
    const KitDecodedInsn *seq = insns + starts[j];
    unsigned sn = starts[j + 1] - starts[j];
    x.cur = j;
    if (j) {
      kit_cg_builder_at(&b, x.member[j - 1]);
      b.loc = (KitCgLoc){.pc = seq[0].pc};
      store_block_pc(&b, x.seam.cpu, seq[0].pc);
    }
    KitCgVal next = 0;
    if (!lift_seq(emu, &x, &b, seq, sn, &next)) {
      fprintf(err, "kit-emu: cannot lift the block at 0x%" PRIx64 "\n", insns[0].pc);
      return NULL;
    }
    if (!epilogue(emu, &x, &b, next, &seq[sn - 1], err)) return NULL;
  }
  kit_emu_seam_finish(&x.seam, &b);
  return run_passes(emu, m, f, insns[0].pc, err) ? f : NULL;
}

/* a side exit of a trace (KitLiftEnv.exit): back into the loop when it has
 * one there, through its own slot when the block chains, else back to the
 * dispatcher */
static void side_exit(KitLiftEnv *env, KitCgBuilder *b, uint64_t next) {
  Xlate *x = env->user;
  if (loop_back(x, b, next)) return;
  KitEmuExit *slot = x->mode == FOR_JIT_CHAIN_OUT ? kit_tcache_exit_new(x->seam.emu->tc, next) : NULL;
  if (slot) kit_emu_emit_exit(b, x->seam.cpu, slot);
  else kit_cg_ret(b, kit_cg_iconst(b, KIT_CG_I64, next));
}

bool kit_emu_block_lift(KitEmu *emu, KitEmuBlock *blk) {
  if (blk->f) return true;
  char mname[48];
  snprintf(mname, sizeof mname, "block_%" PRIx64, blk->pc);
  blk->m = kit_cg_module_new(mname);
  blk->f = kit_emu_translate_insns(emu, blk->m, blk->insns, blk->ninsns, emu->log);
  if (blk->f) {
    emu->stats.tier0_lifts++;
    return true;
  }
  kit_cg_module_free(blk->m);
  blk->m = NULL;
  return false;
}
