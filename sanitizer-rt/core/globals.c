/* globals.c — registered globals: their redzones in the shadow and the
 * "is located N bytes after global variable 'g' defined in 'f.c:3'" lines. */
#include "san_core.h"
#include <string.h>
#include <sys/mman.h>

static KitSanGlobal *tab;
static size_t ntab, cap;

void kit_san_globals_register(KitSanGlobal *g, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (ntab == cap) {
      size_t ncap = cap ? cap * 2 : 1024;
      KitSanGlobal *t = mmap(0, ncap * sizeof *t, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (t == MAP_FAILED)
        return;
      if (tab) {
        memcpy(t, tab, ntab * sizeof *t);
        munmap(tab, cap * sizeof *t);
      }
      tab = t;
      cap = ncap;
    }
    tab[ntab++] = g[i];
    uintptr_t beg = g[i].beg;
    size_t aligned = (g[i].size + 7) & ~7UL;
    kit_san_shadow_unpoison(beg, g[i].size);
    if (g[i].size_with_redzone > aligned)
      kit_san_shadow_set(beg + aligned, g[i].size_with_redzone - aligned, KIT_SAN_GLOBAL_RZ);
  }
}

void kit_san_globals_unregister(KitSanGlobal *g, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < ntab; j++) {
      if (tab[j].beg == g[i].beg) {
        kit_san_shadow_set(tab[j].beg, tab[j].size_with_redzone, 0);
        tab[j] = tab[--ntab];
        break;
      }
    }
  }
}

void __asan_register_globals(KitSanGlobal *globals, size_t n) {
  kit_san_globals_register(globals, n);
}
void __asan_unregister_globals(KitSanGlobal *globals, size_t n) {
  kit_san_globals_unregister(globals, n);
}

static void describe_one(const KitSanGlobal *g, uintptr_t addr) {
  uintptr_t end = g->beg + g->size;
  if (addr < g->beg)
    kit_san_printf("0x%012lx is located %lu bytes before", (unsigned long)addr,
                   (unsigned long)(g->beg - addr));
  else if (addr >= end)
    kit_san_printf("0x%012lx is located %lu bytes after", (unsigned long)addr,
                   (unsigned long)(addr - end));
  else
    kit_san_printf("0x%012lx is located %lu bytes inside of", (unsigned long)addr,
                   (unsigned long)(addr - g->beg));
  kit_san_printf(" global variable '%s' defined in '", g->name ? g->name : "?");
  if (g->location && g->location->filename)
    kit_san_printf("%s:%d", g->location->filename, g->location->line_no);
  else
    kit_san_printf("%s", g->module_name ? g->module_name : "?");
  kit_san_printf("' (0x%012lx) of size %lu\n", (unsigned long)g->beg, (unsigned long)g->size);
}

/* Like the reference, mention the global the address is in or next to, and a
 * global just after it when the access sits in the redzone between them. */
int kit_san_globals_describe(uintptr_t addr, size_t size) {
  (void)size;
  int lines = 0;
  const KitSanGlobal *in = NULL, *next = NULL;
  for (size_t i = 0; i < ntab; i++) {
    const KitSanGlobal *g = &tab[i];
    if (addr >= g->beg && addr < g->beg + g->size_with_redzone)
      in = g;
    else if (addr < g->beg && g->beg - addr <= 64 && (!next || g->beg < next->beg))
      next = g;
  }
  if (in && next && addr >= in->beg + in->size) {
    describe_one(next, addr);
    lines++;
  }
  if (in) {
    describe_one(in, addr);
    lines++;
  }
  return lines;
}
