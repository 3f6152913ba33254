/* emu/tools/insncount.c — --tool=insncount: the exact number of retired guest
 * instructions, counted from on_block_entry's instruction counts (so it
 * costs one call per block, not per instruction), less the part of a block
 * that a faulting load or store did not retire (on_block_fault). */
#include <inttypes.h>

#include "tools.h"

static uint64_t count, blocks;
static uint32_t last_n; /* the running block's count, taken back in part if it faults */
static FILE *report_to;

static void on_block(void *user, KitEmu *emu, uint64_t pc, uint32_t n) {
  (void)user, (void)emu, (void)pc;
  count += n;
  last_n = n;
  blocks++;
}

static void on_block_fault(void *user, KitEmu *emu, uint64_t pc, uint32_t retired) {
  (void)user, (void)emu, (void)pc;
  if (retired < last_n) count -= last_n - retired;
  last_n = retired;
}

static void on_exit_hook(void *user, KitEmu *emu, int status) {
  (void)user, (void)emu, (void)status;
  fprintf(report_to, "kit-emu: insncount: %" PRIu64 " instructions in %" PRIu64 " blocks\n", count, blocks);
  fflush(report_to);
}

int kit_emu_tool_insncount_install(KitEmu *emu, FILE *out) {
  static const KitEmuToolHooks h = {.on_block_entry = on_block, .on_block_fault = on_block_fault,
                                    .on_exit = on_exit_hook};
  report_to = out;
  kit_emu_set_tool_hooks(emu, &h);
  return 0;
}
