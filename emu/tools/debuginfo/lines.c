/* emu/tools/debuginfo/lines.c — source lines to addresses as gdb chooses
 * them for `break FILE:LINE`: the is_stmt rows of that line (or, when it has
 * none, of the nearest later line that has some) in every compilation unit
 * of a file of that name, one address per innermost block (function, lexical
 * block, inlined copy), and past the prologue where the address is a
 * function's entry; rows gdb coalesces (the same line again after a non-zero
 * discriminator) do not count. Checked against gdb-multiarch line by line
 * (tests/emu/debuginfo). Used by --probe FILE:LINE and the built-in debugger. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <libdwarf.h>

#include "debuginfo_internal.h"

static void add_row(Info *in, Row r) {
  if (in->nrows == in->rows_cap) {
    in->rows_cap = in->rows_cap ? 2 * in->rows_cap : 1024;
    in->rows = realloc(in->rows, in->rows_cap * sizeof *in->rows);
    if (!in->rows) abort();
  }
  in->rows[in->nrows++] = r;
}

static void add_block(Info *in, Block b) {
  if (b.hi <= b.lo) return;
  if (in->nblocks == in->blocks_cap) {
    in->blocks_cap = in->blocks_cap ? 2 * in->blocks_cap : 256;
    in->blocks = realloc(in->blocks, in->blocks_cap * sizeof *in->blocks);
    if (!in->blocks) abort();
  }
  in->blocks[in->nblocks++] = b;
}

/* "dir/p.c" names "/src/dir/p.c" and "p.c" names any p.c, as gdb matches */
static bool file_matches(const char *path, const char *want) {
  size_t lp = strlen(path), lw = strlen(want);
  if (lw > lp || strcmp(path + lp - lw, want)) return false;
  return lw == lp || path[lp - lw - 1] == '/' || want[0] == '/';
}

static void read_lines(Dwarf_Debug dbg, Dwarf_Die cu, const char *want, Info *in) {
  Dwarf_Unsigned version;
  Dwarf_Small count;
  Dwarf_Line_Context lc;
  if (dwarf_srclines_b(cu, &version, &count, &lc, NULL) != DW_DLV_OK) return;
  Dwarf_Line *lines;
  Dwarf_Signed n;
  if (dwarf_srclines_from_linecontext(lc, &lines, &n, NULL) == DW_DLV_OK) {
    /* gdb keeps a row for the same line and file as the one before only if
     * that line never had a non-zero discriminator since it began (gcc marks
     * a loop's parts so; gdb coalesces them, PR 17276) */
    Dwarf_Unsigned last_line = 0, last_file = ~(Dwarf_Unsigned)0;
    bool nonzero_disc = false, fresh = true;
    for (Dwarf_Signed i = 0; i < n; i++) {
      Dwarf_Addr a = 0;
      Dwarf_Unsigned line = 0, fileno = 0, isa = 0, disc = 0;
      Dwarf_Bool stmt = 0, end = 0, pe = 0, eb = 0;
      char *src = NULL;
      dwarf_lineaddr(lines[i], &a, NULL);
      dwarf_lineno(lines[i], &line, NULL);
      dwarf_linebeginstatement(lines[i], &stmt, NULL);
      dwarf_lineendsequence(lines[i], &end, NULL);
      dwarf_line_srcfileno(lines[i], &fileno, NULL);
      dwarf_prologue_end_etc(lines[i], &pe, &eb, &isa, &disc, NULL);
      if (fresh || line != last_line) nonzero_disc = disc != 0;
      else nonzero_disc |= disc != 0;
      bool recorded = end || fresh || fileno != last_file || line != last_line || !nonzero_disc;
      bool match = false;
      if (dwarf_linesrc(lines[i], &src, NULL) == DW_DLV_OK) {
        match = want && file_matches(src, want);
        dwarf_dealloc(dbg, src, DW_DLA_STRING);
      }
      if (recorded) add_row(in, (Row){a, (uint32_t)line, stmt != 0, end != 0, match});
      last_line = line, last_file = fileno;
      fresh = end != 0;
    }
  }
  dwarf_srclines_dealloc_b(lc);
}

/* the address ranges of a DIE: low_pc/high_pc, or DWARF 5 DW_AT_ranges */
static void die_ranges(Dwarf_Debug dbg, Dwarf_Die die, unsigned depth, bool function, Info *in) {
  unsigned id = in->ndies++;
  Dwarf_Addr lo, hi;
  Dwarf_Half form;
  enum Dwarf_Form_Class cls;
  if (dwarf_lowpc(die, &lo, NULL) == DW_DLV_OK && dwarf_highpc_b(die, &hi, &form, &cls, NULL) == DW_DLV_OK) {
    add_block(in, (Block){lo, cls == DW_FORM_CLASS_CONSTANT ? lo + hi : hi, depth, id, function});
    return;
  }
  Dwarf_Attribute attr;
  if (dwarf_attr(die, DW_AT_ranges, &attr, NULL) != DW_DLV_OK) return;
  Dwarf_Unsigned off = 0, count = 0, global = 0;
  Dwarf_Rnglists_Head head;
  if (dwarf_whatform(attr, &form, NULL) == DW_DLV_OK &&
      (form == DW_FORM_rnglistx ? dwarf_formudata(attr, &off, NULL) : dwarf_global_formref(attr, &off, NULL)) == DW_DLV_OK &&
      dwarf_rnglists_get_rle_head(attr, form, off, &head, &count, &global, NULL) == DW_DLV_OK) {
    for (Dwarf_Unsigned i = 0; i < count; i++) {
      unsigned len, code;
      Dwarf_Unsigned raw1, raw2, c1, c2;
      Dwarf_Bool unavailable = 0;
      if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &raw1, &raw2, &unavailable, &c1, &c2, NULL) !=
          DW_DLV_OK)
        break;
      if (!unavailable && (code == DW_RLE_offset_pair || code == DW_RLE_start_end || code == DW_RLE_start_length ||
                           code == DW_RLE_startx_endx || code == DW_RLE_startx_length))
        add_block(in, (Block){c1, c2, depth, id, function});
    }
    dwarf_dealloc_rnglists_head(head);
  }
  dwarf_dealloc(dbg, attr, DW_DLA_ATTR);
}

static void walk(Dwarf_Debug dbg, Dwarf_Die die, unsigned depth, Info *in, KitDiDieVisit visit, void *arg) {
  while (die) {
    Dwarf_Half tag = 0;
    dwarf_tag(die, &tag, NULL);
    if (visit) visit(arg, dbg, die, tag);
    bool block = tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine;
    if (block) die_ranges(dbg, die, depth, tag == DW_TAG_subprogram, in);
    Dwarf_Die child;
    if (dwarf_child(die, &child, NULL) == DW_DLV_OK) walk(dbg, child, depth + (block ? 1 : 0), in, visit, arg);
    Dwarf_Die next;
    int rc = dwarf_siblingof_b(dbg, die, 1, &next, NULL);
    dwarf_dealloc(dbg, die, DW_DLA_DIE);
    die = rc == DW_DLV_OK ? next : NULL;
  }
}

int kit_di__read(const char *elf, const char *file, Info *in, KitDiDieVisit visit, void *arg) {
  int fd = open(elf, O_RDONLY);
  if (fd < 0) return -1;
  Dwarf_Debug dbg;
  if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, NULL) != DW_DLV_OK) {
    close(fd);
    return -1;
  }
  Dwarf_Unsigned hlen, abbr, next;
  Dwarf_Half ver, asz, lsz, xsz, ctype;
  Dwarf_Sig8 sig;
  Dwarf_Unsigned toff;
  while (dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbr, &asz, &lsz, &xsz, &sig, &toff, &next, &ctype, NULL) ==
         DW_DLV_OK) {
    Dwarf_Die cu;
    if (dwarf_siblingof_b(dbg, NULL, 1, &cu, NULL) != DW_DLV_OK) continue;
    read_lines(dbg, cu, file, in);
    Dwarf_Die child;
    if (dwarf_child(cu, &child, NULL) == DW_DLV_OK) walk(dbg, child, 0, in, visit, arg);
    dwarf_dealloc(dbg, cu, DW_DLA_DIE);
  }
  dwarf_finish(dbg, NULL);
  close(fd);
  return 0;
}

static bool holds(const Block *b, uint64_t addr) { return b->lo <= addr && addr < b->hi; }

/* the innermost block holding addr, or -1 (a block of several ranges is an
 * entry per range, all with its id) */
static long innermost(const Info *in, uint64_t addr) {
  long best = -1;
  for (size_t i = 0; i < in->nblocks; i++)
    if (holds(&in->blocks[i], addr) && (best < 0 || in->blocks[i].depth >= in->blocks[best].depth)) best = (long)i;
  return best;
}

/* gdb's skip_prologue_using_sal: the end of the entry's first line, or the
 * entry itself when the next line starts there too or when no statement
 * follows in the sequence (rows without is_stmt start no line for gdb: a
 * function that is all one line, as gcc's `res.part.0`, keeps its entry) */
uint64_t kit_di__past_prologue(const Info *in, uint64_t entry) {
  for (size_t i = 0; i < in->nrows; i++) {
    if (in->rows[i].addr != entry || in->rows[i].end || !in->rows[i].line) continue;
    size_t j = i + 1;
    if (j < in->nrows && !in->rows[j].end && in->rows[j].line && in->rows[j].addr == entry) return entry;
    for (; j < in->nrows && !in->rows[j].end; j++)
      if (in->rows[j].stmt && in->rows[j].addr > entry) return in->rows[j].addr;
    return entry;
  }
  return entry;
}

int kit_di__cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

long kit_debuginfo_line_addrs(const char *elf, const char *file, uint32_t line, uint64_t *out, size_t cap,
                              uint32_t *found_line) {
  Info in = {0};
  if (kit_di__read(elf, file, &in, NULL, NULL) < 0) return -1;
  /* the line itself, else the nearest later line with statements */
  uint32_t best = 0;
  for (size_t i = 0; i < in.nrows; i++) {
    const Row *r = &in.rows[i];
    if (!r->file_match || !r->stmt || r->end || r->line < line) continue;
    if (!best || r->line < best) best = r->line;
  }
  uint64_t *cand = malloc((in.nrows + 1) * sizeof *cand);
  size_t n = 0;
  for (size_t i = 0; best && cand && i < in.nrows; i++)
    if (in.rows[i].file_match && in.rows[i].stmt && !in.rows[i].end && in.rows[i].line == best)
      cand[n++] = in.rows[i].addr;
  qsort(cand, n, sizeof *cand, kit_di__cmp_u64);
  /* one address per innermost block: the lowest */
  long *blk = malloc((n + 1) * sizeof *blk);
  size_t k = 0;
  for (size_t i = 0; blk && i < n; i++) {
    if (i && cand[i] == cand[i - 1]) continue;
    long b = innermost(&in, cand[i]);
    bool seen = false;
    for (size_t j = 0; j < k && b >= 0; j++) seen |= blk[j] >= 0 && in.blocks[blk[j]].id == in.blocks[b].id;
    if (seen) continue;
    blk[k] = b;
    uint64_t a = cand[i];
    if (b >= 0 && in.blocks[b].function && in.blocks[b].lo == a) a = kit_di__past_prologue(&in, a);
    else
      for (size_t j = 0; j < in.nblocks; j++)
        if (in.blocks[j].function && in.blocks[j].lo == a) a = kit_di__past_prologue(&in, a);
    if (k < cap) out[k] = a;
    k++;
  }
  free(blk);
  free(cand);
  free(in.rows);
  free(in.blocks);
  if (found_line) *found_line = best;
  if (k > cap) k = cap;
  qsort(out, k, sizeof *out, kit_di__cmp_u64);
  return (long)k;
}
