/* examples/tools/hotblocks.c — the blocks executed most: each translated
 * block gets a record (keyed by its pc, so a retranslation counts on in the
 * same record) whose execution counter the block bumps inline on entry; at
 * exit the top blocks are printed with their symbol. Like QEMU's
 * contrib/plugins/hotblocks.c. The counters are shared by all threads.
 * Args, comma-separated: top=N (default 10), out=FILE. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r under -std=c11 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

typedef struct Block {
  uint64_t pc, executions;
  size_t insns;          /* of its latest translation */
} Block;

/* one per --tool=hotblocks.so (the same shared object can run twice) */
typedef struct Hot {
  Block **table;         /* open addressing on pc; a Block never moves (generated code holds &executions) */
  size_t cap, n_blocks, top_n;
  const char *out_path;  /* NULL: stderr */
} Hot;

static size_t slot_of(Block **table, size_t cap, uint64_t pc) {
  size_t i = (size_t)(pc * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
  while (table[i] && table[i]->pc != pc) i = (i + 1) & (cap - 1);
  return i;
}

static int grow(Hot *h) {
  size_t cap = h->cap ? h->cap * 2 : 1024;
  Block **table = calloc(cap, sizeof *table);
  if (!table) return -1;
  for (size_t i = 0; i < h->cap; i++)
    if (h->table[i]) table[slot_of(table, cap, h->table[i]->pc)] = h->table[i];
  free(h->table);
  h->table = table, h->cap = cap;
  return 0;
}

static Block *block_for(Hot *h, uint64_t pc) {
  if ((h->n_blocks + 1) * 2 > h->cap && grow(h) < 0) return NULL;
  size_t i = slot_of(h->table, h->cap, pc);
  if (!h->table[i]) {
    if (!(h->table[i] = calloc(1, sizeof(Block)))) return NULL;
    h->table[i]->pc = pc;
    h->n_blocks++;
  }
  return h->table[i];
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool;
  Block *b = block_for(user, kit_emu_tb_pc(tb));
  if (!b) return;
  b->insns = kit_emu_tb_n_insns(tb);
  kit_emu_tb_inline(tb, KIT_EMU_INLINE_ADD, kit_emu_u64_shared(&b->executions), 1);
}

static int by_executions(const void *x, const void *y) {
  const Block *a = *(Block *const *)x, *b = *(Block *const *)y;
  if (a->executions != b->executions) return a->executions < b->executions ? 1 : -1;
  return a->pc < b->pc ? -1 : a->pc > b->pc;
}

static void on_exit_report(KitEmu *emu, int status, void *user) {
  (void)status;
  Hot *h = user;
  FILE *f = h->out_path ? fopen(h->out_path, "w") : stderr;
  if (!f) {
    fprintf(stderr, "hotblocks: cannot write %s: %s\n", h->out_path, strerror(errno));
    f = stderr;
  }
  Block **all = malloc((h->n_blocks ? h->n_blocks : 1) * sizeof *all);
  size_t n = 0;
  for (size_t i = 0; all && i < h->cap; i++)
    if (h->table[i]) all[n++] = h->table[i];
  if (all) qsort(all, n, sizeof *all, by_executions);
  fprintf(f, "hotblocks: top %zu of %zu blocks\n", n < h->top_n ? n : h->top_n, n);
  fprintf(f, "hotblocks: %-18s %-32s %6s %12s\n", "pc", "symbol", "insns", "executions");
  for (size_t i = 0; all && i < n && i < h->top_n; i++) {
    KitEmuSymbol s;
    char sym[64] = "?";
    if (kit_emu_symbolize(emu, all[i]->pc, &s) == 0 && s.function)
      snprintf(sym, sizeof sym, "%s+0x%" PRIx64, s.function, s.offset);
    fprintf(f, "hotblocks: 0x%016" PRIx64 " %-32s %6zu %12" PRIu64 "\n", all[i]->pc, sym, all[i]->insns,
            all[i]->executions);
  }
  free(all);
  if (f == stderr) fflush(f);
  else fclose(f);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  Hot *h = calloc(1, sizeof *h);
  char *copy = strdup(args ? args : ""), *save = NULL, *end;
  if (!h || !copy) return 1;
  h->top_n = 10;
  for (char *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    if (!strncmp(a, "top=", 4) && (h->top_n = strtoull(a + 4, &end, 10)) > 0 && !*end) continue;
    if (!strncmp(a, "out=", 4)) {
      h->out_path = strdup(a + 4);
      continue;
    }
    fprintf(stderr, "hotblocks: bad argument '%s' (top=N, out=FILE)\n", a);
    return 1;
  }
  free(copy);
  if (grow(h) < 0) return 1;
  kit_emu_on_tb_trans(tool, on_tb, h);
  kit_emu_on_exit(tool, on_exit_report, h);
  return 0;
}
