/* emu/tier.c — the tiers stage's front (tier.h): which tier runs a block
 * and when a block moves up (the interpreter, then the baseline compiler
 * on its first run, LLVM once it is hot: tier_interp.c, tier_baseline.c,
 * tier_llvm.c), the tiers' state and figures. */
#include "tier_impl.h"

#include <stdlib.h>
#include <time.h>

bool kit_tier_jit_available(void) {
#ifdef KIT_EMU_HAVE_JIT
  return true;
#else
  return false;
#endif
}

uint64_t kit_tier_thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

KitEmuTierState *kit_tier_new(KitEmu *emu, KitCgResolver resolve) {
  KitEmuTierState *t = calloc(1, sizeof *t);
  t->emu = emu;
  t->resolve = resolve;
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
#ifdef KIT_EMU_HAVE_JIT
  /* single-step and tier 1 compile synchronously: their point is determinism.
   * The worker and the JIT are made when the first block gets hot. */
  t->worker_wanted = emu->opt.tier == KIT_EMU_TIER_AUTO && !emu->opt.single_step;
  /* not under tools: their hooks in the code point at the tier-1 copy of
   * the instructions, and blocks and edges are what they watch */
  t->tier2 = t->worker_wanted && !emu->opt.no_tier2;
#else
  t->jit_failed = emu->opt.tier != KIT_EMU_TIER_INTERP;
#endif
  /* the baseline compiler, unless a tier is forced: tool shims and pass
   * checks are CG calls like the rest of a block (what it declines, e.g.
   * a memory tool's checked accesses, goes to LLVM as before) */
  t->baseline = emu->opt.tier == KIT_EMU_TIER_AUTO && !emu->opt.no_baseline && !emu->opt.single_step;
  if (!emu->opt.jit_threshold) {
    emu->opt.jit_threshold = DEFAULT_THRESHOLD;
    t->warmup = DEFAULT_WARMUP;
  }
  return t;
}

void kit_tier_free(KitEmuTierState *t) {
  if (!t) return;
  kit_tier_llvm_free(t);
  kit_tier_baseline_free(t);
  free(t);
}

void kit_tier_stats(KitEmu *emu, KitEmuStats *out) {
  if (!emu->tier) return;
  out->jit_batches = atomic_load(&emu->tier->batches);
  out->jit_failures = atomic_load(&emu->tier->failures);
  out->jit_compile_ns = atomic_load(&emu->tier->compile_ns);
  out->blocks_tier2 = atomic_load(&emu->tier->tier2_blocks);
  out->blocks_baseline = emu->tier->baseline_blocks;
  out->baseline_declined = emu->tier->baseline_declined;
  out->baseline_ns = emu->tier->baseline_ns;
}

void kit_tier_after_fork(KitEmu *emu) {
  KitEmuTierState *t = emu->tier;
  t->worker_ok = false;
  t->worker_wanted = false;
  t->no_jit = true;
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
}

void kit_tier_take_code(KitEmu *emu, KitEmuBlock *b, int64_t (*code)(void *), KitDecodedInsn *insns, unsigned n,
                        unsigned tier) {
  b->code = code;
  free(b->code_insns);
  b->code_insns = insns;
  b->code_ninsns = n;
  for (unsigned i = 0; i < n; i++) /* a trace covers its other blocks' bytes too */
    kit_tcache_extend(emu->tc, b, insns[i].pc, insns[i].pc + insns[i].len);
  kit_emu_ev_code(emu, b->pc, tier, n);
}

uint64_t kit_tier_run(KitEmu *emu, KitEmuBlock *b, bool *compiled) {
  KitEmuTierState *t = emu->tier;
  if (!b->code && emu->opt.tier == KIT_EMU_TIER_JIT && !b->queued) kit_tier_llvm_take(emu, b);
  if (!b->code && emu->opt.tier == KIT_EMU_TIER_AUTO && !b->queued && t->baseline && !b->baseline_tried &&
      b->count + 1 >= BASELINE_RUNS) /* this run is compiled already */
    kit_tier_baseline_take(emu, b);
  *compiled = b->code != NULL;
  if (b->code) return (uint64_t)kit_emu_code(b->code)(kit_emu_cpu(emu), NULL);
  uint64_t next;
  if (!kit_tier_interp_run(emu, b, &next)) return next;
  if (emu->opt.tier == KIT_EMU_TIER_AUTO && !b->queued) {
    ++b->count;
    if ((!t->baseline || b->baseline_tried) && b->count >= emu->opt.jit_threshold) kit_tier_llvm_take(emu, b);
  }
  return next;
}
