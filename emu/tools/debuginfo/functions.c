/* emu/tools/debuginfo/functions.c — a function's addresses as gdb's `break
 * FUNC` chooses them: the out-of-line copy past its prologue, and the entry
 * of every inlined copy (the start of its first range, else DW_AT_entry_pc or
 * its low pc); a function
 * without DWARF, its ELF symbol. Also the symbol's plain address and size,
 * for FUNC+0xOFF probes. */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debuginfo_internal.h"

typedef struct Found {
  const char *name;
  uint64_t out_of_line[16];
  size_t nout;
  uint64_t inlined[256];
  unsigned inlined_id[256]; /* the block id kit_di__read gives the copy's ranges */
  size_t ninl;
  const Info *in;
} Found;

/* the DIE's name, or that of its abstract origin (concrete and inlined copies) */
static bool die_is(Dwarf_Debug dbg, Dwarf_Die die, const char *name) {
  char *n = NULL;
  if (dwarf_diename(die, &n, NULL) == DW_DLV_OK) {
    bool same = !strcmp(n, name);
    dwarf_dealloc(dbg, n, DW_DLA_STRING);
    return same;
  }
  Dwarf_Attribute a;
  Dwarf_Off off;
  Dwarf_Die origin;
  bool same = false;
  if (dwarf_attr(die, DW_AT_abstract_origin, &a, NULL) != DW_DLV_OK) return false;
  if (dwarf_global_formref(a, &off, NULL) == DW_DLV_OK && dwarf_offdie_b(dbg, off, 1, &origin, NULL) == DW_DLV_OK) {
    same = die_is(dbg, origin, name);
    dwarf_dealloc(dbg, origin, DW_DLA_DIE);
  }
  dwarf_dealloc(dbg, a, DW_DLA_ATTR);
  return same;
}

/* an inlined copy's entry: DW_AT_entry_pc, low_pc, or the first of its ranges */
static bool entry_of(Dwarf_Die die, uint64_t *pc) {
  Dwarf_Attribute a;
  Dwarf_Addr v;
  if (dwarf_attr(die, DW_AT_entry_pc, &a, NULL) == DW_DLV_OK) {
    bool ok = dwarf_formaddr(a, &v, NULL) == DW_DLV_OK;
    if (ok) *pc = v;
    if (ok) return true;
  }
  if (dwarf_lowpc(die, &v, NULL) == DW_DLV_OK) {
    *pc = v;
    return true;
  }
  return false;
}

static void visit(void *arg, Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half tag) {
  Found *f = arg;
  if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine) return;
  uint64_t pc;
  if (tag == DW_TAG_subprogram) {
    Dwarf_Addr lo;
    if (dwarf_lowpc(die, &lo, NULL) != DW_DLV_OK || !die_is(dbg, die, f->name) || f->nout == 16) return;
    f->out_of_line[f->nout++] = lo;
  } else if (entry_of(die, &pc) && die_is(dbg, die, f->name) && f->ninl < 256) {
    f->inlined_id[f->ninl] = f->in->ndies; /* numbered next, when its ranges are read */
    f->inlined[f->ninl++] = pc;
  }
}

int kit_debuginfo_symbol(const char *elf, const char *name, uint64_t *addr, uint64_t *size) {
  int fd = open(elf, O_RDONLY);
  if (fd < 0) return -1;
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  int rc = -1;
  for (Elf_Scn *scn = NULL; e && rc < 0 && (scn = elf_nextscn(e, scn));) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || !sh.sh_entsize) continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
      GElf_Sym s;
      const char *n;
      if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value) continue;
      if ((n = elf_strptr(e, sh.sh_link, s.st_name)) && !strcmp(n, name)) {
        *addr = s.st_value, *size = s.st_size;
        rc = 0;
        break;
      }
    }
  }
  if (e) elf_end(e);
  close(fd);
  return rc;
}

long kit_debuginfo_function_addrs(const char *elf, const char *name, uint64_t *out, size_t cap) {
  Found *f = calloc(1, sizeof *f);
  Info in = {0};
  if (!f) return -1;
  f->name = name;
  f->in = &in;
  long n = 0;
  if (kit_di__read(elf, NULL, &in, visit, f) == 0) {
    for (size_t i = 0; i < f->nout; i++)
      if ((size_t)n < cap) out[n++] = kit_di__past_prologue(&in, f->out_of_line[i]);
    /* an inlined copy breaks where gdb's block entry is, the start of its
     * first range (gcc's DW_AT_entry_pc may lie before it, on an instruction
     * the caller shares) */
    for (size_t i = 0; i < f->ninl; i++) {
      uint64_t at = f->inlined[i];
      for (size_t b = 0; b < in.nblocks; b++)
        if (in.blocks[b].id == f->inlined_id[i]) {
          at = in.blocks[b].lo;
          break;
        }
      if ((size_t)n < cap) out[n++] = at;
    }
  }
  uint64_t a, size;
  if (n == 0 && cap && kit_debuginfo_symbol(elf, name, &a, &size) == 0) out[n++] = a;
  qsort(out, (size_t)n, sizeof *out, kit_di__cmp_u64);
  long k = 0; /* the same address twice (an inlined copy at an entry) once */
  for (long i = 0; i < n; i++)
    if (!k || out[k - 1] != out[i]) out[k++] = out[i];
  free(in.rows);
  free(in.blocks);
  free(f);
  return k;
}
