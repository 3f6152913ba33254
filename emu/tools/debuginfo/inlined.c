/* emu/tools/debuginfo/inlined.c — the inlined calls in an address range:
 * every DW_TAG_inlined_subroutine whose ranges meet [lo, hi), with the
 * inlined function's name (through DW_AT_abstract_origin), its address
 * ranges and the call's line (DW_AT_call_line). For --probe-list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo_internal.h"

typedef struct Inl {
  unsigned id; /* the block id kit_di__read gives its ranges */
  char name[128];
  unsigned call_line;
} Inl;

typedef struct Collect {
  Inl *v;
  size_t n, cap;
  const Info *in; /* for the id the next block DIE gets */
} Collect;

static bool name_of(Dwarf_Debug dbg, Dwarf_Die die, char *out, size_t cap, int depth) {
  char *n = NULL;
  if (dwarf_diename(die, &n, NULL) == DW_DLV_OK) {
    snprintf(out, cap, "%s", n);
    dwarf_dealloc(dbg, n, DW_DLA_STRING);
    return true;
  }
  Dwarf_Attribute a;
  Dwarf_Off off;
  Dwarf_Die origin;
  bool ok = false;
  if (depth > 4 || dwarf_attr(die, DW_AT_abstract_origin, &a, NULL) != DW_DLV_OK) return false;
  if (dwarf_global_formref(a, &off, NULL) == DW_DLV_OK && dwarf_offdie_b(dbg, off, 1, &origin, NULL) == DW_DLV_OK) {
    ok = name_of(dbg, origin, out, cap, depth + 1);
    dwarf_dealloc(dbg, origin, DW_DLA_DIE);
  }
  dwarf_dealloc(dbg, a, DW_DLA_ATTR);
  return ok;
}

static void visit(void *arg, Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half tag) {
  Collect *c = arg;
  if (tag != DW_TAG_inlined_subroutine) return;
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->v = realloc(c->v, c->cap * sizeof *c->v);
    if (!c->v) abort();
  }
  Inl *i = &c->v[c->n++];
  memset(i, 0, sizeof *i);
  i->id = c->in->ndies; /* kit_di__read numbers this DIE's ranges next */
  if (!name_of(dbg, die, i->name, sizeof i->name, 0)) snprintf(i->name, sizeof i->name, "?");
  Dwarf_Attribute a;
  Dwarf_Unsigned line;
  if (dwarf_attr(die, DW_AT_call_line, &a, NULL) == DW_DLV_OK) {
    if (dwarf_formudata(a, &line, NULL) == DW_DLV_OK) i->call_line = (unsigned)line;
    dwarf_dealloc(dbg, a, DW_DLA_ATTR);
  }
}

long kit_debuginfo_inlined(const char *elf, uint64_t lo, uint64_t hi,
                           void (*cb)(void *user, const char *name, unsigned call_line, uint64_t lo, uint64_t hi),
                           void *user) {
  Info in = {0};
  Collect c = {.in = &in};
  if (kit_di__read(elf, NULL, &in, visit, &c) < 0) return -1;
  long n = 0;
  for (size_t k = 0; k < c.n; k++) {
    bool any = false;
    for (size_t b = 0; b < in.nblocks; b++) {
      const Block *bl = &in.blocks[b];
      if (bl->id != c.v[k].id || bl->hi <= lo || bl->lo >= hi) continue;
      cb(user, c.v[k].name, c.v[k].call_line, bl->lo, bl->hi);
      any = true;
    }
    n += any;
  }
  free(c.v);
  free(in.rows);
  free(in.blocks);
  return n;
}
