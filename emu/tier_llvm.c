/* emu/tier_llvm.c — the LLVM tiers: blocks that reach the execution
 * threshold are queued, re-lifted in batches into one module per batch and
 * compiled by the LLVM JIT on a worker thread while the guest keeps running
 * below (results are installed at block boundaries unless an invalidation
 * happened meanwhile); tier 2: the idle worker samples the running block and
 * the hottest are compiled again as traces or regions with LLVM's full
 * register allocator. */
#include "tier_impl.h"

#include "jitload.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef KIT_EMU_HAVE_JIT

static int compile_batch(KitEmuTierState *t, Job *jobs, unsigned n) {
  uint64_t t0 = kit_tier_thread_cpu_ns();
  KitEmu *emu = t->emu;
  char name[32];
  snprintf(name, sizeof name, "jit_batch_%u", t->batch_seq++);
  /* LLVM is loaded and the JIT made here, on the first batch: start-up and
   * runs that never get hot do without it. No IR pipeline and the fast code
   * generator (opt 0): an IR pass costs more compile time than it saves in
   * run time (docs/emu.md, "Compile cost"); LLVM's verifier checks the
   * lowering, not the guest: in tests (--tier=1) and under -d (not stats or
   * perfmap, which measure) only. */
  int jit_flags = KIT_JIT_NO_UNWIND;
  if (emu->opt.tier != KIT_EMU_TIER_JIT && !(emu->opt.debug & ~(KIT_EMU_DEBUG_STATS | KIT_EMU_DEBUG_PERFMAP)))
    jit_flags |= KIT_JIT_NO_VERIFY;
  KitJit *jit;
  if (jobs[0].tier == 2) { /* the full register allocator, fast selection */
    if (!t->jit2 && !t->jit2_failed &&
        !(t->jit2 = kit_emu_jit_new(1 | KIT_JIT_FAST_ISEL | jit_flags, t->resolve, emu, emu->log)))
      t->jit2_failed = true;
    jit = t->jit2;
  } else {
    if (!t->jit && !(t->jit = kit_emu_jit_new(jit_flags, t->resolve, emu, emu->log))) t->jit_failed = true;
    jit = t->jit;
  }
  if (!jit) {
    for (unsigned i = 0; i < n; i++) jobs[i].fn = NULL;
    return -1;
  }
  KitCgModule *m = kit_cg_module_new(name);
  FILE *quiet = emu->log;
  char fname[BATCH_MAX][64];
  for (unsigned i = 0; i < n; i++) {
    snprintf(fname[i], sizeof fname[i], "emu_block_%llx_%u", (unsigned long long)jobs[i].pc, jobs[i].seq);
    if (!kit_emu_translate_jit(emu, m, jobs[i].insns, jobs[i].n, fname[i], quiet)) jobs[i].n = 0;
  }
  int rc = kit_emu_jit_add(jit, m, emu->log);
  if (rc != 0) { /* stay in the tier below rather than retry forever */
    if (jit == t->jit) t->jit_failed = true;
    else t->jit2_failed = true;
  }
  t->batches++;
  t->failures += rc != 0;
  for (unsigned i = 0; i < n; i++)
    jobs[i].fn = rc == 0 && jobs[i].n ? (int64_t (*)(void *))kit_emu_jit_lookup(jit, fname[i]) : NULL;
  kit_cg_module_free(m);
  t->compile_ns += kit_tier_thread_cpu_ns() - t0;
  return rc;
}

static Sample *samp_slot(KitEmuTierState *t, uint64_t pc) {
  uint32_t h = (uint32_t)((pc >> 1) * 0x9E3779B97F4A7C15ull >> 40) & (SAMP_CAP - 1);
  for (unsigned probe = 0; probe < 16; probe++) {
    Sample *s = &t->samp[(h + probe) & (SAMP_CAP - 1)];
    if (!s->pc || s->pc == pc) return s;
  }
  return NULL;
}

/* one sample of the block the guest runs, on the thread holding the
 * execution lock (mutex held; the worker is idle) */
static void sample(KitEmuTierState *t) {
  KitEmu *emu = t->emu;
  KitEmuThread *g = atomic_load(&emu->gil_holder);
  if (!g || !g->in_guest) return;
  uint64_t pc = __atomic_load_n(&g->block_pc, __ATOMIC_RELAXED);
  if (!pc) return;
  if (++t->nsamples % AGE_SAMPLES == 0) { /* halve, forget the cold */
    static Sample old[SAMP_CAP];
    memcpy(old, t->samp, sizeof old);
    memset(t->samp, 0, sizeof t->samp);
    for (unsigned i = 0; i < SAMP_CAP; i++) {
      uint32_t n = old[i].n == HOT_DONE ? HOT_DONE : old[i].n / 2;
      Sample *s = old[i].pc && n ? samp_slot(t, old[i].pc) : NULL;
      if (s) *s = (Sample){old[i].pc, n};
    }
  }
  Sample *s = samp_slot(t, pc);
  if (!s || s->n == HOT_DONE) return;
  s->pc = pc;
  if (++s->n < HOT_SAMPLES) return;
  unsigned h = atomic_load(&t->nhot);
  if (h >= HOT_CAP) return;
  s->n = HOT_DONE;
  t->hot[h] = pc;
  atomic_store(&t->nhot, h + 1);
  g->chain_stop = 1; /* to the dispatcher soon: kit_tier_poll queues it */
}

static void *worker(void *arg) {
  KitEmuTierState *t = arg;
  Job batch[BATCH_MAX];
  pthread_mutex_lock(&t->mu);
  for (;;) {
    while (!t->nqueue && !t->nqueue2 && !t->stop) {
      if (!t->tier2 || t->jit2_failed) {
        pthread_cond_wait(&t->cv, &t->mu);
        continue;
      }
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      ts.tv_nsec += SAMPLE_NS;
      if (ts.tv_nsec >= 1000000000) ts.tv_sec++, ts.tv_nsec -= 1000000000;
      if (pthread_cond_timedwait(&t->cv, &t->mu, &ts) != 0) sample(t);
    }
    if (t->stop) break;
    unsigned n;
    if (t->nqueue2) { /* hot code first: it is where the time goes */
      n = t->nqueue2 < BATCH2_MAX ? t->nqueue2 : BATCH2_MAX;
      memcpy(batch, t->queue2, n * sizeof *batch);
      memmove(t->queue2, t->queue2 + n, (t->nqueue2 - n) * sizeof *batch);
      t->nqueue2 -= n;
    } else {
      n = t->nqueue < BATCH_MAX ? t->nqueue : BATCH_MAX;
      memcpy(batch, t->queue, n * sizeof *batch);
      memmove(t->queue, t->queue + n, (t->nqueue - n) * sizeof *batch);
      t->nqueue -= n;
    }
    pthread_mutex_unlock(&t->mu);
    compile_batch(t, batch, n);
    pthread_mutex_lock(&t->mu);
    for (unsigned i = 0; i < n; i++) {
      unsigned d = atomic_load(&t->ndone);
      if (d < QUEUE_CAP) {
        t->done[d] = batch[i];
        atomic_store(&t->ndone, d + 1);
      } else {
        free(batch[i].insns);
      }
    }
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}
#endif

static Job make_job(KitEmu *emu, KitEmuBlock *b, int tier) {
  Job j = {.pc = b->pc, .n = b->ninsns, .generation = emu->tc->generation, .tier = tier, .seq = emu->tier->seq++};
  if (tier == 2) { /* a region around its loop, or a trace through its likely successors */
    j.insns = kit_emu_region(emu, b, &j.n);
  } else if ((j.insns = malloc(b->ninsns * sizeof *j.insns))) {
    memcpy(j.insns, b->insns, b->ninsns * sizeof *j.insns);
  }
  if (!j.insns) j.n = 0;
  return j;
}

static void install(KitEmu *emu, Job *j) {
  KitEmuBlock *b = j->generation == emu->tc->generation ? kit_tcache_lookup(emu->tc, j->pc) : NULL;
  if (j->tier == 2) { /* tools are off (kit_tier_new): nothing points into the old insns */
    if (b && j->fn && b->code) {
      kit_tier_take_code(emu, b, j->fn, j->insns, j->n, KIT_EMU_CODE_TIER2);
      b->tier2 = true;
      b->baseline = false;
      kit_tcache_relink(emu->tc, b);
      emu->tier->tier2_blocks++;
      return;
    }
    if (b) b->queued2 = false;
    free(j->insns);
    return;
  }
  if (b && j->fn) {
    kit_tier_take_code(emu, b, j->fn, j->insns, j->n, KIT_EMU_CODE_LLVM);
    emu->stats.blocks_jitted++;
    kit_tier_interp_drop(b); /* installs happen between blocks */
  } else {
    if (b) b->queued = false;
    free(j->insns);
  }
}

void kit_tier_poll(KitEmu *emu) {
  KitEmuTierState *t = emu->tier;
  if (!t->worker_ok || (!atomic_load(&t->ndone) && !atomic_load(&t->nhot))) return;
  if (pthread_mutex_trylock(&t->mu) != 0) return;
  unsigned n = atomic_load(&t->ndone);
  for (unsigned i = 0; i < n; i++) install(emu, &t->done[i]);
  atomic_store(&t->ndone, 0);
  /* hot blocks the worker sampled: compile the jitted ones again at tier 2 */
  n = atomic_load(&t->nhot);
  for (unsigned i = 0; i < n; i++) {
    KitEmuBlock *b = kit_tcache_lookup(emu->tc, t->hot[i]);
    /* not baseline code: LLVM's -O1 of a block no longer repays its compile
     * (docs/emu.md, "Baseline tier") */
    if (!b || !b->code || b->tier2 || b->queued2 || t->nqueue2 >= HOT_CAP || b->baseline) continue;
    Job j = make_job(emu, b, 2);
    if (!j.n) continue;
    b->queued2 = true;
    t->queue2[t->nqueue2++] = j;
  }
  if (n) pthread_cond_signal(&t->cv);
  atomic_store(&t->nhot, 0);
  pthread_mutex_unlock(&t->mu);
}

#ifdef KIT_EMU_HAVE_JIT
static void compile_now(KitEmu *emu, KitEmuBlock *b) {
  KitEmuTierState *t = emu->tier;
  Job j = make_job(emu, b, 1);
  compile_batch(t, &j, 1);
  install(emu, &j);
  if (!b->code) t->jit_failed = true;
}
#endif

void kit_tier_llvm_take(KitEmu *emu, KitEmuBlock *b) {
  KitEmuTierState *t = emu->tier;
  if (t->jit_failed || t->no_jit) return;
#ifdef KIT_EMU_HAVE_JIT
  if (t->worker_wanted && emu->stats.blocks_executed < t->warmup) return;
#endif
  b->queued = true;
#ifdef KIT_EMU_HAVE_JIT
  if (t->worker_wanted) {
    t->worker_wanted = false;
    t->worker_ok = pthread_create(&t->thread, NULL, worker, t) == 0;
  }
#endif
  if (t->worker_ok) {
    if (pthread_mutex_trylock(&t->mu) != 0) {
      b->queued = false; /* try again on a later execution */
      return;
    }
    if (t->nqueue < QUEUE_CAP) {
      t->queue[t->nqueue++] = make_job(emu, b, 1);
      pthread_cond_signal(&t->cv);
    } else {
      b->queued = false;
    }
    pthread_mutex_unlock(&t->mu);
    return;
  }
#ifdef KIT_EMU_HAVE_JIT
  compile_now(emu, b);
#endif
}

void kit_tier_llvm_free(KitEmuTierState *t) {
  if (t->worker_ok) {
    pthread_mutex_lock(&t->mu);
    t->stop = true;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->thread, NULL);
  }
  for (unsigned i = 0; i < t->nqueue; i++) free(t->queue[i].insns);
  for (unsigned i = 0; i < t->nqueue2; i++) free(t->queue2[i].insns);
  for (unsigned i = 0; i < t->ndone; i++) free(t->done[i].insns);
#ifdef KIT_EMU_HAVE_JIT
  kit_emu_jit_free(t->jit);
  kit_emu_jit_free(t->jit2);
#endif
}
