/* emu/tools/callgrind/lines.c — an ELF file's DWARF line table as sorted rows
 * (address, file, line, end of sequence) for --tool=callgrind's file:line of
 * every instruction: the whole table read once per module through libdwarf,
 * then a binary search per address. */
#include <dwarf.h>
#include <fcntl.h>
#include <libdwarf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"

typedef struct Row {
  uint64_t addr;
  const char *file; /* into the table's names */
  uint32_t line, order;
  bool end_seq;
} Row;

struct KitLineTab {
  Row *rows;
  size_t n, cap;
  char **names;
  size_t nnames, names_cap;
};

static const char *keep_name(KitLineTab *t, const char *s) {
  for (size_t i = t->nnames; i-- > 0 && i + 64 > t->nnames;) /* the same few files repeat */
    if (!strcmp(t->names[i], s)) return t->names[i];
  if (t->nnames == t->names_cap) {
    t->names_cap = t->names_cap ? 2 * t->names_cap : 64;
    t->names = realloc(t->names, t->names_cap * sizeof *t->names);
    if (!t->names) abort();
  }
  t->names[t->nnames] = strdup(s);
  if (!t->names[t->nnames]) abort();
  return t->names[t->nnames++];
}

/* gcc's DWARF 5 tables leave the file register at 0 where the standard says
 * 1, and libdwarf 20210528 reports that 0: for them 0 means entry 1 */
static const char *row_file(char **files, Dwarf_Signed nfiles, bool v5, bool gnu, Dwarf_Line l) {
  Dwarf_Unsigned fno;
  if (dwarf_line_srcfileno(l, &fno, NULL) != DW_DLV_OK) return NULL;
  Dwarf_Signed idx = v5 ? (Dwarf_Signed)fno : (Dwarf_Signed)fno - 1;
  if (v5 && gnu && fno == 0) idx = 1;
  return idx >= 0 && idx < nfiles ? files[idx] : NULL;
}

static void cu_rows(KitLineTab *t, Dwarf_Debug dbg, Dwarf_Die cu) {
  Dwarf_Unsigned ver;
  Dwarf_Small tables;
  Dwarf_Line_Context lc;
  if (dwarf_srclines_b(cu, &ver, &tables, &lc, NULL) != DW_DLV_OK) return;
  bool gnu = false;
  char *producer = NULL;
  if (dwarf_die_text(cu, DW_AT_producer, &producer, NULL) == DW_DLV_OK && producer) {
    gnu = !strncmp(producer, "GNU", 3);
    dwarf_dealloc(dbg, producer, DW_DLA_STRING);
  }
  char **files = NULL;
  Dwarf_Signed nfiles = 0;
  if (dwarf_srcfiles(cu, &files, &nfiles, NULL) != DW_DLV_OK) files = NULL, nfiles = 0;
  Dwarf_Line *lines;
  Dwarf_Signed n;
  if (dwarf_srclines_from_linecontext(lc, &lines, &n, NULL) == DW_DLV_OK)
    for (Dwarf_Signed i = 0; i < n; i++) {
      Dwarf_Addr a;
      Dwarf_Unsigned line = 0;
      Dwarf_Bool es = 0;
      if (dwarf_lineaddr(lines[i], &a, NULL) != DW_DLV_OK) continue;
      dwarf_lineno(lines[i], &line, NULL);
      dwarf_lineendsequence(lines[i], &es, NULL);
      const char *f = es ? NULL : row_file(files, nfiles, ver >= 5, gnu, lines[i]);
      if (!es && (!f || !line)) continue;
      if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->rows = realloc(t->rows, t->cap * sizeof *t->rows);
        if (!t->rows) abort();
      }
      t->rows[t->n] = (Row){a, f ? keep_name(t, f) : NULL, (uint32_t)line, (uint32_t)t->n, es != 0};
      t->n++;
    }
  dwarf_srclines_dealloc_b(lc);
  for (Dwarf_Signed i = 0; i < nfiles; i++) dwarf_dealloc(dbg, files[i], DW_DLA_STRING);
  if (files) dwarf_dealloc(dbg, files, DW_DLA_LIST);
}

/* by address; at one address an end of sequence first (the next sequence
 * starts there), then table order */
static int row_cmp(const void *a, const void *b) {
  const Row *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  if (x->end_seq != y->end_seq) return x->end_seq ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

KitLineTab *kit_lines_load(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  Dwarf_Debug dbg;
  if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, NULL) != DW_DLV_OK) {
    close(fd);
    return NULL;
  }
  KitLineTab *t = calloc(1, sizeof *t);
  if (!t) abort();
  Dwarf_Unsigned hlen, abbr, toff, next;
  Dwarf_Half ver, asz, lsz, xsz, ctype;
  Dwarf_Sig8 sig;
  while (dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbr, &asz, &lsz, &xsz, &sig, &toff, &next, &ctype, NULL) ==
         DW_DLV_OK) {
    Dwarf_Die cu = NULL;
    if (dwarf_siblingof_b(dbg, NULL, 1, &cu, NULL) != DW_DLV_OK) continue;
    cu_rows(t, dbg, cu);
    dwarf_dealloc(dbg, cu, DW_DLA_DIE);
  }
  dwarf_finish(dbg, NULL);
  close(fd);
  if (!t->n) {
    kit_lines_free(t);
    return NULL;
  }
  qsort(t->rows, t->n, sizeof *t->rows, row_cmp);
  return t;
}

bool kit_lines_find(const KitLineTab *t, uint64_t addr, const char **file, unsigned *line) {
  if (!t) return false;
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (t->rows[mid].addr <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (!lo || t->rows[lo - 1].end_seq) return false;
  *file = t->rows[lo - 1].file;
  *line = t->rows[lo - 1].line;
  return true;
}

void kit_lines_free(KitLineTab *t) {
  if (!t) return;
  for (size_t i = 0; i < t->nnames; i++) free(t->names[i]);
  free(t->names);
  free(t->rows);
  free(t);
}
