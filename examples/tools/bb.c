/* examples/tools/bb.c — blocks and instructions executed, counted by inline
 * adds into a per-thread scoreboard (no call at run time): each block adds 1
 * to its thread's block count and its instruction count to the thread's
 * instruction count when it is entered, so a block that faults partway
 * counts whole (insn.c counts retired instructions). Like QEMU's
 * contrib/plugins/bb.c. Args: "out=FILE" (default stderr). Prints
 * "bb: blocks N insns M". */
#define _POSIX_C_SOURCE 200809L /* strdup under -std=c11 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

typedef struct Counts {
  uint64_t blocks, insns;
} Counts;

/* one per --tool=bb.so: the state lives here, not in globals, so that the
 * same shared object can run twice */
typedef struct Bb {
  KitEmuScoreboard *score;
  const char *out_path; /* NULL: stderr */
} Bb;

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool;
  Bb *bb = user;
  kit_emu_tb_inline(tb, KIT_EMU_INLINE_ADD, kit_emu_u64_per_thread(bb->score, offsetof(Counts, blocks)), 1);
  kit_emu_tb_inline(tb, KIT_EMU_INLINE_ADD, kit_emu_u64_per_thread(bb->score, offsetof(Counts, insns)),
                    kit_emu_tb_n_insns(tb));
}

static void on_exit_report(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status;
  Bb *bb = user;
  FILE *f = bb->out_path ? fopen(bb->out_path, "w") : stderr;
  if (!f) {
    fprintf(stderr, "bb: cannot write %s: %s\n", bb->out_path, strerror(errno));
    f = stderr;
  }
  KitEmuU64 blocks = kit_emu_u64_per_thread(bb->score, offsetof(Counts, blocks));
  KitEmuU64 insns = kit_emu_u64_per_thread(bb->score, offsetof(Counts, insns));
  unsigned n = kit_emu_scoreboard_n(bb->score);
  if (n > 1)
    for (unsigned t = 0; t < n; t++)
      fprintf(f, "bb: thread %u blocks %" PRIu64 " insns %" PRIu64 "\n", t, kit_emu_u64_get(blocks, t),
              kit_emu_u64_get(insns, t));
  fprintf(f, "bb: blocks %" PRIu64 " insns %" PRIu64 "\n", kit_emu_u64_sum(blocks), kit_emu_u64_sum(insns));
  if (f == stderr) fflush(f);
  else fclose(f);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  Bb *bb = calloc(1, sizeof *bb);
  if (!bb) return 1;
  if (args && !strncmp(args, "out=", 4)) {
    bb->out_path = strdup(args + 4);
  } else if (args && *args) {
    fprintf(stderr, "bb: unknown argument '%s' (out=FILE)\n", args);
    return 1;
  }
  if (!(bb->score = kit_emu_scoreboard_new(tool, sizeof(Counts)))) return 1;
  kit_emu_on_tb_trans(tool, on_tb, bb);
  kit_emu_on_exit(tool, on_exit_report, bb);
  return 0;
}
