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

/* "  '.str' is ascii string 'hey'" when the global holds exactly one
 * NUL-terminated ASCII string, as the reference adds. */
static void print_if_ascii(const KitSanGlobal *g) {
  const unsigned char *p = (const unsigned char *)kit_san_host(g->beg);
  if (!g->size || p[g->size - 1])
    return;
  for (size_t i = 0; i + 1 < g->size; i++)
    if (!p[i] || p[i] > 127)
      return;
  kit_san_printf("  '%s' is ascii string '%s'\n", g->name ? g->name : "?", (const char *)p);
}

static void describe_one(const KitSanGlobal *g, uintptr_t addr, size_t size) {
  uintptr_t end = g->beg + g->size;
  if (addr < g->beg) {
    kit_san_printf("0x%012lx is located %lu bytes before", (unsigned long)addr,
                   (unsigned long)(g->beg - addr));
  } else if (addr + size > end) {
    if (addr < end) /* a partial overflow is described from the global's end */
      addr = end;
    kit_san_printf("0x%012lx is located %lu bytes after", (unsigned long)addr,
                   (unsigned long)(addr - end));
  } else {
    kit_san_printf("0x%012lx is located %lu bytes inside of", (unsigned long)addr,
                   (unsigned long)(addr - g->beg));
  }
  kit_san_printf(" global variable '%s' defined in '", g->name ? g->name : "?");
  if (g->location && g->location->filename)
    kit_san_printf("%s:%d", g->location->filename, g->location->line_no);
  else
    kit_san_printf("%s", g->module_name ? g->module_name : "?");
  kit_san_printf("' (0x%012lx) of size %lu\n", (unsigned long)g->beg, (unsigned long)g->size);
  print_if_ascii(g);
}

/* Like the reference: every global the address is near (from 64 bytes before
 * it to the end of its redzone), the latest registered first, at most four. */
int kit_san_globals_describe(uintptr_t addr, size_t size) {
  int lines = 0;
  for (size_t i = ntab; i-- > 0 && lines < 4;) {
    const KitSanGlobal *g = &tab[i];
    if (addr + 64 > g->beg && addr < g->beg + g->size_with_redzone) {
      describe_one(g, addr, size ? size : 1);
      lines++;
    }
  }
  return lines;
}
