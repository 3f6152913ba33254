/* lsan.c — LeakSanitizer at guest exit: the roots the emulator hands in (the
 * writable segments of the loaded ELF files, the guest stack from sp up, brk,
 * and the guest registers) are scanned for guest pointers into live chunks;
 * unreached chunks are direct leaks, those reached only from leaks indirect.
 * The report's layout is the native one's. */
#include "guest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { UNSEEN = 0, REACHABLE = 1, INDIRECT = 2 };

typedef struct {
  uintptr_t *v;
  size_t n, cap;
} Vec;

static void push(Vec *s, uintptr_t x) {
  if (s->n == s->cap) {
    size_t ncap = s->cap ? s->cap * 2 : 4096;
    uintptr_t *v = realloc(s->v, ncap * sizeof *v);
    if (!v)
      return;
    s->v = v;
    s->cap = ncap;
  }
  s->v[s->n++] = x;
}

static void mark_word(uint64_t v, uint8_t mark, Vec *work) {
  if (v < 4096)
    return;
  uintptr_t c = kit_san_chunk_live_at(v, NULL, NULL);
  if (!c)
    return;
  uint8_t *t = kit_san_chunk_tag(c);
  if (*t == UNSEEN) {
    *t = mark;
    push(work, c);
  }
}

/* guest range [beg, end): only pages the guest can read */
static void scan(uintptr_t beg, uintptr_t end, uint8_t mark, Vec *work) {
  beg = (beg + 7) & ~7UL;
  uintptr_t delta = kit_guest_delta();
  for (uintptr_t pg = beg; pg < end;) {
    uintptr_t pend = ((pg | 4095) + 1) < end ? (pg | 4095) + 1 : end;
    if (kit_guest_accessible(pg, pend - pg, false))
      for (uintptr_t p = pg; p + 8 <= pend; p += 8)
        mark_word(*(uint64_t *)(p + delta), mark, work);
    pg = pend;
  }
}

static void flood(Vec *work, uint8_t mark) {
  while (work->n) {
    uintptr_t c = work->v[--work->n];
    size_t size;
    kit_san_chunk_live_at(c, &size, NULL);
    scan(c, c + size, mark, work);
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
    scan(u, u + size, REACHABLE, ctx);
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

int kit_guest_lsan_check(const KitGuestRange *roots, size_t nroots, const uint64_t *regs, size_t nregs) {
  Vec work = {0}, leaked = {0};
  kit_san_alloc_foreach_live(clear_tag, NULL);
  for (size_t i = 0; i < nregs; i++)
    mark_word(regs[i], REACHABLE, &work);
  for (size_t i = 0; i < nroots; i++)
    scan(roots[i].beg, roots[i].end, REACHABLE, &work);
  kit_san_alloc_foreach_live(scan_ignored, &work);
  flood(&work, REACHABLE);
  kit_san_alloc_foreach_live(collect, &leaked);
  for (size_t i = 0; i < leaked.n; i++) {
    uintptr_t c = leaked.v[i];
    uint8_t t = *kit_san_chunk_tag(c);
    if (t != UNSEEN && t != INDIRECT)
      continue;
    size_t size;
    kit_san_chunk_live_at(c, &size, NULL);
    scan(c, c + size, INDIRECT, &work);
    flood(&work, INDIRECT);
  }
  Leak *leaks = leaked.n ? calloc(leaked.n, sizeof *leaks) : NULL;
  size_t nl = 0, total = 0, objs = 0;
  for (size_t i = 0; leaks && i < leaked.n; i++) {
    uintptr_t c = leaked.v[i];
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
    kit_san_printf("SUMMARY: AddressSanitizer: %zu byte(s) leaked in %zu allocation(s).\n", total, objs);
    kit_san_report_end(false);
  }
  free(leaks);
  free(work.v);
  free(leaked.v);
  return (int)objs;
}
