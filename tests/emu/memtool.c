/* tests/emu/memtool.c — a loadable kit-emu tool (--tool=memtool.so) that
 * watches every guest load and store (a memory callback on each instruction
 * that accesses memory) and allows it: translations then take the seam's
 * checked path instead of the branch-free one, which run_guard.sh compares
 * against. One line on stderr at the end. */
#include <inttypes.h>
#include <stdio.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

static uint64_t accesses, outside;
static uint64_t window;

static KitEmuVerdict on_mem(KitEmu *e, unsigned vcpu, const KitEmuMemAccess *a, void *u) {
  (void)e, (void)vcpu, (void)u;
  accesses++;
  if (a->addr >= window) outside++;
  return KIT_EMU_ALLOW;
}

static void on_tb(KitEmuTool *t, KitEmuTb *tb, void *u) {
  (void)t, (void)u;
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++) kit_emu_insn_mem_cb(kit_emu_tb_insn(tb, i), on_mem, KIT_EMU_MEM_RW, NULL);
}

static void on_end(KitEmu *e, int status, void *u) {
  (void)u, (void)e, (void)status;
  fprintf(stderr, "memtool: %" PRIu64 " accesses, %" PRIu64 " outside the window\n", accesses, outside);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  (void)args;
  kit_emu_guest_window(kit_emu_tool_emu(tool), NULL, &window, NULL);
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_exit(tool, on_end, NULL);
  return 0;
}
