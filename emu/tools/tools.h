/* emu/tools/tools.h — the tools built into kit-emu, each a KitEmuTool on the
 * public tool API (include/kit/emu_tool.h) and one line of main.c's table,
 * and the loader for tools in shared objects. */
#ifndef KIT_EMU_TOOLS_H
#define KIT_EMU_TOOLS_H

#include <stdio.h>

#include "kit/emu_tool.h"

/* strace(1)-style lines on out for every guest system call */
int kit_emu_tool_strace_main(KitEmuTool *tool, FILE *out);
/* exact retired-instruction count, printed to out when the guest ends */
int kit_emu_tool_insncount_main(KitEmuTool *tool, FILE *out);
/* --tool=callgrind[,OPTIONS]: callgrind.out (and folded stacks, a flame
 * graph) at exit; args are its comma-separated options (docs/callgrind.md) */
int kit_emu_tool_callgrind_main(KitEmuTool *tool, const char *args, FILE *err);
/* -g WHERE: the gdb remote stub on a TCP port (WHERE a number) or a Unix
 * socket (a path); waits for gdb to connect (emu/tools/gdb/tool.c) */
int kit_emu_tool_gdb_main(KitEmuTool *tool, const char *where, FILE *err);
/* MemorySanitizer on guest code (tools/msan/msan.c, --sanitize=memory); recover:
 * reports continue under MSAN_OPTIONS=halt_on_error=0. 0, or -1 with a message on err */
int kit_emu_msan_install(KitEmu *emu, bool recover, int origins, FILE *err);
/* a tool in a shared object exporting kit_emu_tool_api_version and
 * kit_emu_tool_main; returns 0 or -1 with a message on err */
int kit_emu_tool_load(KitEmu *emu, const char *path, const char *args, FILE *err);

#endif
