/* emu/tools/msan/msan.h — kit-emu's MemorySanitizer (--sanitize=memory), a
 * built-in tool on the public tool API: the MSan pass of passes/ over every
 * lifted block, guest memory's shadow (a host mapping beside the window),
 * the guest registers' shadow (a copy of the CPU state's layout), the malloc
 * family and string functions replaced, system calls' effects, reports in
 * the compiled runtime's text (docs/msan.md). */
#ifndef KIT_EMU_MSAN_H
#define KIT_EMU_MSAN_H

/* kit_emu_msan_install, main.c's entry, is declared with the other tools */
#include "../tools.h"

#endif
