/* tests/emu/memtool.c — a loadable kit-emu tool (--tool=memtool.so) that
 * watches every guest access (on_mem_access) and allows it: translations
 * then take the seam's checked path instead of the branch-free one, which
 * run_guard.sh compares against. One line on stderr at the end. */
#include <inttypes.h>
#include <stdio.h>

#include "kit/emu.h"

uint32_t kit_emu_tool_version = KIT_EMU_API_VERSION;

static uint64_t accesses, outside;

static KitEmuToolVerdict on_mem(void *u, KitEmu *e, uint64_t addr, uint32_t size, bool is_write, void *host,
                                uint64_t pc) {
  (void)u, (void)e, (void)addr, (void)size, (void)is_write, (void)pc;
  accesses++;
  if (!host) outside++;
  return KIT_EMU_TOOL_ALLOW;
}

static void on_end(void *u, KitEmu *e, int status) {
  (void)u, (void)e, (void)status;
  fprintf(stderr, "memtool: %" PRIu64 " accesses, %" PRIu64 " outside the window\n", accesses, outside);
}

int kit_emu_tool_install(KitEmu *emu, const char *args) {
  (void)args;
  static const KitEmuToolHooks h = {.on_mem_access = on_mem, .on_exit = on_end};
  kit_emu_set_tool_hooks(emu, &h);
  return 0;
}
