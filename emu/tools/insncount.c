/* emu/tools/insncount.c — --tool=insncount: the exact number of retired guest
 * instructions, counted by an inline add per instruction (the emulator sums
 * a block's into one add at its entry and takes back, when a load or store
 * faults, those that did not retire), and the blocks entered, by an inline
 * add per block: no call at all. */
#include <inttypes.h>

#include "tools.h"

typedef struct Counts {
  uint64_t insns, blocks;
} Counts;

static KitEmuScoreboard *board;
static FILE *report_to;

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  kit_emu_tb_inline(tb, KIT_EMU_INLINE_ADD, kit_emu_u64_per_thread(board, offsetof(Counts, blocks)), 1);
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++)
    kit_emu_insn_inline(kit_emu_tb_insn(tb, i), KIT_EMU_INLINE_ADD,
                        kit_emu_u64_per_thread(board, offsetof(Counts, insns)), 1);
}

static void on_exit_cb(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status, (void)user;
  uint64_t n = kit_emu_u64_sum(kit_emu_u64_per_thread(board, offsetof(Counts, insns)));
  uint64_t b = kit_emu_u64_sum(kit_emu_u64_per_thread(board, offsetof(Counts, blocks)));
  fprintf(report_to, "kit-emu: insncount: %" PRIu64 " instructions in %" PRIu64 " blocks\n", n, b);
  fflush(report_to);
}

int kit_emu_tool_insncount_main(KitEmuTool *tool, FILE *out) {
  board = kit_emu_scoreboard_new(tool, sizeof(Counts));
  if (!board) return -1;
  report_to = out;
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_exit(tool, on_exit_cb, NULL);
  return 0;
}
