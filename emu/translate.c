/* emu/translate.c — translation of guest instructions into a CG block
 * function: the arch's lift through the memory seam, tool shims in the
 * block's prologue and epilogue, the exits (chained or not: chain.c), the
 * loop back to a region's blocks, then the pass pipeline. Called on the JIT
 * worker too. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"

/* ---- tool shims lifted code calls ------------------------------------------------- */

void kit_emu_tool_block_entry(int64_t pc, int32_t n) {
  KitEmu *emu = kit_emu_current;
  emu->hooks.on_block_entry(emu->hooks.user, emu, (uint64_t)pc, (uint32_t)n);
}

void kit_emu_tool_insn_retire(void *insn) {
  KitEmu *emu = kit_emu_current;
  const KitDecodedInsn *in = insn;
  emu->hooks.on_insn_retire(emu->hooks.user, emu, in->pc, in);
}

void kit_emu_tool_branch(int64_t from, int64_t to, int32_t kind) {
  KitEmu *emu = kit_emu_current;
  emu->hooks.on_branch(emu->hooks.user, emu, (uint64_t)from, (uint64_t)to, (KitEmuEdgeKind)kind);
}

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
    else kit_emu_emit_stop_check(x->emu, b, x->seam.cpu, pc, x->member[j]);
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
    kit_emu_emit_indirect_exit(emu, b, cpu, next);
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
static void store_block_pc(KitEmu *emu, KitCgBuilder *b, KitCgVal cpu, uint64_t pc) {
  kit_cg_store(b, kit_cg_iconst(b, KIT_CG_I64, pc), kit_emu_cg_emu_field(emu, b, cpu, &emu->block_pc), 8,
               KIT_CG_INTERNAL);
}

/* the function's start: the loop head, the block pc, the entry check, the
 * block-entry shim */
static void prologue(KitEmu *emu, Xlate *x, KitCgBuilder *b, const KitDecodedInsn *insns, unsigned n) {
  KitCgVal cpu = x->seam.cpu;
  /* a block that leads back to its own start loops inside its function
   * (through the entry check, so signals still stop it) */
  x->loops = x->mode == FOR_JIT_CHAIN_OUT && !emu->watch_flow && !emu->opt.single_step;
  if (x->loops) {
    x->head = kit_cg_block_new(b->m, b->f);
    x->head_pc = insns[0].pc;
    kit_cg_br(b, x->head);
    kit_cg_builder_at(b, x->head);
  }
  store_block_pc(emu, b, cpu, insns[0].pc);
  if (x->mode >= FOR_JIT_CHAIN_IN) kit_emu_emit_entry_check(emu, b, cpu, insns[0].pc);
  if (emu->hooks.on_block_entry) {
    KitCgType bt[2] = {KIT_CG_I64, KIT_CG_I32};
    KitCgVal ba[2] = {kit_cg_iconst(b, KIT_CG_I64, insns[0].pc), kit_cg_iconst(b, KIT_CG_I32, n)};
    kit_emu_call_helper(b, "kit_emu_tool_block_entry", KIT_CG_VOID, bt, ba, 2);
  }
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

/* the arch's lift of seq, with the retire shim after each instruction when
 * a tool wants it; the next pc in *next */
static bool lift_seq(KitEmu *emu, Xlate *x, KitCgBuilder *b, const KitDecodedInsn *seq, unsigned sn, KitCgVal *next) {
  KitEmuSeam *sp = &x->seam;
  const KitEmuToolHooks *h = &emu->hooks;
  if (!(h->on_insn_retire && h->want_insn_retire)) return emu->arch->lift(&sp->env, b, sp->cpu, seq, sn, next) >= 0;
  for (unsigned i = 0; i < sn; i++) {
    if (emu->arch->lift(&sp->env, b, sp->cpu, &seq[i], 1, next) < 0) return false;
    KitCgType rt[1] = {KIT_CG_PTR};
    KitCgVal ra[1] = {kit_cg_conv(b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR,
                                  kit_cg_iconst(b, KIT_CG_I64, (uint64_t)(uintptr_t)&seq[i]))};
    kit_emu_call_helper(b, "kit_emu_tool_insn_retire", KIT_CG_VOID, rt, ra, 1);
  }
  return true;
}

/* the block's end: the branch shim, then the exits */
static bool epilogue(KitEmu *emu, Xlate *x, KitCgBuilder *b, KitCgVal next, const KitDecodedInsn *last, FILE *err) {
  if ((last->flags & (KIT_DECODE_BRANCH | KIT_DECODE_JUMP | KIT_DECODE_CALL | KIT_DECODE_RET)) &&
      kit_emu_wants_edge(emu, kit_emu_edge_kind(last->flags))) {
    KitCgType bt[3] = {KIT_CG_I64, KIT_CG_I64, KIT_CG_I32};
    KitCgVal ba[3] = {kit_cg_iconst(b, KIT_CG_I64, last->pc), next,
                      kit_cg_iconst(b, KIT_CG_I32, (uint64_t)kit_emu_edge_kind(last->flags))};
    kit_emu_call_helper(b, "kit_emu_tool_branch", KIT_CG_VOID, bt, ba, 3);
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
  Xlate x = {.mode = mode, .emu = emu};
  kit_emu_seam_init(&x.seam, emu, kit_cg_param(f, 0));
  x.seam.env.exit = side_exit;
  x.seam.env.pc_at_exits = mode == FOR_JIT_CHAIN_OUT;
  prologue(emu, &x, &b, insns, n);
  unsigned starts[REGION_MAX_MEMBERS + 2];
  unsigned k = region_members(&x, &b, insns, n, starts);
  for (unsigned j = 0; j < k; j++) {
    const KitDecodedInsn *seq = insns + starts[j];
    unsigned sn = starts[j + 1] - starts[j];
    x.cur = j;
    if (j) {
      kit_cg_builder_at(&b, x.member[j - 1]);
      b.loc = (KitCgLoc){.pc = seq[0].pc};
      store_block_pc(emu, &b, x.seam.cpu, seq[0].pc);
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
