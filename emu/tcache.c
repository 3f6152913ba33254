/* emu/tcache.c — the translation cache: a pc-keyed hash of translated blocks,
 * a direct-mapped jump cache in front of it, range and full invalidation,
 * deferred freeing (a block may be invalidated by its own system call), the
 * exit slots of chained code with the stub unlinked ones lead to, and the
 * lookup that chains indirect exits. */
#include "instrument.h"
#include "tcache.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_pc(uint64_t pc, uint32_t n) { return (uint32_t)((pc >> 1) * 0x9E3779B97F4A7C15ull >> 40) & (n - 1); }

/* ---- the exit stub and the chain of indirect exits ------------------------------- */

/* A jitted block's exit (docs/emu.md, "Chaining") jumps through its own
 * slot (KitEmuExit, allocated here, linked by the dispatcher): the slot
 * holds the target block's code, or kit_emu_exit_stub while unlinked, which
 * returns the pc the block stored to the dispatcher. Jitted blocks take the
 * slot they are entered through as a second argument, which only the stub
 * reads: it records the slot in its thread's last_exit, so the dispatcher knows
 * what to link, and no other way back to the dispatcher can leave a slot
 * there (indirect exits pass NULL). Each
 * exit has its own indirect jump with a stable target, so the host predicts
 * it (the dispatcher's one call site is shared by every block). A block that
 * may be chained to checks its thread's chain_stop on entry (qemu checks its exit
 * request the same way) and returns its own pc when a host signal, a write
 * to translated code, a raised signal or an invalidation wants the
 * dispatcher. Invalidation points the slots that lead to dropped blocks back
 * at the stub; exits through the emulator (system call, breakpoint, illegal, icache flush,
 * a fault) never chain. */
int64_t kit_emu_exit_stub(void *cpu, KitEmuExit *via) {
  kit_thr_of_cpu(cpu)->last_exit = via;
  if (via) return (int64_t)via->pc; /* static exits store no pc */
  return (int64_t)kit_emu_current->arch->get_pc(cpu);
}

/* an indirect jump's target code from the jump cache, the exit stub when
 * that pc has no LLVM code (yet): the chain of an indirect exit, one jump
 * per site (qemu's lookup_and_goto_ptr) */
KitEmuCode kit_emu_chain_lookup(int64_t pc) {
  KitEmuTcache *tc = kit_emu_current->tc;
  KitEmuCodeSlot *cs = kit_tcache_cc(kit_emu_self, (uint64_t)pc);
  if (cs->pc == (uint64_t)pc && cs->code) return cs->code;
  /* without the execution lock when threads run in parallel: the jump
   * cache may hold a block invalidated since (it lives until this thread's
   * next boundary), never a freed one */
  const KitEmuBlock *b = tc->jc[kit_tcache_jc_slot((uint64_t)pc)];
  if (!b || b->pc != (uint64_t)pc || !b->code) return kit_emu_exit_stub;
  KitEmuCode code = kit_emu_code(b->code);
  /* the slot is this thread's: others only empty it (cc_empty) */
  __atomic_store_n(&cs->code, code, __ATOMIC_RELAXED);
  __atomic_store_n(&cs->pc, (uint64_t)pc, __ATOMIC_RELAXED);
  /* an invalidation marks the block dead, then empties the slots that hold
   * it: one of the two sees the other's store */
  atomic_thread_fence(memory_order_seq_cst);
  if (__atomic_load_n(&b->dead, __ATOMIC_RELAXED)) __atomic_store_n(&cs->pc, KIT_EMU_CC_EMPTY, __ATOMIC_RELAXED);
  return code;
}

/* an indirect exit whose inline probe missed jumps here: look up, go on.
 * A jump, not a call, or chaining would grow the host stack: written out
 * for x86-64 so that no compiler setting can make it a call. */
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl kit_emu_chain_miss\n"
        ".type kit_emu_chain_miss, @function\n"
        "kit_emu_chain_miss:\n"
        "  push %rdi\n"      /* the CPU; aligns the stack for the call */
        "  mov %rsi, %rdi\n"
        "  call kit_emu_chain_lookup@PLT\n"
        "  pop %rdi\n"
        "  xor %esi, %esi\n" /* entered through no exit slot */
        "  jmp *%rax\n"
        ".size kit_emu_chain_miss, .-kit_emu_chain_miss\n");
#else
int64_t kit_emu_chain_miss(void *cpu, int64_t pc) { return kit_emu_chain_lookup(pc)(cpu, NULL); }
#endif

/* ---- the cache ---------------------------------------------------------------------- */

/* every thread's code-cache slot of pc emptied (a thread may be filling
 * its own at the same time: only the pc is written, and a slot left empty
 * costs a miss) */
static void cc_empty(KitEmuTcache *tc, uint64_t pc) {
  KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(tc->emu, &i));) {
    if (!atomic_load_explicit(&t->live, memory_order_relaxed)) continue;
    KitEmuCodeSlot *cs = kit_tcache_cc(t, pc);
    if (__atomic_load_n(&cs->pc, __ATOMIC_RELAXED) == pc) __atomic_store_n(&cs->pc, KIT_EMU_CC_EMPTY, __ATOMIC_RELAXED);
  }
}

/* every slot of every live thread's code cache empty (an exited one
 * probes it no more) */
static void cc_clear(KitEmuTcache *tc) {
  KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(tc->emu, &i));)
    if (atomic_load_explicit(&t->live, memory_order_relaxed))
      for (unsigned k = 0; k < KIT_EMU_CC_SIZE; k++) __atomic_store_n(&t->cc[k].pc, KIT_EMU_CC_EMPTY, __ATOMIC_RELAXED);
}

KitEmuTcache *kit_tcache_new(KitEmu *emu) {
  KitEmuTcache *tc = calloc(1, sizeof *tc);
  tc->emu = emu;
  tc->nbuckets = 4096;
  tc->buckets = calloc(tc->nbuckets, sizeof *tc->buckets);
  pthread_mutex_init(&tc->exits_mu, NULL);
  return tc;
}

static void block_free(KitEmuBlock *b) {
  if (b->ip) kit_interp_free(b->ip);
  if (b->m) kit_cg_module_free(b->m);
  free(b->insns);
  free(b->code_insns);
  kit_emu_instr_free(b->instr);
  free(b);
}

/* may a parked thread come back into b's code? (kit_emu_blocking_begin) */
static bool pinned(KitEmu *emu, const KitEmuThread *self, const KitEmuBlock *b) {
  const KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(emu, &i));) {
    if (t != self && t->parked && atomic_load(&t->live) && b->died >= atomic_load(&t->seen) && t->sys_pc >= b->lo &&
        t->sys_pc < b->end)
      return true;
  }
  return false;
}

/* Under the execution lock, at a boundary: frees the invalidated blocks no
 * other thread can be running (docs/emu.md, "Threads"). A running thread
 * may be in the middle of any block that died since its last boundary; a
 * parked one, waiting in a system call, only in those holding the system
 * call instruction. */
void kit_tcache_reap(KitEmuTcache *tc, KitEmuThread *self) {
  KitEmu *emu = tc->emu;
  if (self) atomic_store(&self->seen, tc->epoch);
  if (!tc->graveyard) return;
  uint64_t min = UINT64_MAX, pmin = UINT64_MAX;
  KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(emu, &i));) {
    if (t != self && atomic_load(&t->live)) {
      uint64_t s = atomic_load(&t->seen);
      if (t->parked) {
        if (s < pmin) pmin = s;
      } else if (s < min) {
        min = s;
      }
    }
  }
  for (KitEmuBlock **pp = &tc->graveyard; *pp;) {
    KitEmuBlock *b = *pp;
    if (b->died < min && (b->died < pmin || !pinned(emu, self, b))) {
      *pp = b->next;
      block_free(b);
    } else {
      pp = &b->next;
    }
  }
}

void kit_tcache_free(KitEmuTcache *tc) {
  if (!tc) return;
  kit_tcache_flush(tc, 0);
  while (tc->graveyard) { /* no thread runs any more */
    KitEmuBlock *b = tc->graveyard;
    tc->graveyard = b->next;
    block_free(b);
  }
  free(tc->buckets);
  for (KitEmuExitChunk *c = tc->exits, *nx; c; c = nx) {
    nx = c->next;
    free(c);
  }
  pthread_mutex_destroy(&tc->exits_mu);
  free(tc);
}

KitEmuBlock *kit_tcache_lookup(KitEmuTcache *tc, uint64_t pc) {
  KitEmuBlock *b = tc->jc[kit_tcache_jc_slot(pc)];
  if (b && b->pc == pc) return b;
  for (b = tc->buckets[hash_pc(pc, tc->nbuckets)]; b; b = b->next)
    if (b->pc == pc) {
      tc->jc[kit_tcache_jc_slot(pc)] = b;
      return b;
    }
  return NULL;
}

static void grow(KitEmuTcache *tc) {
  uint32_t n = tc->nbuckets * 2;
  KitEmuBlock **nb = calloc(n, sizeof *nb);
  for (uint32_t i = 0; i < tc->nbuckets; i++)
    for (KitEmuBlock *b = tc->buckets[i], *nx; b; b = nx) {
      nx = b->next;
      uint32_t h = hash_pc(b->pc, n);
      b->next = nb[h];
      nb[h] = b;
    }
  free(tc->buckets);
  tc->buckets = nb;
  tc->nbuckets = n;
}

void kit_tcache_insert(KitEmuTcache *tc, KitEmuBlock *b) {
  if (tc->nblocks >= tc->nbuckets) grow(tc);
  uint32_t h = hash_pc(b->pc, tc->nbuckets);
  b->next = tc->buckets[h];
  tc->buckets[h] = b;
  tc->nblocks++;
  if (!tc->code_hi || b->lo < tc->code_lo) tc->code_lo = b->lo;
  if (b->end > tc->code_hi) tc->code_hi = b->end;
  tc->jc[kit_tcache_jc_slot(b->pc)] = b;
}

KitEmuExit *kit_tcache_exit_new(KitEmuTcache *tc, uint64_t pc) {
  pthread_mutex_lock(&tc->exits_mu);
  KitEmuExitChunk *c = tc->exits;
  if (!c || c->used == KIT_EMU_EXITS_PER_CHUNK) {
    KitEmuExitChunk *n = calloc(1, sizeof *n);
    if (!n) {
      pthread_mutex_unlock(&tc->exits_mu);
      return NULL;
    }
    n->next = c;
    tc->exits = c = n;
  }
  KitEmuExit *e = &c->slot[c->used++];
  e->code = kit_emu_exit_stub;
  e->pc = pc;
  pthread_mutex_unlock(&tc->exits_mu);
  return e;
}

void kit_tcache_link(KitEmuTcache *tc, KitEmuExit *e, KitEmuBlock *b) {
  /* under exits_mu: an invalidation marks its blocks dead before it
   * unlinks under it, so no slot is left leading into a dead block, also
   * when a thread links without the execution lock */
  pthread_mutex_lock(&tc->exits_mu);
  if (!b->dead) {
    e->target = b;
    __atomic_store_n(&e->code, kit_emu_code(b->code), __ATOMIC_RELEASE);
    tc->linked++;
  }
  pthread_mutex_unlock(&tc->exits_mu);
}

void kit_tcache_extend(KitEmuTcache *tc, KitEmuBlock *b, uint64_t lo, uint64_t end) {
  if (lo < b->lo) b->lo = lo;
  if (end > b->end) b->end = end;
  if (b->lo < tc->code_lo) tc->code_lo = b->lo;
  if (b->end > tc->code_hi) tc->code_hi = b->end;
}

void kit_tcache_relink(KitEmuTcache *tc, KitEmuBlock *b) {
  pthread_mutex_lock(&tc->exits_mu);
  for (KitEmuExitChunk *c = tc->exits; c; c = c->next)
    for (unsigned i = 0; i < c->used; i++)
      if (c->slot[i].target == b) c->slot[i].code = kit_emu_code(b->code);
  pthread_mutex_unlock(&tc->exits_mu);
  cc_empty(tc, b->pc); /* refilled with the new code on the next miss */
}

/* no slot may lead into a dropped block: clear those whose target died
 * (each invalidation, before the blocks can be freed) */
static void unlink_dead(KitEmuTcache *tc) {
  pthread_mutex_lock(&tc->exits_mu);
  for (KitEmuExitChunk *c = tc->exits; c; c = c->next)
    for (unsigned i = 0; i < c->used; i++) {
      KitEmuExit *e = &c->slot[i];
      if (e->target && e->target->dead) { /* its pc stays: a block running now may still leave through it */
        e->code = kit_emu_exit_stub;
        e->target = NULL;
      }
    }
  pthread_mutex_unlock(&tc->exits_mu);
}

typedef struct Range {
  uint64_t va, end;
} Range;

static bool in_range(void *user, const KitEmuBlock *b) {
  const Range *r = user;
  return b->lo < r->end && r->va < b->end;
}

/* the blocks of [va, va+len) dropped, the tools told why (KIT_EMU_INVAL_*;
 * 0: not told, the caller tells them); returns how many */
unsigned kit_tcache_invalidate(KitEmuTcache *tc, uint64_t va, uint64_t len, unsigned reason) {
  if (!tc) return 0;
  Range r = {va, va + len < va ? UINT64_MAX : va + len};
  if (r.end <= tc->code_lo || va >= tc->code_hi) return 0;
  unsigned n = kit_tcache_invalidate_if(tc, in_range, &r);
  if (n && reason && tc->emu->tools) kit_emu_ev_invalidate(tc->emu, r.va, r.end, reason);
  return n;
}

unsigned kit_tcache_invalidate_if(KitEmuTcache *tc, bool (*pred)(void *user, const KitEmuBlock *b), void *user) {
  if (!tc) return 0;
  bool linked = false;
  unsigned any = 0;
  for (uint32_t i = 0; i < tc->nbuckets; i++) {
    KitEmuBlock **pp = &tc->buckets[i];
    while (*pp) {
      KitEmuBlock *b = *pp;
      if (pred(user, b)) {
        *pp = b->next;
        if (tc->jc[kit_tcache_jc_slot(b->pc)] == b) tc->jc[kit_tcache_jc_slot(b->pc)] = NULL;
        __atomic_store_n(&b->dead, true, __ATOMIC_RELAXED);
        atomic_thread_fence(memory_order_seq_cst); /* against kit_emu_chain_lookup's fill */
        cc_empty(tc, b->pc);
        b->next = tc->graveyard;
        b->died = tc->epoch;
        linked |= b->code != NULL;
        tc->graveyard = b;
        tc->nblocks--;
        any++;
      } else {
        pp = &b->next;
      }
    }
  }
  if (linked && (tc->linked || tc->emu->parallel)) unlink_dead(tc); /* a parallel thread may be linking */
  if (any) {
    tc->epoch++;
    kit_emu_stop_all(tc->emu);
    tc->generation++;
    tc->emu->stats.invalidations++;
  }
  return any;
}

unsigned kit_tcache_sync_shared(KitEmuTcache *tc) {
  if (!tc) return 0;
  const KitEmuAspace *as = &tc->emu->as;
  unsigned n = 0;
  for (size_t i = 0; i < as->nregs; i++) {
    const KitEmuRegion *r = &as->regs[i];
    if (r->shared && (r->prot & KIT_EMU_PROT_EXEC))
      n += kit_tcache_invalidate(tc, r->start, r->end - r->start, KIT_EMU_INVAL_FLUSH);
  }
  return n;
}

unsigned kit_tcache_flush(KitEmuTcache *tc, unsigned reason) {
  if (!tc) return 0;
  unsigned n = kit_tcache_invalidate(tc, 0, UINT64_MAX, reason);
  memset(tc->jc, 0, sizeof tc->jc);
  cc_clear(tc);
  tc->generation++;
  return n;
}
