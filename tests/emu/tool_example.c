/* tests/emu/tool_example.c — a loadable kit-emu tool (--tool=path.so): counts
 * system calls and blocks and reports them when the guest ends. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kit/emu.h"

uint32_t kit_emu_tool_version = KIT_EMU_API_VERSION;

static uint64_t syscalls, blocks;
static char tag[64];

static void on_sys(void *u, KitEmu *e, const KitEmuSyscallRequest *r) {
  (void)u, (void)e, (void)r;
  syscalls++;
}
static void on_block(void *u, KitEmu *e, uint64_t pc, uint32_t n) {
  (void)u, (void)e, (void)pc, (void)n;
  blocks++;
}
static void on_end(void *u, KitEmu *e, int status) {
  (void)u, (void)e;
  fprintf(stderr, "tool_example[%s]: %" PRIu64 " syscalls, %s blocks, status %d\n", tag, syscalls,
          blocks ? "some" : "no", status);
}

int kit_emu_tool_install(KitEmu *emu, const char *args) {
  static const KitEmuToolHooks h = {.on_syscall_entry = on_sys, .on_block_entry = on_block, .on_exit = on_end};
  snprintf(tag, sizeof tag, "%s", args);
  kit_emu_set_tool_hooks(emu, &h);
  return 0;
}
