/* emu/fault.h — the fault stage: a host fault (or a memory tool's
 * refusal) in guest terms — pc, address, retired count — raised as the
 * guest's signal. */
#ifndef KIT_EMU_FAULT_H
#define KIT_EMU_FAULT_H

#include "tier.h"

/* the host SIGSEGV/SIGBUS handler (on the signal stack) */
void kit_emu_fault_install(void);
/* A load or store stopped the running block (the thread's block_pc) after
 * `retired` instructions: count those (instret) and tell the tools
 * (on_block_fault). */
void kit_emu_block_fault(KitEmu *emu, uint32_t retired);
/* after a host fault: the block's instructions before the faulting pc */
uint32_t kit_emu_fault_retired(KitEmu *emu);
/* helper lifted code calls by name: a memory tool refused the access */
int64_t kit_emu_mem_fault(void *cpu, int64_t addr);

#endif
