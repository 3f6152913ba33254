/* examples/tools/insn.c — instructions executed, counted one of two ways:
 * "inline" (the default) adds 1 per instruction into a per-thread
 * scoreboard with no call (an instruction counts when it retires), "cb"
 * calls a function before every instruction (the slow, general way a tool
 * that needs more than a count would take). Like QEMU's contrib/plugins/insn.c.
 * Args, comma-separated: inline | cb, out=FILE. Prints "insn: N". */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r under -std=c11 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

static KitEmuScoreboard *score; /* one uint64_t per thread */
static bool use_cb;
static char *out_path;

static void count_insn(KitEmu *emu, unsigned vcpu, void *user) {
  (void)emu, (void)user;
  ++*(uint64_t *)kit_emu_scoreboard_entry(score, vcpu);
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++) {
    KitEmuInsn *insn = kit_emu_tb_insn(tb, i);
    if (use_cb) kit_emu_insn_exec_cb(insn, count_insn, NULL);
    else kit_emu_insn_inline(insn, KIT_EMU_INLINE_ADD, kit_emu_u64_per_thread(score, 0), 1);
  }
}

static void on_exit_report(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status, (void)user;
  FILE *f = out_path ? fopen(out_path, "w") : stderr;
  if (!f) {
    fprintf(stderr, "insn: cannot write %s: %s\n", out_path, strerror(errno));
    f = stderr;
  }
  fprintf(f, "insn: %" PRIu64 "\n", kit_emu_u64_sum(kit_emu_u64_per_thread(score, 0)));
  if (f == stderr) fflush(f);
  else fclose(f);
}

static int parse_args(const char *args) {
  char *copy = strdup(args ? args : ""), *save = NULL;
  int rc = 0;
  for (char *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    if (!strcmp(a, "inline")) use_cb = false;
    else if (!strcmp(a, "cb")) use_cb = true;
    else if (!strncmp(a, "out=", 4)) out_path = strdup(a + 4);
    else {
      fprintf(stderr, "insn: unknown argument '%s' (inline, cb, out=FILE)\n", a);
      rc = 1;
    }
  }
  free(copy);
  return rc;
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  if (parse_args(args)) return 1;
  score = kit_emu_scoreboard_new(tool, sizeof(uint64_t));
  if (!score) return 1;
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_exit(tool, on_exit_report, NULL);
  return 0;
}
