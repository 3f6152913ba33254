/* emu/tier.h — the two execution tiers of translated blocks: tier 0 runs the
 * block's CG in the interpreter, tier 1 runs LLVM code compiled in batches of
 * hot blocks (on a worker thread when it can). */
#ifndef KIT_EMU_TIER_H
#define KIT_EMU_TIER_H

#include "tcache.h"

KitEmuTierState *kit_tier_new(KitEmu *emu);
void kit_tier_free(KitEmuTierState *t);
/* Runs one block; returns the next guest pc, or sets emu->exited with an
 * internal-error status when an executor fails. */
uint64_t kit_tier_run(KitEmu *emu, KitEmuBlock *b, bool *compiled);
/* Installs finished LLVM batches (dispatcher boundary only). */
void kit_tier_poll(KitEmu *emu);
/* A host fault left the interpreter of this block mid-call: drop it. */
void kit_tier_discard_interp(KitEmuBlock *b);
/* In a fork child: the worker thread did not survive; stop using LLVM. */
void kit_tier_after_fork(KitEmu *emu);
bool kit_tier_jit_available(void);
void kit_tier_stats(KitEmu *emu, KitEmuStats *out);

bool kit_tier_fault_pc(KitEmu *emu, uintptr_t host_pc, uint64_t *pc);

#endif
