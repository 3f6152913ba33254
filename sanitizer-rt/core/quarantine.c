/* quarantine.c — a FIFO of freed chunks bounded by bytes (quarantine_size_mb):
 * freed memory stays poisoned here so use-after-free is caught until evicted. */
#include "san_core.h"
#include <string.h>
#include <sys/mman.h>

void kit_san_quarantine_init(KitSanQuarantine *q, size_t max_bytes) {
  memset(q, 0, sizeof *q);
  q->max_bytes = max_bytes;
}

static bool grow(KitSanQuarantine *q) {
  size_t ncap = q->cap ? q->cap * 2 : 1024;
  uintptr_t *ni = mmap(0, ncap * sizeof *ni, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  size_t *ns = mmap(0, ncap * sizeof *ns, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (ni == MAP_FAILED || ns == MAP_FAILED)
    return false;
  for (size_t i = 0; i < q->len; i++) {
    ni[i] = q->items[(q->head + i) % q->cap];
    ns[i] = q->sizes[(q->head + i) % q->cap];
  }
  if (q->cap) {
    munmap(q->items, q->cap * sizeof *ni);
    munmap(q->sizes, q->cap * sizeof *ns);
  }
  q->items = ni;
  q->sizes = ns;
  q->cap = ncap;
  q->head = 0;
  return true;
}

static void pop(KitSanQuarantine *q, void (*evict)(uintptr_t, void *), void *ctx) {
  uintptr_t it = q->items[q->head];
  q->bytes -= q->sizes[q->head];
  q->head = (q->head + 1) % q->cap;
  q->len--;
  evict(it, ctx);
}

void kit_san_quarantine_push(KitSanQuarantine *q, uintptr_t item, size_t bytes,
                             void (*evict)(uintptr_t, void *), void *ctx) {
  if (q->max_bytes == 0 || bytes > q->max_bytes) {
    evict(item, ctx);
    return;
  }
  if (q->len == q->cap && !grow(q)) {
    evict(item, ctx);
    return;
  }
  q->items[(q->head + q->len) % q->cap] = item;
  q->sizes[(q->head + q->len) % q->cap] = bytes;
  q->len++;
  q->bytes += bytes;
  while (q->bytes > q->max_bytes && q->len)
    pop(q, evict, ctx);
}

void kit_san_quarantine_drain(KitSanQuarantine *q, void (*evict)(uintptr_t, void *),
                              void *ctx) {
  while (q->len)
    pop(q, evict, ctx);
}
