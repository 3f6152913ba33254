/* emu/jit_plugin.c — kit-emu-jit.so: kitllvm (kit_jit_*) and libLLVM in a
 * shared object that kit-emu loads when a block first gets hot
 * (emu/jitload.c); this file only adds the build check. */
#include "jitload.h"

unsigned long kit_emu_jit_abi(void) { return KIT_EMU_JIT_ABI; }
