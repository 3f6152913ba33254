/* emu/tool_gdb.c — the tool API's calls for debuggers (include/kit/emu_tool.h,
 * "for debuggers"): retranslation of the pages a breakpoint touches, on the
 * translation cache's own invalidation (blocks that may be running wait in
 * its graveyard until the next boundary, as after a guest's munmap), and a
 * flush asked for from another thread, on the path a write to translated
 * code takes from the fault handler (the dispatcher flushes at its next
 * boundary when smc_overflow is set; the entry checks see chain_stop). */
#include <stdlib.h>

#include "internal.h"
#include "tcache.h"

/* The invalidation unlinks the exit slots that lead into dropped blocks by
 * clearing them whole, the pc the stub returns included (tcache.c,
 * unlink_dead): a block still running, or one that stays, then leaves
 * through such a slot to guest pc 0. Until the cache keeps the pc itself,
 * the pcs of the linked slots are noted before and put back after. */
typedef struct SlotPc {
  KitEmuExit *slot;
  uint64_t pc;
} SlotPc;

static SlotPc *linked_slots(KitEmuTcache *tc, size_t *n) {
  pthread_mutex_lock(&tc->exits_mu);
  size_t count = 0, k = 0;
  for (KitEmuExitChunk *c = tc->exits; c; c = c->next)
    for (unsigned i = 0; i < c->used; i++) count += c->slot[i].target != NULL;
  SlotPc *v = count ? malloc(count * sizeof *v) : NULL;
  for (KitEmuExitChunk *c = tc->exits; v && c; c = c->next)
    for (unsigned i = 0; i < c->used; i++)
      if (c->slot[i].target) v[k++] = (SlotPc){&c->slot[i], c->slot[i].pc};
  pthread_mutex_unlock(&tc->exits_mu);
  *n = k;
  return v;
}

void kit_emu_flush_code(KitEmu *emu, uint64_t va, uint64_t len) {
  if (!emu || !emu->tc || !len) return;
  KitEmuTcache *tc = emu->tc;
  size_t n;
  SlotPc *keep = linked_slots(tc, &n);
  if (len >= UINT64_MAX - va) kit_tcache_flush(tc);
  else kit_tcache_invalidate(tc, va, len);
  pthread_mutex_lock(&tc->exits_mu);
  for (size_t i = 0; i < n; i++)
    if (!keep[i].slot->target && !keep[i].slot->pc) keep[i].slot->pc = keep[i].pc;
  pthread_mutex_unlock(&tc->exits_mu);
  free(keep);
}

void kit_emu_request_flush(KitEmu *emu) {
  if (!emu) return;
  emu->smc_overflow = 1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  emu->chain_stop = 1;
}
