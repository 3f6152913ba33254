/* emu/tools/asan/cov.c — kit-emu --sanitize=coverage: counts executions of every
 * guest block of the executable (an inline add in the block's code, no
 * call: every tier counts) and at guest exit writes the blocks of the main executable as a
 * kit-cov range file ("kit-cov ranges v1", then module-relative
 * "START END COUNT" lines; docs/coverage.md), which `kit-cov PROGRAM FILE`
 * turns into lcov line and function coverage. */
#include "asan.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  uint64_t pc, end, count; /* [pc, end): contiguous guest bytes */
} CovBlock;

static CovBlock *tab; /* open addressing on pc; pc 0 = empty */
static size_t cap, used;
static uint64_t exe_lo, exe_hi, exe_bias;

static CovBlock *slot(uint64_t pc) {
  size_t i = (size_t)((pc >> 1) * 0x9E3779B97F4A7C15ull) & (cap - 1);
  while (tab[i].pc && tab[i].pc != pc) i = (i + 1) & (cap - 1);
  return &tab[i];
}

/* the counter of the contiguous bytes [pc, end) (a block that follows a
 * jump has two); its address stays put: the table is sized once */
static uint64_t *counter(uint64_t pc, uint64_t end) {
  if (2 * (used + 1) > cap) return NULL;
  CovBlock *b = slot(pc);
  if (!b->pc) {
    b->pc = pc;
    used++;
  }
  if (end > b->end) b->end = end;
  return &b->count;
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  size_t n = kit_emu_tb_n_insns(tb);
  for (size_t i = 0; i < n;) {
    uint64_t pc = kit_emu_insn_pc(kit_emu_tb_insn(tb, i)), end = pc;
    for (; i < n && kit_emu_insn_pc(kit_emu_tb_insn(tb, i)) == end; i++) end += kit_emu_insn_size(kit_emu_tb_insn(tb, i));
    uint64_t *c = pc >= exe_lo && pc < exe_hi ? counter(pc, end) : NULL;
    if (c) kit_emu_tb_inline(tb, KIT_EMU_INLINE_ADD, kit_emu_u64_shared(c), 1);
  }
}

void kit_emu_cov_install(KitEmuTool *tool) { kit_emu_on_tb_trans(tool, on_tb, NULL); }

void kit_emu_cov_init(KitEmu *emu, uint64_t lo, uint64_t hi) {
  (void)emu;
  exe_lo = lo;
  exe_hi = hi;
  /* module-relative, as sancov: from the page of the lowest PT_LOAD */
  exe_bias = lo & ~(uint64_t)4095;
  /* once, large enough for every block of the executable (counters are
   * addresses in the generated code: the table never moves) */
  cap = 4096;
  while (cap < (hi - lo) / 2) cap *= 2;
  tab = calloc(cap, sizeof *tab);
  if (!tab) abort();
}

void kit_emu_cov_write(KitEmu *emu) {
  const char *dir = getenv("KIT_COVERAGE_DIR");
  if (!dir || !dir[0]) dir = kit_san_opts.coverage_dir[0] ? kit_san_opts.coverage_dir : ".";
  const char *base = strrchr(kit_emu_exe_path(emu), '/');
  base = base ? base + 1 : kit_emu_exe_path(emu);
  char path[8192];
  snprintf(path, sizeof path, "%s/%s.%d.ranges", dir, base, (int)getpid());
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "kit-emu: cannot write the coverage file %s\n", path);
    return;
  }
  fprintf(f, "kit-cov ranges v1\n# %s, blocks executed under kit-emu\n", kit_emu_exe_path(emu));
  size_t n = 0;
  for (size_t i = 0; i < cap; i++)
    if (tab[i].pc) {
      fprintf(f, "%" PRIx64 " %" PRIx64 " %" PRIu64 "\n", tab[i].pc - exe_bias, tab[i].end - exe_bias, tab[i].count);
      n++;
    }
  fclose(f);
  fprintf(stderr, "kit-emu: coverage: %s: %zu blocks written\n", path, n);
}
