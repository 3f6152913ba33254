/* emu/tier.c — running translated blocks: tier 0 interprets a block's CG;
 * blocks that reach the execution threshold are queued, re-lifted in batches
 * into one module per batch and compiled by the LLVM JIT on a worker thread
 * while the guest keeps running in tier 0; results are installed at block
 * boundaries unless an invalidation happened meanwhile. */
#include "tier.h"

#include "jitload.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH_MAX 32
#define QUEUE_CAP 1024
#define DEFAULT_THRESHOLD 200 /* compile throughput is the bottleneck: docs/emu.md, "Chaining and tier-1 performance" */
/* with the default threshold, the JIT starts only once the guest has run
 * this many blocks: loading LLVM and making the JIT cost more CPU than a
 * short run (a hello world: ~7k blocks, ~20k dynamic) spends in all of tier
 * 0, and a long run does not notice the delay (docs/emu.md, "Start-up") */
#define DEFAULT_WARMUP 100000
/* tier 2 (docs/emu.md, "Tier 2"): the worker, when idle, samples which
 * block the guest runs every SAMPLE_NS; a block with LLVM code seen
 * HOT_SAMPLES times (counts halve every AGE_SAMPLES) is compiled again, as a
 * region around its loop or a trace through its likely successors
 * (kit_emu_region) and with LLVM's full register allocator (24, not 6: see
 * docs/emu.md, "Tier 2") */
#define SAMPLE_NS 1000000
#define HOT_SAMPLES 24
#define AGE_SAMPLES 2048
#define SAMP_CAP 1024u
#define HOT_CAP 64
#define BATCH2_MAX 8
/* the baseline compiler (cg/baseline, docs/emu.md "Baseline tier") takes a block
 * before its BASELINE_RUNS-th run. 1: its compile (~25 us with the lift)
 * costs less than lifting the block for the interpreter and preparing it
 * there, even for code run once; sqlite's speedtest1 --size 8 ran in 1.09
 * s CPU this way, 1.34 s with 2 (the best of five alternating runs each) */
#define BASELINE_RUNS 1

typedef struct Job {
  uint64_t pc;
  unsigned n;
  KitDecodedInsn *insns; /* copy; handed back with the result */
  uint64_t generation;
  int tier;              /* 1 or 2 */
  uint32_t seq;          /* names its function uniquely in its JIT */
  int64_t (*fn)(void *);
} Job;

typedef struct Sample {
  uint64_t pc;
  uint32_t n; /* HOT_DONE once handed over */
} Sample;
#define HOT_DONE UINT32_MAX

struct KitEmuTierImpl {
  KitEmu *emu;
  KitJit *jit;
  bool jit_failed;
  KitJit *jit2;          /* tier 2 */
  bool tier2, jit2_failed;
  bool worker_ok;        /* false: compile synchronously (or never, after fork) */
  bool worker_wanted;    /* auto tier: start the worker with the first hot block */
  uint64_t warmup;       /* ... once this many blocks have run */
  bool no_jit;           /* fork child: LLVM state may be inconsistent */
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  Job queue[QUEUE_CAP];
  unsigned nqueue;
  Job done[QUEUE_CAP];
  _Atomic unsigned ndone;
  Job queue2[HOT_CAP];
  unsigned nqueue2;
  /* the worker's samples of the running block, and the hot pcs it hands to
   * the guest thread (which owns the blocks) */
  Sample samp[SAMP_CAP];
  unsigned nsamples;
  uint64_t hot[HOT_CAP];
  _Atomic unsigned nhot;
  _Atomic uint64_t tier2_blocks;
  uint32_t seq;
  bool stop;
  unsigned batch_seq;
  _Atomic uint64_t batches, failures, compile_ns;
  KitBaseline *compiler;      /* the baseline compiler, NULL when off */
  bool baseline;
  uint64_t baseline_blocks, baseline_declined, baseline_ns;
};

bool kit_tier_jit_available(void) {
#ifdef KIT_EMU_HAVE_JIT
  return true;
#else
  return false;
#endif
}

static uint64_t thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#ifdef KIT_EMU_HAVE_JIT

static int compile_batch(KitEmuTierState *t, Job *jobs, unsigned n) {
  uint64_t t0 = thread_cpu_ns();
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
        !(t->jit2 = kit_emu_jit_new(1 | KIT_JIT_FAST_ISEL | jit_flags, kit_emu_resolve, emu, emu->log)))
      t->jit2_failed = true;
    jit = t->jit2;
  } else {
    if (!t->jit && !(t->jit = kit_emu_jit_new(jit_flags, kit_emu_resolve, emu, emu->log))) t->jit_failed = true;
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
  t->compile_ns += thread_cpu_ns() - t0;
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

/* one sample of the block the guest runs (mutex held; the worker is idle) */
static void sample(KitEmuTierState *t) {
  KitEmu *emu = t->emu;
  if (!emu->in_guest) return;
  uint64_t pc = __atomic_load_n(&emu->block_pc, __ATOMIC_RELAXED);
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
  emu->chain_stop = 1; /* to the dispatcher soon: kit_tier_poll queues it */
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

KitEmuTierState *kit_tier_new(KitEmu *emu) {
  KitEmuTierState *t = calloc(1, sizeof *t);
  t->emu = emu;
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
#ifdef KIT_EMU_HAVE_JIT
  /* single-step and tier 1 compile synchronously: their point is determinism.
   * The worker and the JIT are made when the first block gets hot. */
  t->worker_wanted = emu->opt.tier == KIT_EMU_TIER_AUTO && !emu->opt.single_step;
  /* not under tools: their hooks in the code point at the tier-1 copy of
   * the instructions, and blocks and edges are what they watch */
  t->tier2 = t->worker_wanted && !emu->opt.no_tier2 && !emu->watch_flow;
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
  kit_baseline_free(t->compiler);
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

/* a host fault in baseline code: the guest pc it stopped at (the baseline
 * compiler keeps it in a side table instead of storing it before each
 * access); signal handler, guest thread */
bool kit_tier_fault_pc(KitEmu *emu, uintptr_t host_pc, uint64_t *pc) {
  return emu->tier && emu->tier->compiler && kit_baseline_fault_value(emu->tier->compiler, host_pc, pc);
}

void kit_tier_after_fork(KitEmu *emu) {
  KitEmuTierState *t = emu->tier;
  t->worker_ok = false;
  t->worker_wanted = false;
  t->no_jit = true;
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
}

void kit_tier_discard_interp(KitEmuBlock *b) {
  /* its frame is still on the thread's interpreter stack */
  kit_interp_abandon_thread();
  if (b->ip) kit_interp_free(b->ip);
  b->ip = NULL;
}

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

/* b runs the job's code from now on; the instructions it was made from go
 * with it (the fault path reads them; tool hooks may point into them) */
static void take_code(KitEmu *emu, KitEmuBlock *b, Job *j) {
  b->jit = j->fn;
  free(b->jit_insns);
  b->jit_insns = j->insns;
  b->jit_ninsns = j->n;
  for (unsigned i = 0; i < j->n; i++) /* a trace covers its other blocks' bytes too */
    kit_tcache_extend(emu->tc, b, j->insns[i].pc, j->insns[i].pc + j->insns[i].len);
}

static void install(KitEmu *emu, Job *j) {
  KitEmuBlock *b = j->generation == emu->tc->generation ? kit_tcache_lookup(emu->tc, j->pc) : NULL;
  if (j->tier == 2) { /* tools are off (kit_tier_new): nothing points into the old insns */
    if (b && j->fn && b->jit) {
      take_code(emu, b, j);
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
    take_code(emu, b, j);
    emu->stats.blocks_jitted++;
    /* tier 0's copy is dead weight now (installs happen between blocks) */
    if (b->ip) kit_interp_free(b->ip);
    if (b->m) kit_cg_module_free(b->m);
    b->ip = NULL;
    b->m = NULL;
    b->f = NULL;
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
    if (!b || !b->jit || b->tier2 || b->queued2 || t->nqueue2 >= HOT_CAP || b->baseline) continue;
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
  if (!b->jit) t->jit_failed = true;
}
#endif

/* the block's baseline code (cg/baseline) from now on, if the compiler takes it;
 * else it stays on the way to LLVM */
static void baseline(KitEmu *emu, KitEmuBlock *b) {
  KitEmuTierState *t = emu->tier;
  uint64_t t0 = thread_cpu_ns();
  b->baseline_tried = true;
  if (!t->compiler && !(t->compiler = kit_baseline_new(kit_emu_resolve, emu))) {
    t->baseline = false;
    return;
  }
  KitCgModule *m = kit_cg_module_new("baseline");
  char name[48];
  snprintf(name, sizeof name, "emu_block_%llx_b", (unsigned long long)b->pc);
  KitCgFunc *f = kit_emu_translate_jit(emu, m, b->insns, b->ninsns, name, emu->log);
  const char *why = NULL;
  void *code = f ? kit_baseline_compile(t->compiler, m, f, &why) : NULL;
  kit_cg_module_free(m);
  Job j = {.pc = b->pc, .n = b->ninsns, .fn = (int64_t (*)(void *))code};
  if (code && (j.insns = malloc(b->ninsns * sizeof *j.insns))) {
    memcpy(j.insns, b->insns, b->ninsns * sizeof *j.insns);
    take_code(emu, b, &j);
    b->baseline = true;
    t->baseline_blocks++;
    if (b->ip) kit_interp_free(b->ip); /* tier 0's copy is dead weight now */
    if (b->m) kit_cg_module_free(b->m);
    b->ip = NULL;
    b->m = NULL;
    b->f = NULL;
  } else {
    t->baseline_declined++;
    if (emu->opt.debug & KIT_EMU_DEBUG_EXEC)
      fprintf(emu->log, "kit-emu: baseline: block 0x%llx left to LLVM: %s\n", (unsigned long long)b->pc,
              why ? why : "no translation");
  }
  t->baseline_ns += thread_cpu_ns() - t0;
}

static void make_hot(KitEmu *emu, KitEmuBlock *b) {
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

uint64_t kit_tier_run(KitEmu *emu, KitEmuBlock *b, bool *compiled) {
  KitEmuTierState *t = emu->tier;
  if (!b->jit && emu->opt.tier == KIT_EMU_TIER_JIT && !b->queued) make_hot(emu, b);
  if (!b->jit && emu->opt.tier == KIT_EMU_TIER_AUTO && !b->queued && t->baseline && !b->baseline_tried &&
      b->count + 1 >= BASELINE_RUNS) /* this run is compiled already */
    baseline(emu, b);
  *compiled = b->jit != NULL;
  if (b->jit) return (uint64_t)kit_emu_code(b->jit)(emu->cpu, NULL);
  if (!b->f && !kit_emu_block_lift(emu, b)) {
    kit_emu_raise(emu, SIGILL, 1, b->pc); /* ILL_ILLOPC */
    return b->pc;
  }
  if (!b->ip) {
    b->ip = kit_interp_new(b->m, kit_emu_resolve, emu, emu->log);
    if (!b->ip) {
      kit_emu_warn(emu, "internal error: cannot interpret the block at 0x%llx", (unsigned long long)b->pc);
      emu->exited = true;
      emu->exit_status = 125;
      return b->pc;
    }
  }
  KitCgScalar arg = {.i = (uint64_t)(uintptr_t)emu->cpu}, ret[2];
  if (kit_interp_call(b->ip, b->f, &arg, 1, ret) != 0) {
    kit_emu_warn(emu, "internal error: the interpreter trapped in the block at 0x%llx", (unsigned long long)b->pc);
    emu->exited = true;
    emu->exit_status = 125;
    return b->pc;
  }
  if (emu->opt.tier == KIT_EMU_TIER_AUTO && !b->queued) {
    ++b->count;
    if ((!t->baseline || b->baseline_tried) && b->count >= emu->opt.jit_threshold) make_hot(emu, b);
  }
  return ret[0].i;
}
