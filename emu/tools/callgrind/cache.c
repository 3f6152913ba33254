/* emu/tools/callgrind/cache.c — cachegrind's cache model: set-associative
 * caches with LRU replacement and write-allocate, I1 and D1 in front of a
 * unified LL; a miss in I1/D1 looks in LL. An access that straddles two lines
 * touches both and counts at most one miss per level, as cachegrind counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

struct KitCache {
  KitCacheGeom g;
  unsigned line_bits;
  uint64_t sets;
  uint64_t *tags; /* sets * assoc, most recently used first; 0 = empty (tags are block+1) */
};

static bool power_of_two(uint64_t x) { return x && !(x & (x - 1)); }

KitCache *kit_cache_new(KitCacheGeom g, char *err, size_t errsz) {
  if (!power_of_two(g.line) || g.line < 16 || g.assoc == 0 || g.size % ((uint64_t)g.line * g.assoc) ||
      !power_of_two(g.size / ((uint64_t)g.line * g.assoc))) {
    snprintf(err, errsz,
             "cache %llu,%u,%u: the line size must be a power of two of at least 16 and size/(line*assoc) a power of two",
             (unsigned long long)g.size, g.assoc, g.line);
    return NULL;
  }
  KitCache *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->g = g;
  while ((1u << c->line_bits) < g.line) c->line_bits++;
  c->sets = g.size / ((uint64_t)g.line * g.assoc);
  c->tags = calloc(c->sets * g.assoc, sizeof *c->tags);
  if (!c->tags) {
    free(c);
    return NULL;
  }
  return c;
}

void kit_cache_free(KitCache *c) {
  if (!c) return;
  free(c->tags);
  free(c);
}

int kit_cache_parse(const char *s, KitCacheGeom *g) {
  unsigned long long size;
  unsigned assoc, line;
  char tail;
  if (sscanf(s, "%llu,%u,%u%c", &size, &assoc, &line, &tail) != 3) return -1;
  *g = (KitCacheGeom){size, assoc, line};
  return 0;
}

/* one line (block number): true on a miss; the line becomes most recent */
static bool touch(KitCache *c, uint64_t block) {
  uint64_t tag = block + 1;
  uint64_t *set = &c->tags[(block & (c->sets - 1)) * c->g.assoc];
  unsigned w = 0;
  while (w < c->g.assoc && set[w] != tag) w++;
  bool miss = w == c->g.assoc;
  if (miss) w = c->g.assoc - 1; /* evict the least recently used */
  memmove(set + 1, set, w * sizeof *set);
  set[0] = tag;
  return miss;
}

/* a reference of size bytes at addr through l1 then ll */
static void ref(KitCache *l1, KitCache *ll, uint64_t addr, unsigned size, uint64_t *m1, uint64_t *ml) {
  uint64_t first = addr >> l1->line_bits, last = (addr + (size ? size - 1 : 0)) >> l1->line_bits;
  bool miss1 = false, missl = false;
  for (uint64_t b = first; b <= last && b - first < 2; b++) {
    if (!touch(l1, b)) continue;
    miss1 = true;
    /* LL's lines may be larger: look up the LL line holding this one */
    if (touch(ll, (b << l1->line_bits) >> ll->line_bits)) missl = true;
  }
  *m1 += miss1;
  *ml += missl;
}

void kit_cache_fetch(KitCacheSim *s, uint64_t addr, unsigned size, KitCacheCost *c) {
  c->ir++;
  ref(s->i1, s->ll, addr, size, &c->i1mr, &c->ilmr);
}

void kit_cache_read(KitCacheSim *s, uint64_t addr, unsigned size, KitCacheCost *c) {
  c->dr++;
  ref(s->d1, s->ll, addr, size, &c->d1mr, &c->dlmr);
}

void kit_cache_write(KitCacheSim *s, uint64_t addr, unsigned size, KitCacheCost *c) {
  c->dw++;
  ref(s->d1, s->ll, addr, size, &c->d1mw, &c->dlmw);
}
