/* emu/jitload.h — the LLVM JIT as the tiers see it: kit_jit_* of
 * include/kit/cg_exec.h, reached through kit-emu-jit.so (bin/../lib), which
 * is loaded on the first call. A run whose blocks never get hot does not map,
 * relocate or initialise libLLVM at all (docs/emu.md, "Start-up"). */
#ifndef KIT_EMU_JITLOAD_H
#define KIT_EMU_JITLOAD_H

#include <stdio.h>

#include "kit/cg_exec.h"

/* NULL with a message on err when the JIT cannot be loaded or made */
KitJit *kit_emu_jit_new(int opt_level, KitCgResolver resolve, void *user, FILE *err);
void kit_emu_jit_free(KitJit *j);
int kit_emu_jit_add(KitJit *j, KitCgModule *m, FILE *err);
void *kit_emu_jit_lookup(KitJit *j, const char *name);

/* the plugin's check that it was built against the same CG structures */
#define KIT_EMU_JIT_ABI                                                                                   \
  ((unsigned long)sizeof(KitCgModule) << 40 ^ (unsigned long)sizeof(KitCgFunc) << 24 ^                    \
   (unsigned long)sizeof(KitCgInst) << 8 ^ (unsigned long)sizeof(KitCgBlock))
unsigned long kit_emu_jit_abi(void);

#endif
