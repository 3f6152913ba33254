/* tests/emu/tool_example.c — a loadable kit-emu tool (--tool=path.so,ARGS):
 * counts system calls and blocks and reports them when the guest ends. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

static uint64_t syscalls, blocks;
static char tag[64];

static bool on_sys(KitEmu *e, unsigned vcpu, KitEmuSyscall *sc, int64_t *ret, void *u) {
  (void)e, (void)vcpu, (void)sc, (void)ret, (void)u;
  syscalls++;
  return false;
}
static void on_tb(KitEmuTool *t, KitEmuTb *tb, void *u) {
  (void)t, (void)u;
  kit_emu_tb_inline(tb, KIT_EMU_INLINE_ADD, kit_emu_u64_shared(&blocks), 1);
}
static void on_end(KitEmu *e, int status, void *u) {
  (void)u, (void)e;
  fprintf(stderr, "tool_example[%s]: %" PRIu64 " syscalls, %s blocks, status %d\n", tag, syscalls,
          blocks ? "some" : "no", status);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  snprintf(tag, sizeof tag, "%s", args);
  kit_emu_on_syscall(tool, on_sys, NULL);
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_exit(tool, on_end, NULL);
  return 0;
}
