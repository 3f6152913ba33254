/* emu/tier_impl.h — what the tiers share inside the tiers stage (not for
 * other stages: they see tier.h). Each tier is a file with the same shape:
 * `kit_tier_<name>_take(emu, b)` tries to give block b a way to run (the
 * interpreter: CG and an interpreter; baseline: machine code now; llvm: a
 * job for the worker, or machine code now when there is no worker), and
 * its figures and teardown live with it. tier.c picks the tier. */
#ifndef KIT_EMU_TIER_IMPL_H
#define KIT_EMU_TIER_IMPL_H

#include "instrument.h"
#include "tier.h"

#include <pthread.h>

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
  KitCgResolver resolve;
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


uint64_t kit_tier_thread_cpu_ns(void);
/* b runs this code from now on; the instructions it was made from go with
 * it (the fault path reads them; tool hooks may point into them); tier
 * (KIT_EMU_CODE_*) is what the tools' code event says */
void kit_tier_take_code(KitEmu *emu, KitEmuBlock *b, int64_t (*code)(void *), KitDecodedInsn *insns, unsigned n,
                        unsigned tier);

/* tier_interp.c: the interpreter (tier 0). run: b's CG interpreted once,
 * the next pc in *next; false when it could not run (a SIGILL raised, or an
 * internal error that ends the emulator); drop: b no longer needs its CG
 * and interpreter (it has code) */
bool kit_tier_interp_run(KitEmu *emu, KitEmuBlock *b, uint64_t *next);
void kit_tier_interp_drop(KitEmuBlock *b);

/* tier_baseline.c: the baseline compiler (cg/baseline) */
void kit_tier_baseline_take(KitEmu *emu, KitEmuBlock *b);
void kit_tier_baseline_free(KitEmuTierState *t);

/* tier_llvm.c: LLVM, tiers 1 and 2 (the worker thread, its queues and
 * samples) */
void kit_tier_llvm_take(KitEmu *emu, KitEmuBlock *b);
void kit_tier_llvm_free(KitEmuTierState *t);

#endif
