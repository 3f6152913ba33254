/* emu/tools/gdb/gdb_tool.h — the gdb stub's entry points beside -g's
 * (tools.h): the stub on a connection made already, and kit-emu --dbg, the
 * built-in debugger that is the stub's client (dbg.c). */
#ifndef KIT_EMU_GDB_TOOL_H
#define KIT_EMU_GDB_TOOL_H

#include <stdbool.h>
#include <stdio.h>

#include "kit/emu_tool.h"

/* the stub serving the connected socket fd (it owns fd) */
int kit_emu_tool_gdb_main_fd(KitEmuTool *tool, int fd, FILE *err);
/* --dbg: the stub and its client thread, which runs cmds[0..ncmds) (-ex)
 * and then, unless batch, commands from stdin */
int kit_emu_tool_dbg_main(KitEmuTool *tool, char *const *cmds, int ncmds, bool batch, FILE *err);

#endif
