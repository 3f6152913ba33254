/* emu/dispatch.c — the dispatcher loop: at each block boundary the work
 * that waits for one (invalidations, freeing, installing compiled code,
 * signals), then the block at the pc, found or made, run by its tier; the
 * hot path runs compiled code from block to block through the jump cache. */
#include <inttypes.h>
#include <stdlib.h>

#include "dispatch.h"
#include "fault.h"
#include "instrument.h"
#include "os.h"
#include "tier.h"

/* a new block at pc; its CG for tier 0 is lifted when the block is first
 * interpreted (most are compiled on their first run), -d cg shows it at once */
static KitEmuBlock *block_at(KitEmu *emu, uint64_t pc) {
  KitEmuBlock *blk = kit_emu_block_new(emu, pc);
  if (blk && (emu->opt.debug & KIT_EMU_DEBUG_CG) && kit_emu_block_lift(emu, blk))
    kit_cg_print_func(blk->m, blk->f, emu->log);
  return blk;
}

/* does block b (its code too) carry instrumentation of a tool in *mask? */
static bool instrumented_by(void *mask, const KitEmuBlock *b) {
  uint64_t m = *(const uint64_t *)mask;
  return (kit_emu_instr_tools(b->insns, b->ninsns) & m) ||
         (b->code_insns && (kit_emu_instr_tools(b->code_insns, b->code_ninsns) & m));
}

/* what the tools' registrations and detaches left for the cache */
static void tools_settle(KitEmu *emu) {
  bool flush;
  uint64_t detached, pcs[KIT_EMU_MAX_DROP];
  unsigned npcs;
  if (!kit_emu_tools_take(emu, &flush, &detached, pcs, &npcs)) return;
  if (flush) kit_tcache_flush(emu->tc, KIT_EMU_INVAL_TOOL);
  if (detached && kit_tcache_invalidate_if(emu->tc, instrumented_by, &detached) && emu->tools)
    kit_emu_ev_invalidate(emu, 0, UINT64_MAX, KIT_EMU_INVAL_TOOL);
  for (unsigned i = 0; i < npcs; i++) kit_tcache_invalidate(emu->tc, pcs[i], 1, KIT_EMU_INVAL_TOOL);
}

static void boundary(KitEmu *emu, KitEmuThread *t) {
  t->chain_stop = 0; /* first: whatever sets it after this is seen below or by the next entry check */
  kit_emu_gil_yield(emu, t);
  if (emu->tools_pending) tools_settle(emu);
  if (emu->smc_n || emu->smc_overflow) {
    if (emu->smc_overflow) kit_tcache_flush(emu->tc, KIT_EMU_INVAL_WRITE);
    for (int i = 0; i < emu->smc_n; i++) kit_tcache_invalidate(emu->tc, emu->smc_pages[i], KIT_EMU_PAGE, KIT_EMU_INVAL_WRITE);
    emu->smc_n = 0;
    emu->smc_overflow = 0;
  }
  kit_tcache_reap(emu->tc, t);
  kit_tier_poll(emu);
  if (t->sync_pending || atomic_load(&t->pending) || atomic_load(&emu->async_pending)) kit_emu_deliver_signals(emu);
}

/* The hot path: LLVM code going from block to block through the jump cache
 * while nothing needs the dispatcher (no signal, exit, invalidation). Tool
 * observation is in the blocks themselves, so it does not miss anything.
 * With threads running in parallel (emu->parallel and another thread
 * alive) it runs without the execution lock: compiled code touches only
 * its thread's state, guest memory (atomics are the host's) and its own
 * code cache; the exits into the emulator (system calls, traps, faults)
 * take the lock, and the loop ends after a block that did. A block seen
 * here stays allocated until this thread's next boundary (tcache.c). */
static void run_jitted(KitEmu *emu, KitEmuThread *t, KitEmuBlock *blk) {
  KitEmuTcache *tc = emu->tc;
  bool par = emu->parallel && atomic_load_explicit(&emu->nlive, memory_order_relaxed) > 1;
  if (par) {
    kit_emu_gil_drop(emu);
    t->unlocked = true;
  }
  uint64_t n = 0;
  t->in_guest = 1;
  for (;;) {
    t->last_exit = NULL;
    uint64_t next = (uint64_t)kit_emu_code(blk->code)(t->cpu, NULL);
    emu->arch->set_pc(t->cpu, next); /* chained exits store none */
    n++;
    if ((par && !t->unlocked) || emu->exited || t->done || t->chain_stop || t->sync_pending ||
        atomic_load_explicit(&t->pending, memory_order_relaxed) ||
        atomic_load_explicit(&emu->async_pending, memory_order_relaxed) || emu->smc_n || emu->smc_overflow ||
        tc->epoch != atomic_load_explicit(&t->seen, memory_order_relaxed))
      break;
    KitEmuBlock *nb = tc->jc[kit_tcache_jc_slot(next)];
    if (!nb || nb->pc != next || !nb->code) break;
    if (t->last_exit) kit_tcache_link(tc, t->last_exit, nb);
    blk = nb;
  }
  t->in_guest = 0;
  kit_emu_gil_ensure(emu);
  emu->stats.blocks_executed += n;
  emu->stats.jit_entries += n;
}

/* One guest thread's dispatcher, on its host thread (kit_emu_self), holding
 * the execution lock: until the thread exits or the process ends. */
int kit_emu_exec_loop(KitEmu *emu) {
  kit_emu_current = emu;
  KitEmuThread *t = kit_emu_self;
  if (sigsetjmp(t->fault_jmp, 0)) {
    /* a host fault inside the guest window: the signal is pending already */
    if (t->running) kit_tier_discard_interp(t->running);
    t->running = NULL;
    kit_emu_block_fault(emu, kit_emu_fault_retired(emu));
  }
  while (!emu->exited && !t->done) {
    boundary(emu, t);
    if (emu->exited || t->done) break;
    uint64_t pc = emu->arch->get_pc(t->cpu);
    KitEmuBlock *blk = kit_tcache_lookup(emu->tc, pc);
    if (!blk) blk = block_at(emu, pc);
    if (!blk) {
      const KitEmuRegion *r = kit_aspace_find(&emu->as, pc);
      if (r && (r->prot & KIT_EMU_PROT_EXEC)) { /* executable but cannot be lifted */
        kit_emu_raise(emu, SIGILL, 1, pc);
      } else {
        kit_emu_raise(emu, SIGSEGV, r ? 2 : 1, pc);
      }
      continue;
    }
    if (emu->opt.debug & KIT_EMU_DEBUG_EXEC) fprintf(emu->log, "exec 0x%" PRIx64 "\n", pc);
    else if (blk->code) {
      run_jitted(emu, t, blk);
      continue;
    }
    t->running = blk;
    bool compiled = false;
    t->in_guest = 1;
    uint64_t next = kit_tier_run(emu, blk, &compiled);
    emu->arch->set_pc(t->cpu, next);
    t->in_guest = 0;
    t->running = NULL;
    const KitDecodedInsn *last = &blk->insns[blk->ninsns - 1];
    if (!compiled && (last->flags & KIT_DECODE_BRANCH)) { /* for traces */
      if (next == last->target) blk->taken++;
      else blk->fall++;
    }
    emu->stats.blocks_executed++;
    if (compiled) emu->stats.jit_entries++;
    else emu->stats.tier0_runs++;
  }
  return emu->exit_status;
}
