/* emu/helpers.h — the names lifted code calls, resolved for every tier
 * (kit_emu_resolve), and the emulator entry points of include/kit/arch.h
 * defined here. */
#ifndef KIT_EMU_HELPERS_H
#define KIT_EMU_HELPERS_H

#include "internal.h"

int64_t kit_emu_breakpoint(void *cpu, int64_t pc, int64_t next);
int64_t kit_emu_illegal(void *cpu, int64_t pc, int64_t next);
int64_t kit_emu_icache_flush(void *cpu, int64_t pc, int64_t next);
/* The KitCgResolver for translated blocks: the emulator's helpers, the
 * tools' (kit_emu_tool_set_resolver), then the arch helpers through the
 * process's symbols. */
void *kit_emu_resolve(void *user, const char *name);

#endif
