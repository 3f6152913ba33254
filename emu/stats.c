/* emu/stats.c — the emulator's figures (kit_emu_get_stats) and what -d
 * stats and -d perfmap print at exit: translation and tier figures, perf's
 * map of the compiled blocks. */
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "stats.h"
#include "tier.h"

void kit_emu_get_stats(KitEmu *emu, KitEmuStats *out) {
  *out = emu->stats;
  kit_tier_stats(emu, out);
}

static int by_code(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)(*(KitEmuBlock *const *)a)->code, y = (uintptr_t)(*(KitEmuBlock *const *)b)->code;
  return x < y ? -1 : x > y;
}

/* -d perfmap: perf's map of JIT code, one line per jitted block (its size
 * up to the next block's code, at most 4 KiB) */
void kit_emu_write_perfmap(KitEmu *emu) {
  KitEmuTcache *tc = emu->tc;
  KitEmuBlock **v = malloc((tc->nblocks + 1) * sizeof *v);
  unsigned n = 0;
  if (!v) return;
  for (uint32_t i = 0; i < tc->nbuckets; i++)
    for (KitEmuBlock *b = tc->buckets[i]; b; b = b->next)
      if (b->code && n < tc->nblocks) v[n++] = b;
  qsort(v, n, sizeof *v, by_code);
  char path[64];
  snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
  FILE *f = fopen(path, "w");
  for (unsigned i = 0; f && i < n; i++) {
    uintptr_t at = (uintptr_t)v[i]->code, size = 4096;
    if (i + 1 < n && (uintptr_t)v[i + 1]->code - at < size) size = (uintptr_t)v[i + 1]->code - at;
    const char *tier = v[i]->tier2 ? "_t2" : v[i]->baseline ? "_b" : "";
    fprintf(f, "%lx %lx emu_block_%" PRIx64 "%s\n", (unsigned long)at, (unsigned long)size, v[i]->pc, tier);
    if (getenv("KIT_EMU_PERFMAP_CODE")) { /* the bytes too, for objdump -b binary */
      char cp[96];
      snprintf(cp, sizeof cp, "%s/emu_block_%" PRIx64 "%s@%lx.bin", getenv("KIT_EMU_PERFMAP_CODE"), v[i]->pc, tier,
               (unsigned long)at);
      FILE *c = fopen(cp, "wb");
      if (c) {
        fwrite((const void *)at, 1, size, c);
        fclose(c);
      }
    }
  }
  if (f) fclose(f);
  else kit_emu_warn(emu, "cannot write %s", path);
  free(v);
}

void kit_emu_print_stats(KitEmu *emu) {
  KitEmuStats s;
  kit_emu_get_stats(emu, &s);
  fprintf(emu->log,
          "kit-emu stats: %llu blocks translated, %llu jitted in %llu batches (%llu failed), %llu at tier 2, %llu "
          "invalidations\n"
          "kit-emu stats: %llu blocks compiled by the baseline compiler (%llu left to LLVM) in %.3f s CPU\n"
          "kit-emu stats: %llu tier-0 block runs (of %llu blocks lifted for it), %llu dispatcher entries into compiled "
          "code (chaining %s)\n"
          "kit-emu stats: %.3f s CPU lifting and compiling for LLVM\n",
          (unsigned long long)s.blocks_translated, (unsigned long long)s.blocks_jitted,
          (unsigned long long)s.jit_batches, (unsigned long long)s.jit_failures, (unsigned long long)s.blocks_tier2,
          (unsigned long long)s.invalidations, (unsigned long long)s.blocks_baseline,
          (unsigned long long)s.baseline_declined, (double)s.baseline_ns / 1e9, (unsigned long long)s.tier0_runs,
          (unsigned long long)s.tier0_lifts, (unsigned long long)s.jit_entries, kit_emu_chaining(emu) ? "on" : "off",
          (double)s.jit_compile_ns / 1e9);
}
