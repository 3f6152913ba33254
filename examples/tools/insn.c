/* examples/tools/insn.c — instructions executed, counted one of two ways:
 * "inline" (the default) adds 1 per instruction into a per-thread
 * scoreboard with no call, and an instruction counts when it retires (a
 * load that faults does not); "cb" calls a function before every
 * instruction (the slow, general way a tool that needs more than a count
 * would take), so a faulting instruction counts too. Like QEMU's
 * contrib/plugins/insn.c. Args, comma-separated: inline | cb, out=FILE.
 * Prints "insn: N". */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r under -std=c11 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

/* one per --tool=insn.so (the same shared object can run twice) */
typedef struct Insn {
  KitEmuScoreboard *score; /* one uint64_t per thread */
  bool use_cb;
  const char *out_path;    /* NULL: stderr */
} Insn;

static void count_insn(KitEmu *emu, unsigned vcpu, void *user) {
  (void)emu;
  Insn *in = user;
  ++*(uint64_t *)kit_emu_scoreboard_entry(in->score, vcpu);
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool;
  Insn *in = user;
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++) {
    KitEmuInsn *insn = kit_emu_tb_insn(tb, i);
    if (in->use_cb) kit_emu_insn_exec_cb(insn, count_insn, in);
    else kit_emu_insn_inline(insn, KIT_EMU_INLINE_ADD, kit_emu_u64_per_thread(in->score, 0), 1);
  }
}

static void on_exit_report(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status;
  Insn *in = user;
  FILE *f = in->out_path ? fopen(in->out_path, "w") : stderr;
  if (!f) {
    fprintf(stderr, "insn: cannot write %s: %s\n", in->out_path, strerror(errno));
    f = stderr;
  }
  fprintf(f, "insn: %" PRIu64 "\n", kit_emu_u64_sum(kit_emu_u64_per_thread(in->score, 0)));
  if (f == stderr) fflush(f);
  else fclose(f);
}

static int parse_args(Insn *in, const char *args) {
  char *copy = strdup(args ? args : ""), *save = NULL;
  int rc = 0;
  for (char *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    if (!strcmp(a, "inline")) in->use_cb = false;
    else if (!strcmp(a, "cb")) in->use_cb = true;
    else if (!strncmp(a, "out=", 4)) in->out_path = strdup(a + 4);
    else {
      fprintf(stderr, "insn: unknown argument '%s' (inline, cb, out=FILE)\n", a);
      rc = 1;
    }
  }
  free(copy);
  return rc;
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  Insn *in = calloc(1, sizeof *in);
  if (!in || parse_args(in, args)) return 1;
  if (!(in->score = kit_emu_scoreboard_new(tool, sizeof(uint64_t)))) return 1;
  kit_emu_on_tb_trans(tool, on_tb, in);
  kit_emu_on_exit(tool, on_exit_report, in);
  return 0;
}
