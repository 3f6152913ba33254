/* emu/translate.h — the translate stage: guest instructions to a CG block
 * function (the arch's lift through the memory seam, tool shims, chained
 * or plain exits, the pass pipeline), for the tiers to run. */
#ifndef KIT_EMU_TRANSLATE_H
#define KIT_EMU_TRANSLATE_H

#include "blocks.h"
#include "chain.h"
#include "seam.h"

/* Lift decoded instructions into `i64 emu_block_<pc>(ptr cpu)` of module m
 * with the memory seam and tool shims, then run the pass pipeline; NULL
 * (message on err) when it cannot. Called on the JIT worker too. */
KitCgFunc *kit_emu_translate_insns(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n,
                                   FILE *err);
/* The same for compiled code (the baseline and LLVM tiers), named `name`
 * (unique in its JIT): exits chain to the next compiled block when
 * kit_emu_chaining allows. */
KitCgFunc *kit_emu_translate_jit(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n, const char *name,
                                  FILE *err);
/* the names the code calls a tool's function by directly: this prefix and
 * the function's address in hex (kit_emu_resolve reads it back) */
#define KIT_EMU_DIRECT_CALL_PREFIX "kit_emu_cb_"

/* blk's CG for the interpreter (blk->m, blk->f) unless it has one; false
 * when the block cannot be lifted */
bool kit_emu_block_lift(KitEmu *emu, KitEmuBlock *blk);

#endif
