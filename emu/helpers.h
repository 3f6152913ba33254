/* emu/helpers.h — the names lifted code calls, resolved for every tier
 * (kit_emu_resolve, include/kit/emu.h). */
#ifndef KIT_EMU_HELPERS_H
#define KIT_EMU_HELPERS_H

#include "internal.h"

/* names lifted code calls that a mode of the emulator defines (ASan's report
 * entry points, emu/san.c): consulted before the process's symbols */
extern void *(*kit_emu_resolve_hook)(const char *name);

#endif
