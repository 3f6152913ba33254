/* emu/tools/insncount.c — --tool=insncount: the exact number of retired guest
 * instructions, counted by an inline add per instruction (the emulator sums
 * a block's into one add at its entry and takes back, when a load or store
 * faults, those that did not retire): no call at all. */
#include <inttypes.h>

#include "tools.h"

typedef struct Counts {
  uint64_t insns;
} Counts;

static KitEmuScoreboard *board;
static FILE *report_to;

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++)
    kit_emu_insn_inline(kit_emu_tb_insn(tb, i), KIT_EMU_INLINE_ADD,
                        kit_emu_u64_per_thread(board, offsetof(Counts, insns)), 1);
}

/* the total, then (with several threads) each thread's, numbered as the
 * tool API numbers them and named by tid */
static int tids[4096];
static void on_thread(KitEmu *emu, unsigned vcpu, void *user) {
  (void)user;
  if (vcpu < sizeof tids / sizeof tids[0]) tids[vcpu] = kit_emu_thread_id(emu);
}

static void on_exit_cb(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status, (void)user;
  KitEmuU64 u = kit_emu_u64_per_thread(board, offsetof(Counts, insns));
  fprintf(report_to, "kit-emu: insncount: %" PRIu64 " instructions\n", kit_emu_u64_sum(u));
  unsigned n = kit_emu_scoreboard_n(board);
  for (unsigned v = 0; n > 1 && v < n; v++)
    fprintf(report_to, "kit-emu: insncount: thread %u (tid %d): %" PRIu64 " instructions\n", v,
            v < sizeof tids / sizeof tids[0] ? tids[v] : 0, kit_emu_u64_get(u, v));
  fflush(report_to);
}

int kit_emu_tool_insncount_main(KitEmuTool *tool, FILE *out) {
  board = kit_emu_scoreboard_new(tool, sizeof(Counts));
  if (!board) return -1;
  report_to = out;
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_exit(tool, on_exit_cb, NULL);
  kit_emu_on_thread_start(tool, on_thread, NULL);
  return 0;
}
