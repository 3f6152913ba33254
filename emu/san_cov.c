/* emu/san_cov.c — kit-emu --sanitize=coverage: counts executions of every
 * guest block (on_block_entry, baked into the block bodies, so both tiers
 * count) and at guest exit writes the blocks of the main executable as a
 * kit-cov range file ("kit-cov ranges v1", then module-relative
 * "START END COUNT" lines; docs/coverage.md), which `kit-cov PROGRAM FILE`
 * turns into lcov line and function coverage. */
#include "san.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  uint64_t pc, count;
  uint32_t ninsns;
} CovBlock;

static CovBlock *tab; /* open addressing on pc; pc 0 = empty */
static size_t cap, used;
static uint64_t exe_lo, exe_hi, exe_bias;

static CovBlock *slot(uint64_t pc) {
  size_t i = (size_t)((pc >> 1) * 0x9E3779B97F4A7C15ull) & (cap - 1);
  while (tab[i].pc && tab[i].pc != pc) i = (i + 1) & (cap - 1);
  return &tab[i];
}

static void grow(void) {
  CovBlock *old = tab;
  size_t ocap = cap;
  cap = cap ? cap * 2 : 4096;
  tab = calloc(cap, sizeof *tab);
  if (!tab) abort();
  for (size_t i = 0; i < ocap; i++)
    if (old[i].pc) *slot(old[i].pc) = old[i];
  free(old);
}

void kit_emu_cov_block(uint64_t pc, uint32_t ninsns) {
  if (pc < exe_lo || pc >= exe_hi) return;
  if (2 * (used + 1) > cap) grow();
  CovBlock *b = slot(pc);
  if (!b->pc) {
    b->pc = pc;
    b->ninsns = ninsns;
    used++;
  }
  b->count++;
}

/* the block's end: its instructions decoded again */
static uint64_t block_end(KitEmu *emu, const CovBlock *b) {
  uint64_t pc = b->pc;
  for (uint32_t i = 0; i < b->ninsns; i++) {
    uint8_t bytes[16] = {0};
    KitDecodedInsn in;
    memset(&in, 0, sizeof in);
    if (kit_aspace_read(&emu->as, pc, bytes, 4) < 0 && kit_aspace_read(&emu->as, pc, bytes, 2) < 0) break;
    unsigned len = emu->arch->decode(bytes, 4, pc, &in);
    pc += len ? len : 2;
  }
  return pc;
}

void kit_emu_cov_init(KitEmu *emu, uint64_t lo, uint64_t hi) {
  (void)emu;
  exe_lo = lo;
  exe_hi = hi;
  /* module-relative, as sancov: from the page of the lowest PT_LOAD */
  exe_bias = lo & ~(KIT_EMU_PAGE - 1);
  grow();
}

void kit_emu_cov_write(KitEmu *emu) {
  const char *dir = getenv("KIT_COVERAGE_DIR");
  if (!dir || !dir[0]) dir = kit_san_opts.coverage_dir[0] ? kit_san_opts.coverage_dir : ".";
  const char *base = strrchr(emu->exe_path, '/');
  base = base ? base + 1 : emu->exe_path;
  char path[8192];
  snprintf(path, sizeof path, "%s/%s.%d.ranges", dir, base, (int)getpid());
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "kit-emu: cannot write the coverage file %s\n", path);
    return;
  }
  fprintf(f, "kit-cov ranges v1\n# %s, blocks executed under kit-emu\n", emu->exe_path);
  size_t n = 0;
  for (size_t i = 0; i < cap; i++)
    if (tab[i].pc) {
      fprintf(f, "%" PRIx64 " %" PRIx64 " %" PRIu64 "\n", tab[i].pc - exe_bias, block_end(emu, &tab[i]) - exe_bias,
              tab[i].count);
      n++;
    }
  fclose(f);
  fprintf(stderr, "kit-emu: coverage: %s: %zu blocks written\n", path, n);
}
