/* bench/tools/null_tool.c — a loadable kit-emu tool that registers nothing:
 * bench/run.sh's row for what loading a tool costs by itself (nothing). */
#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  (void)tool, (void)args;
  return 0;
}
