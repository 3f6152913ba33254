/* passes/rewrite.c — see rewrite.h. */
#include "rewrite.h"

KitCgSym kit_pass_runtime_fn(KitCgModule *m, const char *name, KitCgType ret, const KitCgType *params, uint32_t n,
                             bool noreturn) {
  KitCgFunc *f = kit_cg_func_declare(m, name, ret, params, n, false);
  if (!f) return UINT32_MAX;
  f->attrs |= KIT_CG_FA_NOUNWIND;
  if (noreturn) f->attrs |= KIT_CG_FA_NORETURN | KIT_CG_FA_COLD;
  return f->sym;
}

void kit_pass_append_original(KitCgModule *m, KitCgFunc *f, KitCgBlkId blk, const KitCgInst *in) {
  KitCgInst *slot = kit_cg_insert(m, f, blk, UINT32_MAX, KIT_CG_OP_CONST, KIT_CG_VOID, NULL, 0);
  *slot = *in;
  slot->flags |= KIT_PASS_ORIGINAL;
}

void kit_pass_mark_emitted(KitCgFunc *f) {
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      KitCgInst *in = &f->blocks[bi].insts[i];
      if (in->flags & KIT_PASS_ORIGINAL)
        in->flags &= (uint16_t)~KIT_PASS_ORIGINAL;
      else
        in->flags |= KIT_CG_F_NOINSTR;
    }
}
