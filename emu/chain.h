/* emu/chain.h — the CG of chained exits (docs/emu.md, "Chaining"): what
 * translation emits so that compiled blocks jump to each other through exit
 * slots and the code cache (tcache.h) instead of returning to the
 * dispatcher. */
#ifndef KIT_EMU_CHAIN_H
#define KIT_EMU_CHAIN_H

#include "seam.h"
#include "tcache.h"

/* the byte at offset off of the running guest thread's block (internal.h,
 * KitEmuThread: its fields, its tool area), relative to the CPU state the
 * code is called with: [cpu + disp] */
KitCgVal kit_emu_cg_thread_field(KitCgBuilder *b, KitCgVal cpu, size_t off);
/* on to block go unless the thread's chain_stop is set; then back to the
 * dispatcher, which goes on at pc */
void kit_emu_emit_stop_check(KitCgBuilder *b, KitCgVal cpu, uint64_t pc, KitCgBlkId go);
/* the same at the function's entry, continuing in a new block */
void kit_emu_emit_entry_check(KitCgBuilder *b, KitCgVal cpu, uint64_t pc);
/* a tail jump through exit slot `slot` */
void kit_emu_emit_exit(KitCgBuilder *b, KitCgVal cpu, KitEmuExit *slot);
/* an indirect exit to next: the code cache probed inline (the entry
 * kit_tcache_cc picks), kit_emu_chain_miss only on a miss: most indirect
 * exits (returns, jump tables) hit */
void kit_emu_emit_indirect_exit(KitCgBuilder *b, KitCgVal cpu, KitCgVal next);

#endif
