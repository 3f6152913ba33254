/* emu/tcache.c — the translation cache: a pc-keyed hash of translated blocks,
 * a direct-mapped jump cache in front of it, range and full invalidation,
 * and deferred freeing (a block may be invalidated by its own ecall). */
#include "tcache.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_pc(uint64_t pc, uint32_t n) { return (uint32_t)((pc >> 1) * 0x9E3779B97F4A7C15ull >> 40) & (n - 1); }
static uint32_t jc_slot(uint64_t pc) { return (uint32_t)(pc >> 1) & (KIT_EMU_JC_SIZE - 1); }

KitEmuTcache *kit_tcache_new(KitEmu *emu) {
  KitEmuTcache *tc = calloc(1, sizeof *tc);
  tc->emu = emu;
  tc->nbuckets = 4096;
  tc->buckets = calloc(tc->nbuckets, sizeof *tc->buckets);
  return tc;
}

static void block_free(KitEmuBlock *b) {
  if (b->ip) kit_interp_free(b->ip);
  if (b->m) kit_cg_module_free(b->m);
  free(b->insns);
  free(b->jit_insns);
  free(b);
}

void kit_tcache_reap(KitEmuTcache *tc) {
  while (tc->graveyard) {
    KitEmuBlock *b = tc->graveyard;
    tc->graveyard = b->next;
    block_free(b);
  }
}

void kit_tcache_free(KitEmuTcache *tc) {
  if (!tc) return;
  kit_tcache_flush(tc);
  kit_tcache_reap(tc);
  free(tc->buckets);
  free(tc);
}

KitEmuBlock *kit_tcache_lookup(KitEmuTcache *tc, uint64_t pc) {
  KitEmuBlock *b = tc->jc[jc_slot(pc)];
  if (b && b->pc == pc) return b;
  for (b = tc->buckets[hash_pc(pc, tc->nbuckets)]; b; b = b->next)
    if (b->pc == pc) {
      tc->jc[jc_slot(pc)] = b;
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
  if (!tc->code_hi || b->pc < tc->code_lo) tc->code_lo = b->pc;
  if (b->end > tc->code_hi) tc->code_hi = b->end;
  tc->jc[jc_slot(b->pc)] = b;
}

void kit_tcache_invalidate(KitEmuTcache *tc, uint64_t va, uint64_t len) {
  if (!tc) return;
  uint64_t end = va + len < va ? UINT64_MAX : va + len;
  if (end <= tc->code_lo || va >= tc->code_hi) return;
  bool any = false;
  for (uint32_t i = 0; i < tc->nbuckets; i++) {
    KitEmuBlock **pp = &tc->buckets[i];
    while (*pp) {
      KitEmuBlock *b = *pp;
      if (b->pc < end && va < b->end) {
        *pp = b->next;
        if (tc->jc[jc_slot(b->pc)] == b) tc->jc[jc_slot(b->pc)] = NULL;
        b->next = tc->graveyard;
        tc->graveyard = b;
        tc->nblocks--;
        any = true;
      } else {
        pp = &b->next;
      }
    }
  }
  if (any) {
    tc->generation++;
    tc->emu->stats.invalidations++;
  }
}

void kit_tcache_flush(KitEmuTcache *tc) {
  if (!tc) return;
  kit_tcache_invalidate(tc, 0, UINT64_MAX);
  memset(tc->jc, 0, sizeof tc->jc);
  tc->generation++;
}
