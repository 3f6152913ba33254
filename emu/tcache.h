/* emu/tcache.h — translated blocks: keyed by guest pc in a hash table with a
 * direct-mapped jump cache in front; invalidated by guest address range
 * (munmap, mprotect, self-modifying code) or wholesale (fence.i). */
#ifndef KIT_EMU_TCACHE_H
#define KIT_EMU_TCACHE_H

#include "internal.h"
#include "kit/cg_exec.h"

typedef struct KitEmuBlock {
  uint64_t pc, end;        /* guest bytes [pc, end) the block was decoded from */
  uint32_t ninsns;
  KitDecodedInsn *insns;   /* owned: on_insn_retire points into it */
  KitCgModule *m;          /* tier 0: one module per block */
  KitCgFunc *f;
  KitInterp *ip;           /* created on first interpretation */
  int64_t (*jit)(void *cpu);
  KitDecodedInsn *jit_insns; /* the insns the jitted translation points into */
  uint32_t count;          /* executions in tier 0 */
  bool queued;             /* waiting for the LLVM batch */
  struct KitEmuBlock *next; /* hash chain, then graveyard chain */
} KitEmuBlock;

#define KIT_EMU_JC_SIZE 32768u /* 64 KiB of 2-byte-aligned pcs map to distinct slots */

struct KitEmuTcache {
  KitEmu *emu;
  KitEmuBlock **buckets;
  uint32_t nbuckets, nblocks;
  KitEmuBlock *jc[KIT_EMU_JC_SIZE];
  KitEmuBlock *graveyard;  /* invalidated while possibly running: freed at the next boundary */
  uint64_t code_lo, code_hi; /* bounds of everything ever translated: cheap range rejection */
  uint64_t generation;     /* bumped by every invalidation (JIT results older than it are dropped) */
};

KitEmuBlock *kit_tcache_lookup(KitEmuTcache *tc, uint64_t pc);
void kit_tcache_insert(KitEmuTcache *tc, KitEmuBlock *b);
/* free what was invalidated; only where no block is running */
void kit_tcache_reap(KitEmuTcache *tc);

#endif
