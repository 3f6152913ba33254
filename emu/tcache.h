/* emu/tcache.h — translated blocks: keyed by guest pc in a hash table with a
 * direct-mapped jump cache in front; invalidated by guest address range
 * (munmap, mprotect, self-modifying code) or wholesale (an instruction-cache flush). */
#ifndef KIT_EMU_TCACHE_H
#define KIT_EMU_TCACHE_H

#include "internal.h"
#include "kit/cg_exec.h"

typedef struct KitEmuBlock {
  uint64_t pc, end;        /* entry pc; end of the guest bytes the block was decoded from */
  uint64_t lo;             /* their start: [lo, end) covers a superblock's jumps back too */
  uint32_t ninsns;
  KitDecodedInsn *insns;   /* owned */
  struct KitEmuTbRec *instr; /* owned: what the tools asked for it (instrument.h), NULL: nothing */
  KitCgModule *m;          /* tier 0: one module per block */
  KitCgFunc *f;
  KitInterp *ip;           /* created on first interpretation */
  int64_t (*code)(void *cpu); /* compiled code, baseline or LLVM (tier.h); NULL in the interpreter */
  KitDecodedInsn *code_insns; /* the insns the compiled translation points into */
  uint32_t code_ninsns;     /* (a trace may hold more than the block: blocks.c, "Traces") */
  uint32_t taken, fall;    /* tier 0: how its ending conditional branch went */
  uint32_t count;          /* executions in tier 0 */
  bool queued;             /* waiting for the LLVM batch */
  bool dead;               /* invalidated: exits that lead here get unlinked */
  bool queued2, tier2;     /* waiting for / running tier-2 code */
  bool baseline_tried;     /* the baseline compiler saw it */
  bool baseline;           /* running baseline code (cg/baseline) */
  uint64_t died;           /* the cache's epoch when it was invalidated */
  struct KitEmuBlock *next; /* hash chain, then graveyard chain */
} KitEmuBlock;

/* An exit of a jitted block (docs/emu.md, "Chaining"): the block's LLVM code
 * jumps to `code`, the target block's code once the dispatcher has linked
 * the slot, kit_emu_exit_stub until then (it records the slot in
 * the thread's last_exit and returns to the dispatcher). Slots are allocated while
 * a block is translated for LLVM (the address is a constant in the code),
 * live as long as the emulator, and go back to the stub when their target
 * is invalidated. */
/* a block's code as chaining calls it (the second argument is extra for
 * blocks translated without chaining, which ignore it) */
static inline KitEmuCode kit_emu_code(int64_t (*code)(void *)) { return (KitEmuCode)(void (*)(void))code; }
struct KitEmuExit {
  KitEmuCode code;
  KitEmuBlock *target; /* NULL while unlinked */
  uint64_t pc;         /* where the exit goes: the code that jumps through it stores no pc */
};

#define KIT_EMU_EXITS_PER_CHUNK 4096u
typedef struct KitEmuExitChunk {
  struct KitEmuExitChunk *next;
  unsigned used;
  KitEmuExit slot[KIT_EMU_EXITS_PER_CHUNK];
} KitEmuExitChunk;

#define KIT_EMU_JC_SIZE 32768u /* 64 KiB of 2-byte-aligned pcs map to distinct slots */

struct KitEmuTcache {
  KitEmu *emu;
  KitEmuBlock **buckets;
  uint32_t nbuckets, nblocks;
  KitEmuBlock *jc[KIT_EMU_JC_SIZE];
  KitEmuBlock *graveyard;  /* invalidated while possibly running: freed once no thread can run them */
  uint64_t epoch;          /* bumped by every invalidation (KitEmuThread.seen, kit_tcache_reap) */
  uint64_t code_lo, code_hi; /* bounds of everything ever translated: cheap range rejection */
  uint64_t generation;     /* bumped by every invalidation (JIT results older than it are dropped) */
  /* exit slots of jitted code: allocated by the JIT worker, linked and
   * unlinked by the guest thread */
  pthread_mutex_t exits_mu;
  KitEmuExitChunk *exits;
  uint64_t linked;         /* slots ever linked (none: an invalidation has none to clear) */
};

/* where pc goes in the jump cache and in the code cache */
static inline uint32_t kit_tcache_jc_slot(uint64_t pc) { return (uint32_t)(pc >> 1) & (KIT_EMU_JC_SIZE - 1); }
static inline KitEmuCodeSlot *kit_tcache_cc(KitEmuThread *t, uint64_t pc) {
  return &t->cc[(uint32_t)(pc >> 1) & (KIT_EMU_CC_SIZE - 1)];
}

KitEmuTcache *kit_tcache_new(KitEmu *emu);
void kit_tcache_free(KitEmuTcache *tc);
/* drop every block (a new pass, new tool hooks, an instruction-cache flush) */
unsigned kit_tcache_flush(KitEmuTcache *tc, unsigned reason);
/* the guest flushed its instruction cache (an instruction or the arch's
 * system call): drop the blocks of executable MAP_SHARED
 * regions. Every other write to translated code is caught already (the
 * host write protection, kit_aspace_prep_write); a write through another
 * mapping of shared memory (a JIT's writable view of its code) is not.
 * Returns how many went; none and no work when no such region exists. */
unsigned kit_tcache_sync_shared(KitEmuTcache *tc);
/* drop the blocks made from guest bytes in [va, va + len) */
unsigned kit_tcache_invalidate(KitEmuTcache *tc, uint64_t va, uint64_t len, unsigned reason);
/* ... every block for which pred says so */
unsigned kit_tcache_invalidate_if(KitEmuTcache *tc, bool (*pred)(void *user, const KitEmuBlock *b), void *user);
KitEmuBlock *kit_tcache_lookup(KitEmuTcache *tc, uint64_t pc);
void kit_tcache_insert(KitEmuTcache *tc, KitEmuBlock *b);
/* a new exit slot to guest pc, unlinked (any thread) */
KitEmuExit *kit_tcache_exit_new(KitEmuTcache *tc, uint64_t pc);
/* point exit slot e at block b's LLVM code (guest thread) */
void kit_tcache_link(KitEmuTcache *tc, KitEmuExit *e, KitEmuBlock *b);
/* b's code now also covers guest bytes [lo, end) */
void kit_tcache_extend(KitEmuTcache *tc, KitEmuBlock *b, uint64_t lo, uint64_t end);
/* b has new code: the exit slots and the code cache that lead to it follow */
void kit_tcache_relink(KitEmuTcache *tc, KitEmuBlock *b);
/* free what was invalidated and no thread can be running: at self's
 * boundary (self NULL: outside every thread) */
void kit_tcache_reap(KitEmuTcache *tc, KitEmuThread *self);

/* Where unlinked exits lead: notes the slot (the thread's last_exit), returns to
 * the dispatcher the slot's target pc (an indirect exit, entered through no
 * slot: the pc the block stored). */
int64_t kit_emu_exit_stub(void *cpu, KitEmuExit *via);
/* the compiled code for pc from the code cache, or the exit stub (an
 * indirect exit's chain); the jump lifted code takes on a probe's miss */
KitEmuCode kit_emu_chain_lookup(int64_t pc);
int64_t kit_emu_chain_miss(void *cpu, int64_t pc);

#endif
