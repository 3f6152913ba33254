/* emu/seam.h — the memory seam (part of translate): how lifted guest loads
 * and stores reach the guest window (branch-free, out-of-window addresses
 * clamped into the guard; or checked, with a fault exit, for an instruction
 * a tool watches; fault.c gets a clamped access's guest address back). The
 * lifter calls it through KitLiftEnv; translation owns one per block. */
#ifndef KIT_EMU_SEAM_H
#define KIT_EMU_SEAM_H

#include "internal.h"
#include "kit/arch.h"

#define KIT_EMU_SEAM_MAX_FAULTS (2 * KIT_EMU_MAX_BLOCK_INSNS)

/* In the checked form the failing checks of a block all branch to one
 * fault exit (a phi of the address, the call, the return), emitted by
 * seam_finish: one block and one call per block instead of per access keeps
 * tier 0's CG and decoded code small (docs/emu.md, "Start-up"). */
typedef struct KitEmuSeam {
  KitLiftEnv env;
  KitEmu *emu;
  KitCgVal cpu;
  KitCgBlkId fault; /* 0: none yet */
  unsigned nfault;
  KitCgVal fault_addr[KIT_EMU_SEAM_MAX_FAULTS];
  KitCgBlkId fault_from[KIT_EMU_SEAM_MAX_FAULTS];
  /* the instructions being lifted: their memory callbacks, if any, make
   * their accesses checked */
  const KitDecodedInsn *insns;
  unsigned ninsns;
} KitEmuSeam;

/* a seam for the block being built in function f (cpu: its parameter) */
void kit_emu_seam_init(KitEmuSeam *s, KitEmu *emu, KitCgVal cpu);
/* after the block's epilogue: the shared fault exit, if any access has one */
void kit_emu_seam_finish(KitEmuSeam *s, KitCgBuilder *b);

/* the instruction of b's current block that defines v, or NULL (what the
 * emulator's lifted code is made of, read back: the seam's address, a
 * branch's select) */
const KitCgInst *kit_emu_def_here(KitCgBuilder *b, KitCgVal v);

/* host pointer p as a constant of the code */
KitCgVal kit_emu_cg_host_ptr(KitCgBuilder *b, const void *p);

/* a call of the helper NAME (declared in b's module on first use) */
KitCgVal kit_emu_call_helper(KitCgBuilder *b, const char *name, KitCgType ret, const KitCgType *pt,
                            const KitCgVal *args, uint32_t n);


#endif
