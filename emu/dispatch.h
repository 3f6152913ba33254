/* emu/dispatch.h — the dispatch stage: the loop that runs the guest block
 * by block until it exits. */
#ifndef KIT_EMU_DISPATCH_H
#define KIT_EMU_DISPATCH_H

#include "internal.h"

/* runs the guest from its pc; returns its exit status */
int kit_emu_exec_loop(KitEmu *emu);

#endif
