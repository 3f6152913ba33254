/* emu/tier_baseline.c — the baseline tier: cg/baseline compiles a block's CG
 * straight to x86-64 in microseconds (docs/emu.md, "Baseline tier"), on the
 * block's first run; what it declines stays on the way to LLVM. It keeps the
 * guest pc of each access in a side table for the fault stage. */
#include "tier_impl.h"

#include <stdlib.h>
#include <string.h>

/* the block's baseline code (cg/baseline) from now on, if the compiler takes it;
 * else it stays on the way to LLVM */
void kit_tier_baseline_take(KitEmu *emu, KitEmuBlock *b) {
  KitEmuTierState *t = emu->tier;
  uint64_t t0 = kit_tier_thread_cpu_ns();
  b->baseline_tried = true;
  if (!t->compiler && !(t->compiler = kit_baseline_new(t->resolve, emu))) {
    t->baseline = false;
    return;
  }
  KitCgModule *m = kit_cg_module_new("baseline");
  char name[48];
  snprintf(name, sizeof name, "emu_block_%llx_b", (unsigned long long)b->pc);
  KitCgFunc *f = kit_emu_translate_jit(emu, m, b->insns, b->ninsns, name, emu->log);
  const char *why = NULL;
  void *code = f ? kit_baseline_compile(t->compiler, m, f, &why) : NULL;
  kit_cg_module_free(m);
  KitDecodedInsn *insns = code ? malloc(b->ninsns * sizeof *insns) : NULL;
  if (insns) {
    memcpy(insns, b->insns, b->ninsns * sizeof *insns);
    kit_tier_take_code(emu, b, (int64_t (*)(void *))code, insns, b->ninsns, KIT_EMU_CODE_BASELINE);
    b->baseline = true;
    t->baseline_blocks++;
    kit_tier_interp_drop(b);
  } else {
    t->baseline_declined++;
    if (emu->opt.debug & KIT_EMU_DEBUG_EXEC)
      fprintf(emu->log, "kit-emu: baseline: block 0x%llx left to LLVM: %s\n", (unsigned long long)b->pc,
              why ? why : "no translation");
  }
  t->baseline_ns += kit_tier_thread_cpu_ns() - t0;
}

bool kit_tier_fault_pc(KitEmu *emu, uintptr_t host_pc, uint64_t *pc) {
  return emu->tier && emu->tier->compiler && kit_baseline_fault_value(emu->tier->compiler, host_pc, pc);
}

void kit_tier_baseline_free(KitEmuTierState *t) { kit_baseline_free(t->compiler); }
