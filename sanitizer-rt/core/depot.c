/* depot.c — the stack depot: deduplicated call stacks, each named by a 32-bit
 * id that chunk headers store. Append-only storage from internal mmap. */
#include "san_core.h"
#include <string.h>
#include <sys/mman.h>

#define BUCKETS (1u << 16)
#define ARENA_WORDS (1u << 20)

typedef struct {
  uint32_t next; /* id of next entry in bucket chain */
  uint32_t hash;
  uint32_t n;
  uint32_t pad;
  uintptr_t frames[];
} Entry;

static uint32_t *buckets;

static Entry **index_tab;
static size_t index_cap, count;
static uintptr_t *arena_cur;
static size_t arena_left;

static void *imap(size_t n) {
  void *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static uint32_t hash_frames(const uintptr_t *f, size_t n) {
  uint64_t h = 1469598103934665603ULL ^ n;
  for (size_t i = 0; i < n; i++) {
    h ^= f[i];
    h *= 1099511628211ULL;
  }
  return (uint32_t)(h ^ (h >> 32));
}

/* Not memcmp: natively that is the runtime's own checking interceptor. */
static bool same_frames(const uintptr_t *a, const uintptr_t *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return false;
  return true;
}

static int lock;

static uint32_t put_locked(const uintptr_t *frames, size_t n);

uint32_t kit_san_depot_put(const uintptr_t *frames, size_t n) {
  if (!n)
    return 0;
  while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
    ;
  uint32_t id = put_locked(frames, n);
  __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
  return id;
}

static uint32_t put_locked(const uintptr_t *frames, size_t n) {
  if (!buckets && !(buckets = imap(BUCKETS * sizeof *buckets)))
    return 0;

  uint32_t h = hash_frames(frames, n);
  uint32_t *slot = &buckets[h & (BUCKETS - 1)];
  for (uint32_t id = *slot; id; id = index_tab[id - 1]->next) {
    Entry *e = index_tab[id - 1];
    if (e->hash == h && e->n == n && same_frames(e->frames, frames, n))
      return id;
  }
  size_t words = sizeof(Entry) / sizeof(uintptr_t) + n;
  if (arena_left < words) {
    if (!(arena_cur = imap(ARENA_WORDS * sizeof(uintptr_t))))
      return 0;
    arena_left = ARENA_WORDS;
  }
  if (count == index_cap) {
    size_t ncap = index_cap ? index_cap * 2 : 4096;
    Entry **ni = imap(ncap * sizeof *ni);
    if (!ni)
      return 0;
    if (index_tab) {
      memcpy(ni, index_tab, count * sizeof *ni);
      munmap(index_tab, index_cap * sizeof *ni);
    }
    index_tab = ni;
    index_cap = ncap;
  }
  Entry *e = (Entry *)arena_cur;
  arena_cur += words;
  arena_left -= words;
  e->hash = h;
  e->n = (uint32_t)n;
  memcpy(e->frames, frames, n * sizeof *frames);
  e->next = *slot;
  index_tab[count++] = e;
  *slot = (uint32_t)count;
  return (uint32_t)count;
}

size_t kit_san_depot_get(uint32_t id, const uintptr_t **frames) {
  if (!id || id > count) {
    *frames = NULL;
    return 0;
  }
  *frames = index_tab[id - 1]->frames;
  return index_tab[id - 1]->n;
}

size_t kit_san_depot_count(void) { return count; }
