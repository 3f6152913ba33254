/* elfsym.c — the ELF symbolizer both modes share (see elfsym.h): the module
 * table, loading a module's symbols and DWARF line rows (libelf, libdwarf) on
 * first use, and the lookups. Memory comes from mmap, never from malloc: in
 * compiled mode malloc is the program's, checked by this runtime. */
#define _GNU_SOURCE
#include "elfsym.h"
#include <dwarf.h>
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libdwarf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  uintptr_t addr;
  const char *file;
  uint32_t line, col;
  uint32_t end_seq, order;
} Row;

typedef struct {
  uintptr_t addr, size;
  const char *name;
  int rank; /* GLOBAL beats WEAK beats LOCAL at one address */
} Sym;

typedef struct {
  uintptr_t beg, end;
  Dwarf_Off cu;
  bool loaded;
} CuRange;

typedef struct {
  char path[512];
  char build_id[64];
  uintptr_t bias, lo, hi;
  bool loaded;
  Row *rows;
  size_t nrows, caprows;
  Sym *syms;
  size_t nsyms, capsyms;
  /* With .debug_aranges, line tables load one CU at a time, on demand. */
  Dwarf_Debug dbg;
  CuRange *ar;
  size_t nar, capar;
} Module;

static Module *mods;
static size_t nmods, capmods;

static void *grow(void *p, size_t *cap, size_t elem, size_t need) {
  if (need <= *cap)
    return p;
  size_t ncap = *cap ? *cap * 2 : 1024;
  while (ncap < need)
    ncap *= 2;
  void *q = p ? mremap(p, *cap * elem, ncap * elem, MREMAP_MAYMOVE)
              : mmap(0, ncap * elem, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (q == MAP_FAILED)
    return NULL;
  *cap = ncap;
  return q;
}

/* Names and file paths live for the process: an append-only string arena. */
static const char *intern(const char *s) {
  static char *arena;
  static size_t left;
  size_t n = strlen(s) + 1;
  if (n > 65536)
    return "";
  if (left < n) {
    arena = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (arena == MAP_FAILED) {
      arena = NULL;
      left = 0;
      return "";
    }
    left = 1 << 20;
  }
  char *d = arena;
  memcpy(d, s, n);
  arena += n;
  left -= n;
  return d;
}

void kit_elfsym_build_id(const void *notes, size_t len, char *out, size_t cap) {
  const uint8_t *p = notes;
  size_t off = 0;
  if (cap)
    out[0] = 0;
  while (off + 12 <= len) {
    const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(p + off);
    size_t name_sz = (nh->n_namesz + 3) & ~3U, desc_sz = (nh->n_descsz + 3) & ~3U;
    if (off + 12 + name_sz + nh->n_descsz > len)
      return;
    const uint8_t *desc = p + off + 12 + name_sz;
    if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(p + off + 12, "GNU", 4)) {
      size_t k = 0;
      for (size_t i = 0; i < nh->n_descsz && k + 3 < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "%02x", desc[i]);
      return;
    }
    off += 12 + name_sz + desc_sz;
  }
}

void kit_elfsym_add(const char *path, uintptr_t bias, uintptr_t lo, uintptr_t hi, const char *build_id) {
  if (lo >= hi)
    return;
  Module *m = NULL;
  for (size_t i = 0; i < nmods && !m; i++)
    if (mods[i].bias == bias && !strcmp(mods[i].path, path))
      m = &mods[i];
  if (m) {
    if (lo < m->lo)
      m->lo = lo;
    if (hi > m->hi)
      m->hi = hi;
    return;
  }
  for (size_t i = 0; i < nmods && !m; i++)
    if (lo < mods[i].hi && mods[i].lo < hi)
      m = &mods[i]; /* its tables are dropped with it (the arena keeps its strings) */
  if (!m) {
    Module *nm = grow(mods, &capmods, sizeof *mods, nmods + 1);
    if (!nm)
      return;
    mods = nm;
    m = &mods[nmods++];
  } else {
    if (m->rows)
      munmap(m->rows, m->caprows * sizeof *m->rows);
    if (m->syms)
      munmap(m->syms, m->capsyms * sizeof *m->syms);
    if (m->ar)
      munmap(m->ar, m->capar * sizeof *m->ar);
  }
  memset(m, 0, sizeof *m);
  snprintf(m->path, sizeof m->path, "%s", path);
  if (build_id)
    snprintf(m->build_id, sizeof m->build_id, "%s", build_id);
  m->bias = bias;
  m->lo = lo;
  m->hi = hi;
}

static void load_syms(Module *m, Elf *e) {
  Elf_Scn *scn = NULL;
  bool have_symtab = false;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
      have_symtab = true;
  }
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh))
      continue;
    if (sh.sh_type == SHT_NOTE && !m->build_id[0]) {
      Elf_Data *d = elf_getdata(scn, NULL);
      if (d && d->d_buf)
        kit_elfsym_build_id(d->d_buf, d->d_size, m->build_id, sizeof m->build_id);
      continue;
    }
    if (sh.sh_type != SHT_SYMTAB && !(sh.sh_type == SHT_DYNSYM && !have_symtab))
      continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
    for (size_t i = 0; d && i < n; i++) {
      GElf_Sym s;
      if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value)
        continue;
      const char *name = elf_strptr(e, sh.sh_link, s.st_name);
      if (!name || !name[0])
        continue;
      Sym *ns = grow(m->syms, &m->capsyms, sizeof *ns, m->nsyms + 1);
      if (!ns)
        return;
      m->syms = ns;
      int b = GELF_ST_BIND(s.st_info);
      ns[m->nsyms++] = (Sym){s.st_value, s.st_size, intern(name),
                            b == STB_GLOBAL ? 2 : b == STB_WEAK ? 1 : 0};
    }
  }
}

typedef struct {
  const char **names; /* interned, indexed like the line table's file numbers */
  Dwarf_Signed n;
  bool v5, gnu;
} FileTab;

/* libdwarf 20210528 starts DWARF 5 sequences with file register 0 where the
 * standard says 1; gcc relies on the default (LLVM always sets the file), so for
 * gcc's v5 tables 0 means 1. */
static const char *row_file(const FileTab *ft, Dwarf_Line l) {
  Dwarf_Unsigned fno;
  if (dwarf_line_srcfileno(l, &fno, NULL) != DW_DLV_OK)
    return "";
  Dwarf_Signed idx = ft->v5 ? (Dwarf_Signed)fno : (Dwarf_Signed)fno - 1;
  if (ft->v5 && ft->gnu && fno == 0)
    idx = 1;
  return idx >= 0 && idx < ft->n ? ft->names[idx] : "";
}

static void add_row(Module *m, const FileTab *ft, Dwarf_Line l) {
  Dwarf_Addr a;
  Dwarf_Unsigned line = 0, col = 0;
  Dwarf_Bool es = 0;
  if (dwarf_lineaddr(l, &a, NULL) != DW_DLV_OK)
    return;
  dwarf_lineno(l, &line, NULL);
  dwarf_lineoff_b(l, &col, NULL);
  dwarf_lineendsequence(l, &es, NULL);
  Row *r = grow(m->rows, &m->caprows, sizeof *r, m->nrows + 1);
  if (!r)
    return;
  m->rows = r;
  r[m->nrows] = (Row){a, es ? "" : row_file(ft, l), (uint32_t)line, (uint32_t)col, es,
                      (uint32_t)m->nrows};
  m->nrows++;
}

static void load_cu_lines(Module *m, Dwarf_Debug dbg, Dwarf_Die cu) {
  Dwarf_Unsigned lver;
  Dwarf_Small tc;
  Dwarf_Line_Context lc;
  if (dwarf_srclines_b(cu, &lver, &tc, &lc, NULL) != DW_DLV_OK)
    return;
  FileTab ft = {0};
  ft.v5 = lver >= 5;
  char *producer = NULL;
  if (dwarf_die_text(cu, DW_AT_producer, &producer, NULL) == DW_DLV_OK && producer) {
    ft.gnu = !strncmp(producer, "GNU", 3);
    dwarf_dealloc(dbg, producer, DW_DLA_STRING);
  }
  char **files = NULL;
  size_t cap = 0;
  if (dwarf_srcfiles(cu, &files, &ft.n, NULL) == DW_DLV_OK) {
    ft.names = grow(NULL, &cap, sizeof *ft.names, (size_t)ft.n + 1);
    for (Dwarf_Signed i = 0; i < ft.n; i++) {
      if (ft.names)
        ft.names[i] = intern(files[i]);
      dwarf_dealloc(dbg, files[i], DW_DLA_STRING);
    }
    dwarf_dealloc(dbg, files, DW_DLA_LIST);
    if (!ft.names)
      ft.n = 0;
  }
  Dwarf_Line *lines;
  Dwarf_Signed n;
  if (dwarf_srclines_from_linecontext(lc, &lines, &n, NULL) == DW_DLV_OK)
    for (Dwarf_Signed i = 0; i < n; i++)
      add_row(m, &ft, lines[i]);
  dwarf_srclines_dealloc_b(lc);
  if (ft.names)
    munmap(ft.names, cap * sizeof *ft.names);
}

static int cmp_cu(const void *a, const void *b) {
  const CuRange *x = a, *y = b;
  return x->beg < y->beg ? -1 : x->beg > y->beg;
}

/* Returns whether the file has line tables; sets *keep when m->dbg now owns fd. */
static bool load_lines(Module *m, int fd, bool *keep) {
  Dwarf_Debug dbg;
  *keep = false;
  if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, NULL) != DW_DLV_OK)
    return false;
  Dwarf_Arange *ars;
  Dwarf_Signed nars = 0;
  if (!m->dbg && dwarf_get_aranges(dbg, &ars, &nars, NULL) == DW_DLV_OK && nars > 0) {
    for (Dwarf_Signed i = 0; i < nars; i++) {
      Dwarf_Addr start;
      Dwarf_Unsigned len;
      Dwarf_Off cu;
      if (dwarf_get_arange_info(ars[i], &start, &len, &cu, NULL) == DW_DLV_OK && len) {
        CuRange *r = grow(m->ar, &m->capar, sizeof *r, m->nar + 1);
        if (r) {
          m->ar = r;
          r[m->nar++] = (CuRange){start, start + len, cu, false};
        }
      }
      dwarf_dealloc(dbg, ars[i], DW_DLA_ARANGE);
    }
    dwarf_dealloc(dbg, ars, DW_DLA_LIST);
    if (m->nar) {
      qsort(m->ar, m->nar, sizeof *m->ar, cmp_cu);
      m->dbg = dbg;
      *keep = true;
      return true;
    }
  }
  size_t before = m->nrows;
  Dwarf_Unsigned hlen, abbr, toff, next;
  Dwarf_Half ver, asz, lsz, xsz, ctype;
  Dwarf_Sig8 sig;
  while (dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbr, &asz, &lsz, &xsz, &sig, &toff,
                                &next, &ctype, NULL) == DW_DLV_OK) {
    Dwarf_Die cu = NULL;
    if (dwarf_siblingof_b(dbg, NULL, 1, &cu, NULL) != DW_DLV_OK)
      continue;
    load_cu_lines(m, dbg, cu);
    dwarf_dealloc(dbg, cu, DW_DLA_DIE);
  }
  dwarf_finish(dbg, NULL);
  return m->nrows > before; /* a stripped library may still have a stub .debug_* */
}

static int cmp_row(const void *a, const void *b) {
  const Row *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  if (x->end_seq != y->end_seq)
    return x->end_seq ? -1 : 1;
  return x->order < y->order ? -1 : 1;
}

static int cmp_sym(const void *a, const void *b) {
  const Sym *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return x->rank - y->rank;
}

static bool load_file(Module *m, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  if (e) {
    load_syms(m, e);
    elf_end(e);
  }
  bool keep;
  bool has = load_lines(m, fd, &keep);
  if (!keep)
    close(fd);
  return has;
}

/* libdwarf's own string and malloc calls are the runtime's, not the program's */
static void load_module(Module *m) {
  m->loaded = true;
  if (!m->path[0] || strstr(m->path, "linux-vdso")) /* no file behind it */
    return;
  bool saved = kit_san_in_report;
  kit_san_in_report = true;
  if (!load_file(m, m->path) && m->build_id[0]) {
    char dbg[600];
    snprintf(dbg, sizeof dbg, "/usr/lib/debug/.build-id/%.2s/%s.debug", m->build_id,
             m->build_id + 2);
    load_file(m, dbg);
  }
  kit_san_in_report = saved;
  if (m->rows)
    qsort(m->rows, m->nrows, sizeof *m->rows, cmp_row);
  if (m->syms)
    qsort(m->syms, m->nsyms, sizeof *m->syms, cmp_sym);
}

static void load_cu_for(Module *m, uintptr_t rel) {
  size_t lo = 0, hi = m->nar;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->ar[mid].beg <= rel)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo || rel >= m->ar[lo - 1].end || m->ar[lo - 1].loaded)
    return;
  Dwarf_Off cu = m->ar[lo - 1].cu;
  for (size_t i = 0; i < m->nar; i++)
    if (m->ar[i].cu == cu)
      m->ar[i].loaded = true;
  Dwarf_Die die;
  bool saved = kit_san_in_report;
  kit_san_in_report = true;
  if (dwarf_offdie_b(m->dbg, cu, 1, &die, NULL) == DW_DLV_OK) {
    load_cu_lines(m, m->dbg, die);
    dwarf_dealloc(m->dbg, die, DW_DLA_DIE);
  }
  kit_san_in_report = saved;
  if (m->rows)
    qsort(m->rows, m->nrows, sizeof *m->rows, cmp_row);
}

/* how many of the n sorted entries of stride sz start at or below rel */
static size_t upper_bound(const void *v, size_t n, size_t sz, uintptr_t rel) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (*(const uintptr_t *)((const char *)v + mid * sz) <= rel)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

bool kit_elfsym_symbolize(uintptr_t pc, KitSanSymbol *out) {
  Module *m = NULL;
  for (size_t i = 0; i < nmods && !m; i++)
    if (pc >= mods[i].lo && pc < mods[i].hi)
      m = &mods[i];
  if (!m)
    return false;
  if (!m->loaded)
    load_module(m);
  snprintf(out->module, sizeof out->module, "%s", m->path);
  snprintf(out->build_id, sizeof out->build_id, "%s", m->build_id);
  uintptr_t rel = pc - m->bias;
  out->module_off = rel;
  if (m->nar)
    load_cu_for(m, rel);
  /* Last symbol at or below rel; among equal addresses the best-ranked sorts last. */
  size_t k = upper_bound(m->syms, m->nsyms, sizeof *m->syms, rel);
  if (k) {
    const Sym *s = &m->syms[k - 1];
    if (rel < s->addr + (s->size ? s->size : 1) || !s->size)
      snprintf(out->func, sizeof out->func, "%s", s->name);
  }
  k = upper_bound(m->rows, m->nrows, sizeof *m->rows, rel);
  if (k && !m->rows[k - 1].end_seq && m->rows[k - 1].line) {
    const Row *r = &m->rows[k - 1];
    /* As the reference prints it: no leading "./" from a relative comp_dir. */
    const char *f = strncmp(r->file, "./", 2) ? r->file : r->file + 2;
    snprintf(out->file, sizeof out->file, "%s", f);
    out->line = (int)r->line;
    out->col = (int)r->col;
  }
  return true;
}
