/* examples/tools/howvec.c — an instruction mix: how often each instruction
 * class (kit_emu_insn_class, arch-neutral) and each mnemonic (the first word
 * of kit_emu_insn_disas) executed. Every distinct (class, mnemonic) pair has
 * a counter that its instructions bump inline when they retire. Like QEMU's
 * contrib/plugins/howvec.c, without its per-arch decode tables. The counters
 * are shared by all threads. Args, comma-separated: top=N (mnemonics listed,
 * default 20), out=FILE. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r under -std=c11 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

typedef struct Entry {
  struct Entry *next; /* in its hash bucket */
  unsigned cls;
  char mnemonic[24];
  uint64_t count;     /* generated code adds to it: an Entry never moves */
} Entry;

enum { N_BUCKETS = 512 };
/* one per --tool=howvec.so (the same shared object can run twice) */
typedef struct Howvec {
  Entry *buckets[N_BUCKETS];
  size_t n_entries, top_n;
  const char *out_path; /* NULL: stderr */
} Howvec;

static const char *const class_names[] = {"load", "store", "atomic", "branch", "jump", "call", "ret",
                                          "indirect", "syscall", "trap", "fp", "csr", "fence"};

static Entry *entry_for(Howvec *hv, unsigned cls, const char *mnemonic) {
  unsigned h = cls * 31u;
  for (const char *p = mnemonic; *p; p++) h = h * 131u + (unsigned char)*p;
  Entry **b = &hv->buckets[h % N_BUCKETS];
  for (Entry *e = *b; e; e = e->next)
    if (e->cls == cls && !strcmp(e->mnemonic, mnemonic)) return e;
  Entry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->cls = cls;
  snprintf(e->mnemonic, sizeof e->mnemonic, "%s", mnemonic);
  e->next = *b;
  *b = e;
  hv->n_entries++;
  return e;
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool;
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++) {
    KitEmuInsn *insn = kit_emu_tb_insn(tb, i);
    const char *d = kit_emu_insn_disas(insn);
    char mnemonic[24];
    size_t n = d ? strcspn(d, " \t") : 0;
    if (n >= sizeof mnemonic) n = sizeof mnemonic - 1;
    memcpy(mnemonic, d ? d : "", n);
    mnemonic[n] = 0;
    Entry *e = entry_for(user, kit_emu_insn_class(insn), n ? mnemonic : "?");
    if (e) kit_emu_insn_inline(insn, KIT_EMU_INLINE_ADD, kit_emu_u64_shared(&e->count), 1);
  }
}

/* "load|fp"; "alu" for an instruction with no class bit (arithmetic, moves) */
static void class_name(unsigned cls, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = 0;
  for (size_t b = 0; b < sizeof class_names / sizeof class_names[0]; b++)
    if ((cls & (1u << b)) && len < size)
      len += snprintf(buf + len, size - len, "%s%s", len ? "|" : "", class_names[b]);
  if (!len) snprintf(buf, size, "alu");
}

typedef struct Row {
  unsigned cls;
  const char *mnemonic; /* NULL in a row by class */
  uint64_t count;
} Row;

static int by_count(const void *x, const void *y) {
  const Row *a = x, *b = y;
  if (a->count != b->count) return a->count < b->count ? 1 : -1;
  return a->cls < b->cls ? -1 : a->cls > b->cls;
}

/* the entries summed by class (mnemonic NULL) or by mnemonic; returns the row count */
static size_t collect(const Howvec *hv, Row *rows, bool by_mnemonic) {
  size_t n = 0;
  for (size_t i = 0; i < N_BUCKETS; i++)
    for (Entry *e = hv->buckets[i]; e; e = e->next) {
      size_t r = 0;
      while (r < n && (by_mnemonic ? strcmp(rows[r].mnemonic, e->mnemonic) : rows[r].cls != e->cls)) r++;
      if (r == n) rows[n++] = (Row){e->cls, by_mnemonic ? e->mnemonic : NULL, 0};
      rows[r].count += e->count;
    }
  qsort(rows, n, sizeof *rows, by_count);
  return n;
}

static void on_exit_report(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status;
  Howvec *hv = user;
  FILE *f = hv->out_path ? fopen(hv->out_path, "w") : stderr;
  if (!f) {
    fprintf(stderr, "howvec: cannot write %s: %s\n", hv->out_path, strerror(errno));
    f = stderr;
  }
  Row *rows = malloc((hv->n_entries ? hv->n_entries : 1) * sizeof *rows);
  if (rows) {
    size_t n = collect(hv, rows, false);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) total += rows[i].count;
    fprintf(f, "howvec: %" PRIu64 " instructions\n", total);
    fprintf(f, "howvec: %-24s %14s %7s\n", "class", "executions", "share");
    for (size_t i = 0; i < n; i++) {
      char name[128];
      class_name(rows[i].cls, name, sizeof name);
      fprintf(f, "howvec: %-24s %14" PRIu64 " %6.2f%%\n", name, rows[i].count,
              total ? 100.0 * (double)rows[i].count / (double)total : 0.0);
    }
    n = collect(hv, rows, true);
    fprintf(f, "howvec: %-24s %14s %7s\n", "mnemonic", "executions", "share");
    for (size_t i = 0; i < n && i < hv->top_n; i++)
      fprintf(f, "howvec: %-24s %14" PRIu64 " %6.2f%%\n", rows[i].mnemonic, rows[i].count,
              total ? 100.0 * (double)rows[i].count / (double)total : 0.0);
  }
  free(rows);
  if (f == stderr) fflush(f);
  else fclose(f);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  Howvec *hv = calloc(1, sizeof *hv);
  char *copy = strdup(args ? args : ""), *save = NULL, *end;
  if (!hv || !copy) return 1;
  hv->top_n = 20;
  for (char *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    if (!strncmp(a, "top=", 4) && (hv->top_n = strtoull(a + 4, &end, 10)) > 0 && !*end) continue;
    if (!strncmp(a, "out=", 4)) {
      hv->out_path = strdup(a + 4);
      continue;
    }
    fprintf(stderr, "howvec: bad argument '%s' (top=N, out=FILE)\n", a);
    return 1;
  }
  free(copy);
  kit_emu_on_tb_trans(tool, on_tb, hv);
  kit_emu_on_exit(tool, on_exit_report, hv);
  return 0;
}
