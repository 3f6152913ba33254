/* emu/tier.h — the tiers stage: how a block's CG is run. Four tiers: the
 * interpreter (tier 0, cold code), the baseline compiler (cg/baseline, warm
 * code: on a block's first run), LLVM (tier 1: hot blocks compiled in
 * batches on a worker thread when it can) and tier 2 (LLVM again with the
 * full register allocator, for the blocks the worker samples hottest, as
 * traces or regions). The baseline and LLVM tiers leave their code in
 * KitEmuBlock.code; the dispatcher calls it the same way. */
#ifndef KIT_EMU_TIER_H
#define KIT_EMU_TIER_H

#include "translate.h"

/* the tiers of emu; resolve names what lifted code calls (helpers.c) */
KitEmuTierState *kit_tier_new(KitEmu *emu, KitCgResolver resolve);
void kit_tier_free(KitEmuTierState *t);
/* Runs one block; returns the next guest pc, or sets emu->exited with an
 * internal-error status when an executor fails. */
uint64_t kit_tier_run(KitEmu *emu, KitEmuBlock *b, bool *compiled);
/* Installs finished LLVM batches, queues sampled blocks for tier 2
 * (dispatcher boundary only). */
void kit_tier_poll(KitEmu *emu);
/* A host fault left the interpreter of this block mid-call: drop it. */
void kit_tier_discard_interp(KitEmuBlock *b);
/* In a fork child: the worker thread did not survive; stop using LLVM. */
void kit_tier_after_fork(KitEmu *emu);
bool kit_tier_jit_available(void);
void kit_tier_stats(KitEmu *emu, KitEmuStats *out);

/* a host fault in baseline code: the guest pc it stopped at (the baseline
 * compiler keeps it in a side table instead of storing it before each
 * access); signal handler, guest thread */
bool kit_tier_fault_pc(KitEmu *emu, uintptr_t host_pc, uint64_t *pc);

#endif
