/* emu/blocks.h — the blocks stage: decoding guest instructions at a pc,
 * a block up to its terminator (superblocks along direct jumps), the block
 * record, and the instructions a hot block is compiled from (a trace or a
 * region). */
#ifndef KIT_EMU_BLOCKS_H
#define KIT_EMU_BLOCKS_H

#include "tcache.h"

#define REGION_MAX_MEMBERS 8
#define REGION_MAX_INSNS (4 * KIT_EMU_MAX_BLOCK_INSNS)

/* Decode the instruction at guest pc into *in (zeroed first, pc set; it may
 * run into the next executable region): its length, 0 when it does not
 * decode, -1 when pc is not executable. Async-signal-safe (the fault
 * handler's address recovery uses it). */
int kit_emu_decode_at(KitEmu *emu, uint64_t pc, KitDecodedInsn *in);
/* decode up to the limit or a terminator, going on at the target of direct
 * jumps (not into a pc where blocks must start); returns the count (>= 1, the last one
 * possibly ILLEGAL) or 0 when pc itself is not executable */
unsigned kit_emu_decode_block(KitEmu *emu, uint64_t pc, KitDecodedInsn *out, unsigned limit);
/* the block at pc, decoded and put in the translation cache (no CG yet);
 * NULL when pc is not executable */
KitEmuBlock *kit_emu_block_new(KitEmu *emu, uint64_t pc);

/* The instructions to compile for block b: the block, then the blocks its
 * conditional branches led to in tier 0 at least TRACE_BIAS of the time
 * (blocks.c, "Traces"); a region around its loop at tier 2
 * (kit_emu_region). malloc'd, *n set. */
KitDecodedInsn *kit_emu_trace(KitEmu *emu, KitEmuBlock *b, unsigned *n);
KitDecodedInsn *kit_emu_region(KitEmu *emu, KitEmuBlock *b, unsigned *n);

#endif
