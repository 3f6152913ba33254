/* tests/emu/symtool.c — a tool that prints kit_emu_symbolize's answer for the
 * first pc of every block in function main (run_symbolize.sh) */
#include <stdio.h>
#include <string.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)user;
  KitEmuSymbol s;
  if (kit_emu_symbolize(kit_emu_tool_emu(tool), kit_emu_tb_pc(tb), &s) == 0 && s.function && !strcmp(s.function, "main"))
    fprintf(stderr, "symtool: main+0x%llx %s:%u\n", (unsigned long long)s.offset, s.file ? s.file : "-", s.line);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  (void)args;
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  return 0;
}
