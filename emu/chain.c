/* emu/chain.c — the CG of a chained block's exits (docs/emu.md,
 * "Chaining"): the entry check of the thread's chain_stop, a tail jump through an
 * exit slot per static target, the inline probe of the code cache for
 * indirect ones. Slots, the code cache and the exit stub are the
 * translation cache's (tcache.c). */
#include <stddef.h>

#include "chain.h"
#include "seam.h"

KitCgVal kit_emu_cg_thread_field(KitCgBuilder *b, KitCgVal cpu, size_t off) {
  int64_t d = (int64_t)off - (int64_t)offsetof(KitEmuThread, cpu);
  return kit_cg_ptradd(b, cpu, kit_cg_iconst(b, KIT_CG_I64, (uint64_t)d));
}

static KitCgVal load_at(KitCgBuilder *b, KitCgType t, KitCgVal ptr, uint64_t off) {
  if (off) ptr = kit_cg_ptradd(b, ptr, kit_cg_iconst(b, KIT_CG_I64, off));
  return kit_cg_load(b, t, ptr, kit_cg_type_size(t), KIT_CG_INTERNAL);
}

/* r is the result of the call just emitted: make it a tail call and return it */
static void tail_ret(KitCgBuilder *b, KitCgVal r) {
  b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_TAIL;
  kit_cg_ret(b, r);
}

void kit_emu_emit_stop_check(KitCgBuilder *b, KitCgVal cpu, uint64_t pc, KitCgBlkId go) {
  KitCgVal stop = kit_cg_load(b, KIT_CG_I32, kit_emu_cg_thread_field(b, cpu, offsetof(KitEmuThread, chain_stop)), 4, KIT_CG_INTERNAL);
  KitCgBlkId back = kit_cg_block_new(b->m, b->f);
  kit_cg_condbr(b, kit_cg_cmp(b, KIT_CG_EQ, stop, kit_cg_iconst(b, KIT_CG_I32, 0)), go, back);
  b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_LIKELY;
  kit_cg_builder_at(b, back);
  kit_cg_ret(b, kit_cg_iconst(b, KIT_CG_I64, pc));
}

void kit_emu_emit_entry_check(KitCgBuilder *b, KitCgVal cpu, uint64_t pc) {
  KitCgBlkId go = kit_cg_block_new(b->m, b->f);
  kit_emu_emit_stop_check(b, cpu, pc, go);
  kit_cg_builder_at(b, go);
}

/* jump to the code pointer at `at` + off with (cpu, via); in a block of its
 * own: the fast instruction selector leaves tail calls to SelectionDAG,
 * which then selects the whole LLVM block (the baseline compiler jumps
 * through memory) */
static void emit_tail(KitCgBuilder *b, KitCgVal at, uint64_t off, KitCgVal cpu, KitCgVal via) {
  KitCgBlkId tail = kit_cg_block_new(b->m, b->f);
  kit_cg_br(b, tail);
  kit_cg_builder_at(b, tail);
  KitCgVal args[2] = {cpu, via};
  tail_ret(b, kit_cg_calli(b, load_at(b, KIT_CG_PTR, at, off), KIT_CG_I64, args, 2));
}

void kit_emu_emit_exit(KitCgBuilder *b, KitCgVal cpu, KitEmuExit *slot) {
  KitCgVal sp = kit_emu_cg_host_ptr(b, slot);
  emit_tail(b, sp, offsetof(KitEmuExit, code), cpu, sp);
}

void kit_emu_emit_indirect_exit(KitCgBuilder *b, KitCgVal cpu, KitCgVal next) {
  KitCgVal idx = kit_cg_binop(b, KIT_CG_OP_AND, kit_cg_binop(b, KIT_CG_OP_LSHR, next, kit_cg_iconst(b, KIT_CG_I64, 1)),
                              kit_cg_iconst(b, KIT_CG_I64, KIT_EMU_CC_SIZE - 1));
  KitCgVal slot = kit_cg_ptradd(b, kit_emu_cg_thread_field(b, cpu, offsetof(KitEmuThread, cc)), /* the thread's own */
                                kit_cg_binop(b, KIT_CG_OP_MUL, idx, kit_cg_iconst(b, KIT_CG_I64, sizeof(KitEmuCodeSlot))));
  KitCgVal hit = kit_cg_cmp(b, KIT_CG_EQ, load_at(b, KIT_CG_I64, slot, offsetof(KitEmuCodeSlot, pc)), next);
  KitCgBlkId yes = kit_cg_block_new(b->m, b->f), no = kit_cg_block_new(b->m, b->f);
  kit_cg_condbr(b, hit, yes, no);
  b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_LIKELY;
  kit_cg_builder_at(b, yes);
  emit_tail(b, slot, offsetof(KitEmuCodeSlot, code), cpu, kit_emu_cg_host_ptr(b, NULL));
  kit_cg_builder_at(b, no);
  kit_cg_store(b, next, cpu, 8, KIT_CG_INTERNAL); /* the exit stub reads it (the pc is the state's first field) */
  KitCgType pt[2] = {KIT_CG_PTR, KIT_CG_I64};
  KitCgVal args[2] = {cpu, next};
  tail_ret(b, kit_emu_call_helper(b, "kit_emu_chain_miss", KIT_CG_I64, pt, args, 2));
}
