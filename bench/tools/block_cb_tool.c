/* bench/tools/block_cb_tool.c — a loadable kit-emu tool with one execution
 * callback per block (it counts instructions through the block's size, its
 * user data): bench/run.sh's row for what a call per block costs. */
#include <inttypes.h>
#include <stdio.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

static uint64_t insns;

static void on_block(KitEmu *emu, unsigned vcpu, void *user) {
  (void)emu, (void)vcpu;
  insns += (uintptr_t)user;
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  kit_emu_tb_exec_cb(tb, on_block, (void *)(uintptr_t)kit_emu_tb_n_insns(tb));
}

static void on_exit_cb(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status, (void)user;
  fprintf(stderr, "block_cb_tool: %" PRIu64 " instructions\n", insns);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  (void)args;
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_exit(tool, on_exit_cb, NULL);
  return 0;
}
