/* lsan.c — LeakSanitizer's marking and its report, for both modes: the glue's
 * roots callback scans its roots (natively globals, TLS, thread stacks and
 * registers; under the emulator the guest's data/bss, stack, brk and registers)
 * through kit_san_lsan_scan/kit_san_lsan_word; chunks reached from them (and
 * from ignored chunks) are live, the rest are direct leaks, or indirect ones
 * when only leaks reach them. The report layout is the reference's. */
#define _GNU_SOURCE
#include "san_core.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { UNSEEN = 0, REACHABLE = 1, INDIRECT = 2 };

typedef struct {
  uintptr_t *v;
  size_t n, cap;
} Vec;

struct KitSanLsan {
  const KitSanLsanRoots *r;
  Vec work;
  uint8_t mark;
};

/* mmap, not malloc: natively malloc is the program's, checked here */
static bool push(Vec *s, uintptr_t x) {
  if (s->n == s->cap) {
    size_t ncap = s->cap ? s->cap * 2 : 4096;
    void *p = s->v ? mremap(s->v, s->cap * sizeof *s->v, ncap * sizeof *s->v, MREMAP_MAYMOVE)
                   : mmap(0, ncap * sizeof *s->v, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      return false;
    s->v = p;
    s->cap = ncap;
  }
  s->v[s->n++] = x;
  return true;
}

static void vfree(Vec *s) {
  if (s->v)
    munmap(s->v, s->cap * sizeof *s->v);
  memset(s, 0, sizeof *s);
}

/* A word that points into a live chunk (interior pointers count) marks it. */
void kit_san_lsan_word(KitSanLsan *l, uint64_t v) {
  if (v < 4096)
    return;
  uintptr_t c = kit_san_chunk_live_at((uintptr_t)v, NULL, NULL);
  if (!c)
    return;
  uint8_t *t = kit_san_chunk_tag(c);
  if (*t == UNSEEN) {
    *t = l->mark;
    push(&l->work, c);
  }
}

static void scan_host(KitSanLsan *l, const uint64_t *p, size_t words) {
  for (size_t i = 0; i < words; i++)
    kit_san_lsan_word(l, p[i]);
}

void kit_san_lsan_scan(KitSanLsan *l, uintptr_t beg, uintptr_t end) {
  beg = (beg + 7) & ~(uintptr_t)7;
  if (beg >= end)
    return;
  if (!l->r->view) {
    scan_host(l, (const uint64_t *)beg, (end - beg) / 8);
    return;
  }
  /* page by page: the glue says which pages can be read */
  for (uintptr_t pg = beg; pg < end;) {
    uintptr_t pend = (pg | 4095) + 1 < end ? (pg | 4095) + 1 : end;
    const uint64_t *h = l->r->view(pg, pend - pg, l->r->ctx);
    if (h)
      scan_host(l, h, (pend - pg) / 8);
    pg = pend;
  }
}

static void flood(KitSanLsan *l) {
  while (l->work.n) {
    uintptr_t c = l->work.v[--l->work.n];
    size_t size;
    kit_san_chunk_live_at(c, &size, NULL);
    kit_san_lsan_scan(l, c, c + size);
  }
}

static void clear_tag(uintptr_t u, size_t size, uint32_t stack, void *ctx) {
  (void)size, (void)stack, (void)ctx;
  uint8_t *t = kit_san_chunk_tag(u);
  if (*t != KIT_SAN_LSAN_IGNORED)
    *t = UNSEEN;
}

static void scan_ignored(uintptr_t u, size_t size, uint32_t stack, void *ctx) {
  (void)stack;
  if (*kit_san_chunk_tag(u) == KIT_SAN_LSAN_IGNORED)
    kit_san_lsan_scan(ctx, u, u + size);
}

static void collect(uintptr_t u, size_t size, uint32_t stack, void *ctx) {
  (void)size, (void)stack;
  if (*kit_san_chunk_tag(u) == UNSEEN)
    push(ctx, u);
}

typedef struct {
  uint32_t stack;
  bool indirect;
  size_t bytes, count;
} Leak;

static int cmp_leak(const void *a, const void *b) {
  const Leak *x = a, *y = b;
  if (x->indirect != y->indirect)
    return x->indirect ? 1 : -1;
  return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : 0;
}

/* Groups the leaked chunks by allocation stack and kind, largest first;
 * prints the report; returns the number of leaked allocations. */
static int report(const Vec *leaked) {
  Leak *leaks = leaked->n ? mmap(0, leaked->n * sizeof *leaks, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
  size_t nl = 0, total = 0, objs = 0;
  for (size_t i = 0; leaks && leaks != MAP_FAILED && i < leaked->n; i++) {
    uintptr_t c = leaked->v[i];
    uint8_t t = *kit_san_chunk_tag(c);
    if (t != UNSEEN && t != INDIRECT)
      continue;
    size_t size;
    uint32_t stack;
    kit_san_chunk_live_at(c, &size, &stack);
    bool ind = t == INDIRECT;
    size_t j = 0;
    while (j < nl && !(leaks[j].stack == stack && leaks[j].indirect == ind))
      j++;
    if (j == nl)
      leaks[nl++] = (Leak){stack, ind, 0, 0};
    leaks[j].bytes += size;
    leaks[j].count++;
    total += size;
    objs++;
  }
  if (nl) {
    qsort(leaks, nl, sizeof *leaks, cmp_leak);
    kit_san_printf("\n");
    kit_san_report_begin();
    kit_san_printf("==%d==ERROR: LeakSanitizer: detected memory leaks\n\n", kit_san_pid());
    for (size_t j = 0; j < nl; j++) {
      kit_san_printf("%s leak of %zu byte(s) in %zu object(s) allocated from:\n",
                     leaks[j].indirect ? "Indirect" : "Direct", leaks[j].bytes, leaks[j].count);
      kit_san_print_stack_id(leaks[j].stack);
    }
    kit_san_printf("SUMMARY: AddressSanitizer: %zu byte(s) leaked in %zu allocation(s).\n",
                   total, objs);
    kit_san_report_end(false);
  }
  if (leaks && leaks != MAP_FAILED)
    munmap(leaks, leaked->n * sizeof *leaks);
  return (int)objs;
}

int kit_san_lsan_check(const KitSanLsanRoots *r) {
  KitSanLsan l = {.r = r, .mark = REACHABLE};
  Vec leaked = {0};
  kit_san_alloc_foreach_live(clear_tag, NULL);
  r->roots(&l, r->ctx);
  kit_san_alloc_foreach_live(scan_ignored, &l);
  flood(&l);
  kit_san_alloc_foreach_live(collect, &leaked);
  /* what leaked chunks reach (and nothing live does) is an indirect leak */
  l.mark = INDIRECT;
  for (size_t i = 0; i < leaked.n; i++) {
    uintptr_t c = leaked.v[i];
    if (*kit_san_chunk_tag(c) != UNSEEN && *kit_san_chunk_tag(c) != INDIRECT)
      continue;
    size_t size;
    kit_san_chunk_live_at(c, &size, NULL);
    kit_san_lsan_scan(&l, c, c + size);
    flood(&l);
  }
  int objs = report(&leaked);
  vfree(&l.work);
  vfree(&leaked);
  return objs;
}
