/* emu/tier_interp.c — the interpreter tier (tier 0): a block's CG, lifted
 * when the block is first interpreted, run by cg/'s interpreter (one small
 * module and interpreter per block). */
#include "tier_impl.h"

bool kit_tier_interp_run(KitEmu *emu, KitEmuBlock *b, uint64_t *next) {
  *next = b->pc;
  KitEmuTierState *t = emu->tier;
  if (!b->f && !kit_emu_block_lift(emu, b)) {
    kit_emu_raise(emu, SIGILL, 1, b->pc); /* ILL_ILLOPC */
    return false;
  }
  if (!b->ip) {
    b->ip = kit_interp_new(b->m, t->resolve, emu, emu->log);
    if (!b->ip) {
      kit_emu_warn(emu, "internal error: cannot interpret the block at 0x%llx", (unsigned long long)b->pc);
      emu->exited = true;
      emu->exit_status = 125;
      return false;
    }
  }
  KitCgScalar arg = {.i = (uint64_t)(uintptr_t)kit_emu_cpu(emu)}, ret[2];
  if (kit_interp_call(b->ip, b->f, &arg, 1, ret) != 0) {
    kit_emu_warn(emu, "internal error: the interpreter trapped in the block at 0x%llx", (unsigned long long)b->pc);
    emu->exited = true;
    emu->exit_status = 125;
    return false;
  }
  *next = ret[0].i;
  return true;
}

void kit_tier_interp_drop(KitEmuBlock *b) {
  if (b->ip) kit_interp_free(b->ip);
  if (b->m) kit_cg_module_free(b->m);
  b->ip = NULL;
  b->m = NULL;
  b->f = NULL;
}

void kit_tier_discard_interp(KitEmuBlock *b) {
  /* its frame is still on the thread's interpreter stack */
  kit_interp_abandon_thread();
  if (b->ip) kit_interp_free(b->ip);
  b->ip = NULL;
}
