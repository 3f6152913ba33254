/* emu/tools/tools.h — the tools built into kit-emu, each installed on a
 * KitEmu through the public hook API only (include/kit/emu.h), and the
 * loader for tools in shared objects. */
#ifndef KIT_EMU_TOOLS_H
#define KIT_EMU_TOOLS_H

#include "kit/emu.h"

/* strace(1)-style lines on out for every guest system call */
int kit_emu_tool_strace_install(KitEmu *emu, FILE *out);
/* exact retired-instruction count, printed to out when the guest ends */
int kit_emu_tool_insncount_install(KitEmu *emu, FILE *out);
/* a tool in a shared object exporting kit_emu_tool_version and
 * kit_emu_tool_install; returns 0 or -1 with a message on err */
int kit_emu_tool_load(KitEmu *emu, const char *path, const char *args, FILE *err);

#endif
