/* passes/rewrite.h — what the passes that rebuild a function around its own
 * instructions share (ASan, MSan): declaring a runtime entry point, copying
 * the program's instructions into the new body, and marking everything else
 * the pass emitted as not to be instrumented again. */
#ifndef KIT_PASSES_REWRITE_H
#define KIT_PASSES_REWRITE_H

#include <stdbool.h>

#include "kit/cg.h"

/* While a function is rewritten, the program's own instructions carry this
 * flag bit (unused by cg.h) so that everything else can be marked NOINSTR. */
#define KIT_PASS_ORIGINAL (1u << 15)

/* a runtime function the pass calls: nounwind, and cold+noreturn when it
 * does not return (the report paths); UINT32_MAX when it cannot be declared */
KitCgSym kit_pass_runtime_fn(KitCgModule *m, const char *name, KitCgType ret, const KitCgType *params, uint32_t n,
                             bool noreturn);
/* append one of the program's own instructions to block blk of f, marked as
 * the program's while the function is rebuilt */
void kit_pass_append_original(KitCgModule *m, KitCgFunc *f, KitCgBlkId blk, const KitCgInst *in);
/* after the rebuild: the program's instructions lose the mark, everything
 * the pass emitted gets KIT_CG_F_NOINSTR */
void kit_pass_mark_emitted(KitCgFunc *f);

#endif
