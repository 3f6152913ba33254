/* tools/kit-cov.c — coverage files + the program's DWARF -> an lcov tracefile
 * (genhtml reads it) and a terminal summary per file and function.
 *
 *   kit-cov [-o OUT.info] [-q] PROGRAM FILE...
 *
 * FILE is a .sancov (64-bit magic, module-relative caller pcs of the
 * trace-pc-guard callback: kitcc -fsanitize-coverage=trace-pc-guard run with
 * KIT_COVERAGE=1 or ASAN_OPTIONS=coverage=1) or a kit range file ("kit-cov
 * ranges v1", then "START END COUNT" lines in hex/hex/decimal, module-relative:
 * what an emulator that knows its executed blocks writes). Everything becomes
 * address ranges with counts; lines take the largest count of their rows.
 * docs/coverage.md describes both inputs. */
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libdwarf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SANCOV_MAGIC64 0xC0BFFFFFFFFFFF64ull

typedef struct Func {
  char *name;
  uint64_t beg, end;
  uint32_t line; /* first line row, 0 = none */
  char *file;
  uint64_t count;
  bool instrumented;
} Func;

typedef struct Range {
  uint64_t beg, end, count;
} Range;

typedef struct Row {
  uint64_t addr;
  const char *file;
  uint32_t line;
} Row;

typedef struct LineRec {
  const char *file;
  uint32_t line;
  uint64_t count;
} LineRec;

#define VEC(T) struct { T *v; size_t n, cap; }
#define PUSH(vec, x)                                                              \
  do {                                                                            \
    if ((vec).n == (vec).cap) {                                                   \
      (vec).cap = (vec).cap ? (vec).cap * 2 : 64;                                 \
      (vec).v = realloc((vec).v, (vec).cap * sizeof *(vec).v);                    \
      if (!(vec).v) die("out of memory");                                         \
    }                                                                             \
    (vec).v[(vec).n++] = (x);                                                     \
  } while (0)

static VEC(Func) funcs;
static VEC(Range) ranges;
static VEC(Row) rows;
typedef VEC(uint64_t) U64Vec;
typedef struct Point {
  uint64_t ret;   /* return address of a call to the guard callback: what .sancov holds */
  uint64_t block; /* where its block starts: the guard's address load before the call */
} Point;
static VEC(Point) points;
static uint64_t bias;        /* vaddr of module offset 0 */
static bool have_sancov;     /* a .sancov input: the guard call sites are the points */

static void die(const char *msg) {
  fprintf(stderr, "kit-cov: error: %s\n", msg);
  exit(1);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}
static int cmp_func(const void *a, const void *b) { return cmp_u64(&((const Func *)a)->beg, &((const Func *)b)->beg); }

/* ---- the program: functions, callback call sites ------------------------------- */

static void load_elf(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    fprintf(stderr, "kit-cov: error: cannot open '%s'\n", path);
    exit(1);
  }
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  if (!e || elf_kind(e) != ELF_K_ELF) die("not an ELF file");
  size_t nph = 0;
  elf_getphdrnum(e, &nph);
  bool have_bias = false;
  for (size_t i = 0; i < nph; i++) {
    GElf_Phdr ph;
    if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && !have_bias) {
      bias = ph.p_vaddr & ~(uint64_t)0xfff;
      have_bias = true;
    }
  }
  uint64_t guard_cb = 0;
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB) continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
    for (size_t i = 0; d && i < n; i++) {
      GElf_Sym s;
      if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value) continue;
      const char *name = elf_strptr(e, sh.sh_link, s.st_name);
      if (!name) continue;
      if (!strcmp(name, "__sanitizer_cov_trace_pc_guard")) guard_cb = s.st_value;
      Func f = {.name = strdup(name), .beg = s.st_value, .end = s.st_value + (s.st_size ? s.st_size : 1)};
      PUSH(funcs, f);
    }
  }
  qsort(funcs.v, funcs.n, sizeof *funcs.v, cmp_func);
  /* call rel32 sites whose target is the callback: the instrumentation points */
  scn = NULL;
  while (guard_cb && (scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS) continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d || !d->d_buf) continue;
    const uint8_t *b = d->d_buf;
    for (size_t i = 0; i + 5 <= d->d_size; i++) {
      if (b[i] != 0xe8) continue;
      int32_t rel;
      memcpy(&rel, b + i + 1, 4);
      uint64_t ret = sh.sh_addr + i + 5;
      if (ret + (uint64_t)(int64_t)rel != guard_cb) continue;
      /* the guard's address: lea rdi,[rip+x] then maybe add rdi,imm8 / add rdi,imm32 */
      size_t p = i;
      if (p >= 4 && b[p - 4] == 0x48 && b[p - 3] == 0x83 && b[p - 2] == 0xc7) p -= 4;
      else if (p >= 7 && b[p - 7] == 0x48 && b[p - 6] == 0x81 && b[p - 5] == 0xc7) p -= 7;
      if (p >= 7 && b[p - 7] == 0x48 && b[p - 6] == 0x8d && b[p - 5] == 0x3d) p -= 7;
      Point pt = {ret, sh.sh_addr + p};
      PUSH(points, pt);
    }
  }
  elf_end(e);
  close(fd);
}

static Func *func_at(uint64_t a) {
  size_t lo = 0, hi = funcs.n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (funcs.v[mid].beg <= a) lo = mid + 1;
    else hi = mid;
  }
  if (!lo) return NULL;
  Func *f = &funcs.v[lo - 1];
  return a < f->end ? f : NULL;
}

/* ---- line tables ---------------------------------------------------------------- */

static void load_lines(const char *path) {
  int fd = open(path, O_RDONLY);
  Dwarf_Debug dbg;
  if (fd < 0 || dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, NULL) != DW_DLV_OK)
    die("the program has no DWARF (build it with -g)");
  Dwarf_Unsigned hlen, abbr, toff, next;
  Dwarf_Half ver, asz, lsz, xsz, ctype;
  Dwarf_Sig8 sig;
  while (dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbr, &asz, &lsz, &xsz, &sig, &toff, &next, &ctype, NULL) ==
         DW_DLV_OK) {
    Dwarf_Die cu = NULL;
    if (dwarf_siblingof_b(dbg, NULL, 1, &cu, NULL) != DW_DLV_OK) continue;
    char *comp_dir = NULL, *cd = NULL;
    if (dwarf_die_text(cu, DW_AT_comp_dir, &cd, NULL) == DW_DLV_OK && cd) {
      comp_dir = strdup(cd);
      dwarf_dealloc(dbg, cd, DW_DLA_STRING);
    }
    Dwarf_Unsigned lver;
    Dwarf_Small tc;
    Dwarf_Line_Context lc;
    if (dwarf_srclines_b(cu, &lver, &tc, &lc, NULL) == DW_DLV_OK) {
      Dwarf_Line *lines;
      Dwarf_Signed n;
      if (dwarf_srclines_from_linecontext(lc, &lines, &n, NULL) == DW_DLV_OK) {
        for (Dwarf_Signed i = 0; i < n; i++) {
          Dwarf_Addr a;
          Dwarf_Unsigned line = 0;
          Dwarf_Bool es = 0;
          char *src = NULL;
          if (dwarf_lineaddr(lines[i], &a, NULL) != DW_DLV_OK) continue;
          dwarf_lineendsequence(lines[i], &es, NULL);
          dwarf_lineno(lines[i], &line, NULL);
          if (es || !line || dwarf_linesrc(lines[i], &src, NULL) != DW_DLV_OK) continue;
          const char *rel = src;
          while (!strncmp(rel, "./", 2)) rel += 2;
          char *full = malloc(strlen(rel) + (comp_dir ? strlen(comp_dir) : 0) + 2);
          if (!full) die("out of memory");
          if (rel[0] != '/' && comp_dir && strcmp(comp_dir, ".")) sprintf(full, "%s/%s", comp_dir, rel);
          else strcpy(full, rel);
          Row r = {a, full, (uint32_t)line};
          dwarf_dealloc(dbg, src, DW_DLA_STRING);
          PUSH(rows, r);
        }
      }
      dwarf_srclines_dealloc_b(lc);
    }
    free(comp_dir);
    dwarf_dealloc(dbg, cu, DW_DLA_DIE);
  }
  dwarf_finish(dbg, NULL);
  close(fd);
}

/* ---- coverage inputs -> ranges ---------------------------------------------------- */

static int cmp_point(const void *a, const void *b) { return cmp_u64(&((const Point *)a)->ret, &((const Point *)b)->ret); }

/* Block ranges from the call sites: a block starts where its guard address is
 * loaded, ends where the next begins, and a function's first block reaches
 * back to its entry. */
static void ranges_from_points(const uint64_t *hit, size_t nhit) {
  qsort(points.v, points.n, sizeof *points.v, cmp_point);
  for (size_t i = 0; i < points.n; i++) {
    Func *f = func_at(points.v[i].block);
    if (!f) continue;
    f->instrumented = true;
    uint64_t beg = points.v[i].block, end = f->end;
    if (i == 0 || func_at(points.v[i - 1].block) != f) beg = f->beg;
    if (i + 1 < points.n && func_at(points.v[i + 1].block) == f) end = points.v[i + 1].block;
    bool covered = bsearch(&points.v[i].ret, hit, nhit, sizeof *hit, cmp_u64) != NULL;
    Range r = {beg, end, covered ? 1 : 0};
    PUSH(ranges, r);
  }
}

static void read_input(const char *path, U64Vec *hits) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "kit-cov: error: cannot open '%s'\n", path);
    exit(1);
  }
  uint64_t magic;
  if (fread(&magic, 8, 1, f) == 1 && magic == SANCOV_MAGIC64) {
    have_sancov = true;
    uint64_t off;
    while (fread(&off, 8, 1, f) == 1) PUSH(*hits, off + bias);
    bool partial = fseek(f, 0, SEEK_END) == 0 && ftell(f) % 8 != 0;
    fclose(f);
    if (partial) {
      fprintf(stderr, "kit-cov: error: '%s': a .sancov file of 8-byte pcs ends in a partial one\n", path);
      exit(1);
    }
    return;
  }
  rewind(f);
  char line[256];
  if (!fgets(line, sizeof line, f) || strncmp(line, "kit-cov ranges v1", 17)) {
    fprintf(stderr, "kit-cov: error: '%s' is neither a .sancov file nor a kit-cov range file\n", path);
    exit(1);
  }
  for (unsigned no = 2; fgets(line, sizeof line, f); no++) {
    uint64_t b, e, c;
    char extra;
    if (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0) continue;
    if (sscanf(line, "%" SCNx64 " %" SCNx64 " %" SCNu64 " %c", &b, &e, &c, &extra) != 3 || b >= e) {
      fprintf(stderr, "kit-cov: error: %s:%u: not a range line (START END COUNT, hex hex decimal, START < END)\n",
              path, no);
      exit(1);
    }
    Range r = {b + bias, e + bias, c};
    PUSH(ranges, r);
    Func *fn = func_at(b + bias);
    if (fn) fn->instrumented = true;
  }
  fclose(f);
}

/* ---- lines, functions, output ---------------------------------------------------------- */

static int cmp_range(const void *a, const void *b) { return cmp_u64(&((const Range *)a)->beg, &((const Range *)b)->beg); }

static const Range *range_at(uint64_t a) {
  const Range *best = NULL;
  size_t lo = 0, hi = ranges.n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ranges.v[mid].beg <= a) lo = mid + 1;
    else hi = mid;
  }
  /* ranges from several inputs may overlap: take the largest count among those holding a */
  for (size_t i = lo; i-- > 0 && ranges.v[i].beg + (1u << 20) > a;)
    if (a < ranges.v[i].end && (!best || ranges.v[i].count > best->count)) best = &ranges.v[i];
  return best;
}

static int cmp_line(const void *a, const void *b) {
  const LineRec *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  return c ? c : (x->line > y->line) - (x->line < y->line);
}

static void usage(FILE *f) {
  fputs("usage: kit-cov [-o OUT.info] [-q] PROGRAM FILE.sancov|FILE.ranges...\n"
        "  PROGRAM      the executable the coverage was taken of (its DWARF line tables)\n"
        "  FILE         a .sancov file (kitcc -fsanitize-coverage=trace-pc-guard, run with KIT_COVERAGE=1)\n"
        "               or a kit-cov range file (kit-emu --sanitize=coverage); several are merged\n"
        "  -o OUT.info  write an lcov tracefile (genhtml reads it)\n"
        "  -q           no summary per file and function on stdout\n"
        "  --help       this text\n"
        "  --version    the version\n",
        f);
}

int main(int argc, char **argv) {
  const char *out = NULL;
  bool quiet = false;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "-q")) quiet = true;
    else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--version")) {
      puts("kit-cov (kit) " KIT_VERSION);
      return 0;
    } else {
      fprintf(stderr, "kit-cov: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return 1;
    }
  }
  if (argc - i < 2) {
    usage(stderr);
    return 1;
  }
  const char *prog = argv[i++];
  load_elf(prog);
  load_lines(prog);
  U64Vec hits = {0};
  for (; i < argc; i++) read_input(argv[i], &hits);
  qsort(hits.v, hits.n, sizeof *hits.v, cmp_u64);
  if (have_sancov) ranges_from_points(hits.v, hits.n);
  qsort(ranges.v, ranges.n, sizeof *ranges.v, cmp_range);

  /* a function's file is that of its body's rows: the entry row of kitcc's
   * output can name another file (see docs/coverage.md) */
  for (size_t r = 0; r < rows.n; r++) {
    Func *f = func_at(rows.v[r].addr);
    if (f && f->instrumented && rows.v[r].addr > f->beg && !f->file) f->file = (char *)rows.v[r].file;
  }
  VEC(LineRec) lines = {0};
  for (size_t r = 0; r < rows.n; r++) {
    Func *f = func_at(rows.v[r].addr);
    if (!f || !f->instrumented) continue;
    if (f->file && strcmp(f->file, rows.v[r].file) && rows.v[r].addr == f->beg) {
      f->line = rows.v[r].line;
      const Range *entry = range_at(f->beg);
      f->count = entry ? entry->count : 0;
      continue;
    }
    const Range *rg = range_at(rows.v[r].addr);
    uint64_t c = rg ? rg->count : 0;
    if (!f->line || rows.v[r].addr == f->beg) { /* a function is where its entry's row says */
      const Range *entry = range_at(f->beg);
      f->line = rows.v[r].line;
      if (!f->file) f->file = (char *)rows.v[r].file;
      f->count = entry ? entry->count : 0;
    }
    LineRec l = {rows.v[r].file, rows.v[r].line, c};
    PUSH(lines, l);
  }
  qsort(lines.v, lines.n, sizeof *lines.v, cmp_line);
  FILE *o = out ? fopen(out, "w") : NULL;
  if (out && !o) die("cannot write the output file");
  /* one record per source file */
  for (size_t a = 0; a < lines.n;) {
    const char *file = lines.v[a].file;
    size_t b = a;
    while (b < lines.n && !strcmp(lines.v[b].file, file)) b++;
    unsigned lf = 0, lh = 0, fnf = 0, fnh = 0;
    if (o) fprintf(o, "TN:\nSF:%s\n", file);
    for (size_t k = 0; k < funcs.n; k++) {
      Func *f = &funcs.v[k];
      if (!f->instrumented || !f->file || strcmp(f->file, file)) continue;
      fnf++;
      fnh += f->count > 0;
      if (o) fprintf(o, "FN:%u,%s\nFNDA:%" PRIu64 ",%s\n", f->line, f->name, f->count, f->name);
    }
    if (o) fprintf(o, "FNF:%u\nFNH:%u\n", fnf, fnh);
    for (size_t k = a; k < b;) {
      uint32_t ln = lines.v[k].line;
      uint64_t c = 0;
      while (k < b && lines.v[k].line == ln) {
        if (lines.v[k].count > c) c = lines.v[k].count;
        k++;
      }
      lf++;
      lh += c > 0;
      if (o) fprintf(o, "DA:%u,%" PRIu64 "\n", ln, c);
    }
    if (o) fprintf(o, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
    if (!quiet) {
      printf("%s: lines %u/%u (%.1f%%), functions %u/%u\n", file, lh, lf, lf ? 100.0 * lh / lf : 0.0, fnh, fnf);
      for (size_t k = 0; k < funcs.n; k++) {
        Func *f = &funcs.v[k];
        if (f->instrumented && f->file && !strcmp(f->file, file))
          printf("  %-30s line %-5u %s\n", f->name, f->line, f->count ? "hit" : "not hit");
      }
    }
    a = b;
  }
  if (o) fclose(o);
  return 0;
}
