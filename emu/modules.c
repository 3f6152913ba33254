/* emu/modules.c — guest ranges and the files they came from, the ELF modules
 * among them, and symbols for tools (see modules.h): the names and lines come
 * from the guest symbolizer the sanitizer runtime already has (ELF symbol
 * tables, DWARF line tables). */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest.h"
#include "modules.h"

typedef struct FileRange {
  uint64_t lo, hi, off; /* off: the file offset of lo */
  char *path;
} FileRange;

typedef struct Sym {
  uint64_t addr, size; /* link-time */
  char *name;
} Sym;

typedef struct Module {
  char *path;
  uint64_t bias, lo, hi;
  Sym *syms; /* functions by address, read on first use */
  size_t nsyms;
  bool read;
} Module;

struct KitEmuFiles {
  FileRange *r;
  size_t n, cap;
  Module *m;
  size_t nm, capm;
};

static struct KitEmuFiles *files(KitEmu *emu) {
  if (!emu->files) emu->files = calloc(1, sizeof *emu->files);
  return emu->files;
}

void kit_emu_files_unmap(KitEmu *emu, uint64_t va, uint64_t len) {
  struct KitEmuFiles *f = files(emu);
  uint64_t end = va + len;
  for (size_t i = 0; f && i < f->n;) {
    FileRange *r = &f->r[i];
    if (r->hi <= va || r->lo >= end) {
      i++;
      continue;
    }
    if (r->lo < va && r->hi > end && f->n < f->cap) { /* a hole in the middle: two ranges */
      FileRange tail = {end, r->hi, r->off + (end - r->lo), strdup(r->path)};
      r->hi = va;
      f->r[f->n++] = tail;
      i++;
    } else if (r->lo < va) {
      r->hi = va;
      i++;
    } else if (r->hi > end) {
      r->off += end - r->lo;
      r->lo = end;
      i++;
    } else {
      free(r->path);
      f->r[i] = f->r[--f->n];
    }
  }
}

/* The ELF of the guest arch at path, mapped from offset 0 at va: a module.
 * Its bias puts the first PT_LOAD (the segment from file offset 0) at va;
 * [lo, hi) covers every PT_LOAD. One read of the program headers. */
static void module_at(KitEmu *emu, const char *path, uint64_t va) {
  struct KitEmuFiles *f = emu->files;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  GElf_Ehdr eh;
  size_t phn;
  bool first = true, ok = false;
  uint64_t bias = 0, lo = UINT64_MAX, hi = 0;
  if (e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh) && eh.e_machine == emu->arch->elf_machine &&
      elf_getphdrnum(e, &phn) == 0)
    for (size_t i = 0; i < phn; i++) {
      GElf_Phdr ph;
      if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD) continue;
      if (first) {
        uint64_t page = ph.p_vaddr & ~(KIT_EMU_PAGE - 1);
        ok = ph.p_offset < KIT_EMU_PAGE && va >= page;
        bias = va - page;
        first = false;
      }
      if (bias + ph.p_vaddr < lo) lo = bias + ph.p_vaddr;
      if (bias + ph.p_vaddr + ph.p_memsz > hi) hi = bias + ph.p_vaddr + ph.p_memsz;
    }
  if (e) elf_end(e);
  close(fd);
  if (!ok || !hi) return;
  for (size_t i = 0; i < f->nm; i++)
    if (f->m[i].bias == bias && !strcmp(f->m[i].path, path)) return;
  if (f->nm == f->capm) {
    size_t cap = f->capm ? f->capm * 2 : 8;
    Module *nm = realloc(f->m, cap * sizeof *nm);
    if (!nm) return;
    f->m = nm, f->capm = cap;
  }
  f->m[f->nm++] = (Module){.path = strdup(path), .bias = bias, .lo = lo, .hi = hi};
  kit_guest_sym_add_module(path, bias, lo, hi);
}

void kit_emu_files_map(KitEmu *emu, uint64_t va, uint64_t len, const char *path, uint64_t off) {
  struct KitEmuFiles *f = files(emu);
  if (!f) return;
  kit_emu_files_unmap(emu, va, len);
  if (!path) return;
  if (f->n + 2 > f->cap) {
    size_t cap = f->cap ? f->cap * 2 : 32;
    FileRange *nr = realloc(f->r, cap * sizeof *nr);
    if (!nr) return;
    f->r = nr, f->cap = cap;
  }
  f->r[f->n++] = (FileRange){va, va + len, off, strdup(path)};
  /* a later segment of a module already there may map from offset 0 too
   * (its data shares the first page of the file): not a new module */
  for (size_t i = 0; i < f->nm; i++)
    if (f->m[i].lo <= va && va < f->m[i].hi && !strcmp(f->m[i].path, path)) return;
  if (off == 0) module_at(emu, path, va);
}

const char *kit_emu_files_at(const KitEmu *emu, uint64_t va, uint64_t *off) {
  const struct KitEmuFiles *f = emu->files;
  for (size_t i = 0; f && i < f->n; i++)
    if (f->r[i].lo <= va && va < f->r[i].hi) {
      if (off) *off = f->r[i].off + (va - f->r[i].lo);
      return f->r[i].path;
    }
  return NULL;
}

const char *kit_emu_files_span(const KitEmu *emu, uint64_t va, uint64_t *off, uint64_t *end) {
  const struct KitEmuFiles *f = emu->files;
  *end = UINT64_MAX;
  for (size_t i = 0; f && i < f->n; i++) {
    if (f->r[i].lo <= va && va < f->r[i].hi) {
      *off = f->r[i].off + (va - f->r[i].lo);
      *end = f->r[i].hi;
      return f->r[i].path;
    }
    if (f->r[i].lo > va && f->r[i].lo < *end) *end = f->r[i].lo;
  }
  return NULL;
}

void kit_emu_files_free(KitEmu *emu) {
  struct KitEmuFiles *f = emu->files;
  if (!f) return;
  for (size_t i = 0; i < f->n; i++) free(f->r[i].path);
  for (size_t i = 0; i < f->nm; i++) {
    for (size_t k = 0; k < f->m[i].nsyms; k++) free(f->m[i].syms[k].name);
    free(f->m[i].syms), free(f->m[i].path);
  }
  free(f->r), free(f->m), free(f);
  emu->files = NULL;
}

static int sym_cmp(const void *a, const void *b) {
  const Sym *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* the module's function symbols (.symtab, else .dynsym), sorted */
static void read_syms(Module *m) {
  m->read = true;
  int fd = open(m->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  size_t cap = 0;
  for (int pass = 0; e && pass < 2 && !m->nsyms; pass++) {
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn))) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh) || sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB)) continue;
      Elf_Data *d = elf_getdata(scn, NULL);
      size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
      for (size_t i = 0; d && i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
            !s.st_value)
          continue;
        const char *name = elf_strptr(e, sh.sh_link, s.st_name);
        if (!name || !name[0]) continue;
        if (m->nsyms == cap) {
          cap = cap ? cap * 2 : 256;
          Sym *ns = realloc(m->syms, cap * sizeof *ns);
          if (!ns) break;
          m->syms = ns;
        }
        m->syms[m->nsyms++] = (Sym){s.st_value, s.st_size, strdup(name)};
      }
    }
  }
  if (e) elf_end(e);
  close(fd);
  if (m->nsyms) qsort(m->syms, m->nsyms, sizeof *m->syms, sym_cmp);
}

/* the function holding link-time address a: the last symbol at or below it
 * that covers it (a zero-sized one covers up to the next) */
static const Sym *sym_at(Module *m, uint64_t a) {
  if (!m->read) read_syms(m);
  size_t lo = 0, hi = m->nsyms;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->syms[mid].addr <= a) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i-- > 0;) {
    const Sym *s = &m->syms[i];
    if (a < s->addr + s->size || (!s->size && (i + 1 == m->nsyms || a < m->syms[i + 1].addr))) return s;
    if (s->addr != m->syms[lo - 1].addr) break; /* only aliases at the same address are worth a look */
  }
  return NULL;
}

/* the answer's strings live until the next call (one symbol at a time, as
 * tools ask for them) */
int kit_emu_symbolize(KitEmu *emu, uint64_t pc, KitEmuSymbol *out) {
  static __thread KitSanSymbol s; /* out's strings point into it until the next call */
  memset(out, 0, sizeof *out);
  memset(&s, 0, sizeof s); /* no line row for pc: no file, not the last call's */
  struct KitEmuFiles *f = emu->files;
  Module *m = NULL;
  for (size_t i = 0; f && i < f->nm; i++)
    if (f->m[i].lo <= pc && pc < f->m[i].hi) m = &f->m[i];
  if (!m) return -1;
  out->module = m->path;
  out->module_base = m->bias;
  const Sym *sy = sym_at(m, pc - m->bias);
  if (sy) {
    out->function = sy->name;
    out->offset = pc - m->bias - sy->addr;
  }
  if (kit_guest_symbolize(NULL, (uintptr_t)pc, &s) && s.file[0]) {
    out->file = s.file;
    out->line = (unsigned)s.line;
  }
  return 0;
}

uint64_t kit_emu_symbol_lookup(KitEmu *emu, const char *module, const char *name) {
  struct KitEmuFiles *f = emu->files;
  size_t ml = module ? strlen(module) : 0;
  for (int exe_first = 1; exe_first >= 0; exe_first--)
    for (size_t i = 0; f && i < f->nm; i++) {
      Module *m = &f->m[i];
      size_t pl = strlen(m->path);
      if (module ? (pl < ml || strcmp(m->path + pl - ml, module)) : (exe_first != !strcmp(m->path, emu->exe_path)))
        continue;
      if (!m->read) read_syms(m);
      for (size_t k = 0; k < m->nsyms; k++)
        if (!strcmp(m->syms[k].name, name)) return m->bias + m->syms[k].addr;
      if (module) return 0;
    }
  return 0;
}

long kit_emu_module_functions(KitEmu *emu, const char *module,
                              void (*cb)(void *user, const char *name, uint64_t addr, uint64_t size), void *user) {
  struct KitEmuFiles *f = emu->files;
  for (size_t i = 0; f && i < f->nm; i++) {
    Module *m = &f->m[i];
    if (strcmp(m->path, module)) continue;
    if (!m->read) read_syms(m);
    for (size_t k = 0; k < m->nsyms; k++) cb(user, m->syms[k].name, m->bias + m->syms[k].addr, m->syms[k].size);
    return (long)m->nsyms;
  }
  return -1;
}
