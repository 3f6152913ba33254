/* symbolize.c — the guest symbolizer: modules (the guest executable, its
 * dynamic linker, libraries it maps) registered by the emulator with their
 * load bias; file:line:col from the module's DWARF line tables (libdwarf),
 * function names from .symtab (.dynsym when stripped), build ids; and the
 * runtime names intercepted guest functions print as in frame #0. */
#define _GNU_SOURCE
#include "guest.h"
#include <dwarf.h>
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libdwarf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  uintptr_t addr;
  const char *file;
  uint32_t line, col, end_seq, order;
} Row;

typedef struct {
  uintptr_t addr, size;
  const char *name;
  int rank; /* GLOBAL beats WEAK beats LOCAL at one address */
} Sym;

typedef struct {
  char path[512];
  char build_id[64];
  uintptr_t bias, lo, hi;
  bool loaded;
  Row *rows;
  size_t nrows, caprows;
  Sym *syms;
  size_t nsyms, capsyms;
} Module;

#define MAX_MODULES 64
static Module mods[MAX_MODULES];
static size_t nmods;

typedef struct {
  uintptr_t addr;
  const char *name;
} Named;
static Named named[128];
static size_t nnamed;

static void *grow(void *p, size_t *cap, size_t elem, size_t need) {
  if (need <= *cap)
    return p;
  size_t ncap = *cap ? *cap * 2 : 1024;
  while (ncap < need)
    ncap *= 2;
  void *q = realloc(p, ncap * elem);
  if (!q)
    return NULL;
  *cap = ncap;
  return q;
}

static const char *intern(const char *s) {
  char *d = strdup(s);
  return d ? d : "";
}

void kit_guest_sym_add_module(const char *path, uintptr_t bias, uintptr_t lo, uintptr_t hi) {
  for (size_t i = 0; i < nmods; i++)
    if (mods[i].bias == bias && !strcmp(mods[i].path, path)) {
      if (lo < mods[i].lo)
        mods[i].lo = lo;
      if (hi > mods[i].hi)
        mods[i].hi = hi;
      return;
    }
  if (nmods == MAX_MODULES)
    return;
  Module *m = &mods[nmods++];
  memset(m, 0, sizeof *m);
  snprintf(m->path, sizeof m->path, "%s", path);
  m->bias = bias;
  m->lo = lo;
  m->hi = hi;
}

void kit_guest_sym_set_name(uintptr_t addr, const char *name) {
  for (size_t i = 0; i < nnamed; i++)
    if (named[i].addr == addr) {
      named[i].name = name;
      return;
    }
  if (nnamed < sizeof named / sizeof named[0])
    named[nnamed++] = (Named){addr, name};
}

static void note_build_id(Module *m, Elf *e) {
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
      continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    size_t off = 0, noff, doff;
    GElf_Nhdr nh;
    while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
      if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
          !memcmp((char *)d->d_buf + noff, "GNU", 4)) {
        const uint8_t *id = (const uint8_t *)d->d_buf + doff;
        size_t k = 0;
        for (size_t i = 0; i < nh.n_descsz && k + 3 < sizeof m->build_id; i++)
          k += snprintf(m->build_id + k, sizeof m->build_id - k, "%02x", id[i]);
        return;
      }
    }
  }
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
      ns[m->nsyms++] = (Sym){s.st_value, s.st_size, intern(name), b == STB_GLOBAL ? 2 : b == STB_WEAK ? 1 : 0};
    }
  }
}

typedef struct {
  const char **names;
  Dwarf_Signed n;
  bool v5, gnu;
} FileTab;

/* libdwarf 20210528 starts DWARF 5 sequences with file register 0; gcc relies
 * on the default 1 (as the native symbolizer explains). */
static const char *row_file(const FileTab *ft, Dwarf_Line l) {
  Dwarf_Unsigned fno;
  if (dwarf_line_srcfileno(l, &fno, NULL) != DW_DLV_OK)
    return "";
  Dwarf_Signed idx = ft->v5 ? (Dwarf_Signed)fno : (Dwarf_Signed)fno - 1;
  if (ft->v5 && ft->gnu && fno == 0)
    idx = 1;
  return idx >= 0 && idx < ft->n ? ft->names[idx] : "";
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
  if (dwarf_srcfiles(cu, &files, &ft.n, NULL) == DW_DLV_OK) {
    ft.names = calloc((size_t)ft.n + 1, sizeof *ft.names);
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
    for (Dwarf_Signed i = 0; i < n; i++) {
      Dwarf_Addr a;
      Dwarf_Unsigned line = 0, col = 0;
      Dwarf_Bool es = 0;
      if (dwarf_lineaddr(lines[i], &a, NULL) != DW_DLV_OK)
        continue;
      dwarf_lineno(lines[i], &line, NULL);
      dwarf_lineoff_b(lines[i], &col, NULL);
      dwarf_lineendsequence(lines[i], &es, NULL);
      Row *r = grow(m->rows, &m->caprows, sizeof *r, m->nrows + 1);
      if (!r)
        break;
      m->rows = r;
      r[m->nrows] = (Row){a, es ? "" : row_file(&ft, lines[i]), (uint32_t)line, (uint32_t)col, es,
                          (uint32_t)m->nrows};
      m->nrows++;
    }
  dwarf_srclines_dealloc_b(lc);
  free(ft.names);
}

static void load_lines(Module *m, int fd) {
  Dwarf_Debug dbg;
  if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, NULL) != DW_DLV_OK)
    return;
  Dwarf_Unsigned hlen, abbr, toff, next;
  Dwarf_Half ver, asz, lsz, xsz, ctype;
  Dwarf_Sig8 sig;
  while (dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbr, &asz, &lsz, &xsz, &sig, &toff, &next, &ctype,
                                NULL) == DW_DLV_OK) {
    Dwarf_Die cu = NULL;
    if (dwarf_siblingof_b(dbg, NULL, 1, &cu, NULL) != DW_DLV_OK)
      continue;
    load_cu_lines(m, dbg, cu);
    dwarf_dealloc(dbg, cu, DW_DLA_DIE);
  }
  dwarf_finish(dbg, NULL);
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

static void load_module(Module *m) {
  m->loaded = true;
  int fd = open(m->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  bool saved = kit_san_in_report;
  kit_san_in_report = true;
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  if (e) {
    load_syms(m, e);
    note_build_id(m, e);
    elf_end(e);
  }
  load_lines(m, fd);
  close(fd);
  kit_san_in_report = saved;
  if (m->rows)
    qsort(m->rows, m->nrows, sizeof *m->rows, cmp_row);
  if (m->syms)
    qsort(m->syms, m->nsyms, sizeof *m->syms, cmp_sym);
}

bool kit_guest_symbolize(void *ctx, uintptr_t pc, KitSanSymbol *out) {
  (void)ctx;
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
  for (size_t i = 0; i < nnamed; i++)
    if (named[i].addr == pc) { /* an intercepted function: the runtime's frame */
      snprintf(out->func, sizeof out->func, "%s", named[i].name);
      return true;
    }
  size_t lo = 0, hi = m->nsyms;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->syms[mid].addr <= rel)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo) {
    const Sym *s = &m->syms[lo - 1];
    if (rel < s->addr + (s->size ? s->size : 1) || !s->size)
      snprintf(out->func, sizeof out->func, "%s", s->name);
  }
  lo = 0;
  hi = m->nrows;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->rows[mid].addr <= rel)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo && !m->rows[lo - 1].end_seq && m->rows[lo - 1].line) {
    const Row *r = &m->rows[lo - 1];
    const char *f = strncmp(r->file, "./", 2) ? r->file : r->file + 2;
    snprintf(out->file, sizeof out->file, "%s", f);
    out->line = (int)r->line;
    out->col = (int)r->col;
  }
  return true;
}
