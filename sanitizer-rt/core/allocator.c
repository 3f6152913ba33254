/* allocator.c — the ASan heap: chunks with a left redzone that ends in a
 * 16-byte header (stack ids, size, state), power-of-two size-class slabs taken
 * from a page provider, right redzones from the neighbouring block, quarantine. */
#include "san_core.h"
#include <string.h>
#include <sys/mman.h>

#define MAGIC 0xCC6E96B9CC6E96B9ULL /* block begins with MAGIC, user ptr */
#define MIN_CLASS_LOG 5
#define MAX_CLASS_LOG 17
#define NCLASSES (MAX_CLASS_LOG - MIN_CLASS_LOG + 1)
#define SLAB_BYTES (1UL << 20)

typedef struct {
  uint32_t alloc_stack;
  uint32_t free_stack;
  uint64_t size : 40;
  uint64_t state : 2;
  uint64_t alloc_tid : 7; /* thread numbers saturate at 127 */
  uint64_t free_tid : 7;
  uint64_t lsan : 8;
} Header;
_Static_assert(sizeof(Header) == 16, "chunk header must fit the minimum redzone");

typedef struct {
  uintptr_t beg, end; /* [beg, end) of the slab */
  uintptr_t used_end; /* blocks below this have been handed out once */
  size_t block;
} Slab;

static KitSanPageProvider prov;
static Slab *slabs;
static size_t nslabs, slabs_cap;
static uintptr_t free_list[NCLASSES]; /* user ptr of first available chunk */
static int cur_slab[NCLASSES] = {[0 ... NCLASSES - 1] = -1};
static KitSanQuarantine quar;
static int lock;

static void lk(void) {
  while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
    ;
}
static void ulk(void) { __atomic_store_n(&lock, 0, __ATOMIC_RELEASE); }

uintptr_t kit_san_host(uintptr_t addr) { return addr + prov.host_delta; }
static Header *hdr(uintptr_t user) { return (Header *)kit_san_host(user - sizeof(Header)); }

void kit_san_alloc_init(const KitSanPageProvider *pages) {
  prov = *pages;
  kit_san_quarantine_init(&quar, (size_t)kit_san_opts.quarantine_size_mb << 20);
}

static unsigned sat_tid(void) {
  int t = kit_san_tid();
  return t < 0 ? 0 : t > 127 ? 127 : (unsigned)t;
}

static size_t rz_for(size_t size) {
  size_t rz = size <= 64 - 16 ? 16 : size <= 128 - 32 ? 32 : size <= 512 - 64 ? 64
            : size <= 4096 - 128 ? 128 : size <= (1 << 14) - 256 ? 256
            : size <= (1 << 15) - 512 ? 512 : size <= (1 << 16) - 1024 ? 1024 : 2048;
  size_t lo = kit_san_opts.redzone < 16 ? 16 : (size_t)kit_san_opts.redzone;
  size_t hi = kit_san_opts.max_redzone < 16 ? 16 : (size_t)kit_san_opts.max_redzone;
  if (rz < lo)
    rz = lo;
  if (rz > hi)
    rz = hi;
  /* Redzones are powers of two so user memory stays aligned within the block. */
  size_t p = 16;
  while (p < rz)
    p <<= 1;
  return p;
}

static int slab_index(uintptr_t addr) {
  size_t lo = 0, hi = nslabs;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (addr < slabs[mid].beg)
      hi = mid;
    else if (addr >= slabs[mid].end)
      lo = mid + 1;
    else
      return (int)mid;
  }
  return -1;
}

static int slab_add(uintptr_t beg, size_t bytes, size_t block) {
  if (nslabs == slabs_cap) {
    size_t ncap = slabs_cap ? slabs_cap * 2 : 256;
    Slab *n = mmap(0, ncap * sizeof *n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (n == MAP_FAILED)
      return -1;
    if (slabs) {
      memcpy(n, slabs, nslabs * sizeof *n);
      munmap(slabs, slabs_cap * sizeof *n);
    }
    slabs = n;
    slabs_cap = ncap;
  }
  size_t i = nslabs;
  while (i > 0 && slabs[i - 1].beg > beg) {
    slabs[i] = slabs[i - 1];
    i--;
  }
  slabs[i] = (Slab){beg, beg + bytes, beg, block};
  nslabs++;
  /* Slab positions shift: class cursors hold indices, so refresh them. */
  for (int c = 0; c < NCLASSES; c++)
    if (cur_slab[c] >= (int)i)
      cur_slab[c]++;
  kit_san_shadow_set(beg, bytes, KIT_SAN_HEAP_LEFT_RZ);
  return (int)i;
}

static void slab_remove(int i) {
  memmove(&slabs[i], &slabs[i + 1], (nslabs - i - 1) * sizeof *slabs);
  nslabs--;
  for (int c = 0; c < NCLASSES; c++)
    if (cur_slab[c] > i)
      cur_slab[c]--;
}

static uintptr_t block_user(uintptr_t block) {
  uint64_t *w = (uint64_t *)kit_san_host(block);
  return w[0] == MAGIC ? (uintptr_t)w[1] : block + sizeof(Header);
}

static uintptr_t take_block(int cls) {
  if (free_list[cls]) {
    uintptr_t user = free_list[cls];
    free_list[cls] = *(uintptr_t *)hdr(user);
    int si = slab_index(user);
    return si < 0 ? 0 : slabs[si].beg + (user - slabs[si].beg) / slabs[si].block * slabs[si].block;
  }
  size_t bs = 1UL << (cls + MIN_CLASS_LOG);
  int si = cur_slab[cls];
  if (si < 0 || slabs[si].used_end + bs > slabs[si].end) {
    size_t bytes = bs * 16 > SLAB_BYTES ? bs * 16 : SLAB_BYTES;
    /* One spare block at the end keeps the last block's right redzone. */
    uintptr_t beg = prov.map(prov.ctx, bytes + bs);
    if (!beg)
      return 0;
    si = slab_add(beg, bytes + bs, bs);
    if (si < 0)
      return 0;
    slabs[si].end = beg + bytes;
    cur_slab[cls] = si;
  }
  uintptr_t b = slabs[si].used_end;
  slabs[si].used_end += bs;
  return b;
}

uintptr_t kit_san_alloc(size_t size, size_t align, uint32_t stack, bool zero) {
  if (align < 8)
    align = 8;
  if (size == 0)
    size = 1; /* as the reference: malloc(0) is a 1-byte chunk (reports, leaks) */
  if (size >= KIT_SAN_MAX_ALLOC)
    return 0;
  size_t rz = rz_for(size);
  size_t rounded = (size + 7) & ~7UL;
  size_t need = rz + rounded + (align > rz ? align : 0);
  uintptr_t block;
  size_t bs;
  lk();
  if (need <= (1UL << MAX_CLASS_LOG)) {
    int cls = 0;
    while ((1UL << (cls + MIN_CLASS_LOG)) < need)
      cls++;
    bs = 1UL << (cls + MIN_CLASS_LOG);
    block = take_block(cls);
  } else {
    bs = (need + rz + 4095) & ~4095UL;
    block = prov.map(prov.ctx, bs);
    if (block && slab_add(block, bs, bs) < 0)
      block = 0;
    if (block)
      slabs[slab_index(block)].used_end = block + bs;
  }
  if (!block) {
    ulk();
    return 0;
  }
  uintptr_t user = (block + rz + align - 1) & ~(uintptr_t)(align - 1);
  if (user - block > sizeof(Header)) {
    uint64_t *w = (uint64_t *)kit_san_host(block);
    w[0] = MAGIC;
    w[1] = user;
  }
  Header *h = hdr(user);
  h->alloc_stack = stack;
  h->free_stack = 0;
  h->size = size;
  h->state = KIT_CHUNK_ALLOCATED;
  h->alloc_tid = sat_tid();
  h->free_tid = 0;
  h->lsan = kit_san_in_report ? KIT_SAN_LSAN_IGNORED : 0;
  kit_san_shadow_set(block, bs, KIT_SAN_HEAP_LEFT_RZ);
  kit_san_shadow_unpoison(user, size);
  ulk();
  void *hp = (void *)kit_san_host(user);
  if (zero) {
    memset(hp, 0, size);
  } else if (kit_san_opts.malloc_fill_byte >= 0 && kit_san_opts.max_malloc_fill_size > 0) {
    size_t n = size < (size_t)kit_san_opts.max_malloc_fill_size
                   ? size : (size_t)kit_san_opts.max_malloc_fill_size;
    memset(hp, kit_san_opts.malloc_fill_byte, n);
  }
  return user;
}

static void evict(uintptr_t user, void *ctx) {
  (void)ctx;
  int si = slab_index(user);
  if (si < 0)
    return;
  Slab *s = &slabs[si];
  uintptr_t block = s->beg + (user - s->beg) / s->block * s->block;
  Header *h = hdr(user);
  h->state = KIT_CHUNK_AVAILABLE;
  if (s->block > (1UL << MAX_CLASS_LOG)) {
    uintptr_t beg = s->beg;
    size_t bytes = s->end - s->beg;
    slab_remove(si);
    kit_san_shadow_set(beg, bytes, 0);
    prov.unmap(prov.ctx, beg, bytes);
    return;
  }
  kit_san_shadow_set(block, s->block, KIT_SAN_HEAP_LEFT_RZ);
  int cls = 0;
  while ((1UL << (cls + MIN_CLASS_LOG)) < s->block)
    cls++;
  *(uintptr_t *)h = free_list[cls];
  free_list[cls] = user;
}

static bool lookup(uintptr_t addr, uintptr_t *block, size_t *bs, uintptr_t *user) {
  int si = slab_index(addr);
  if (si < 0)
    return false;
  Slab *s = &slabs[si];
  if (addr >= s->used_end)
    return false;
  *bs = s->block;
  *block = s->beg + (addr - s->beg) / s->block * s->block;
  *user = block_user(*block);
  return true;
}

KitSanFreeResult kit_san_free(uintptr_t p, uint32_t stack) {
  uintptr_t block, user;
  size_t bs;
  lk();
  if (!lookup(p, &block, &bs, &user) || user != p) {
    ulk();
    return KIT_FREE_BAD;
  }
  Header *h = hdr(user);
  if (h->state == KIT_CHUNK_QUARANTINED) {
    ulk();
    return KIT_FREE_DOUBLE;
  }
  if (h->state != KIT_CHUNK_ALLOCATED) {
    ulk();
    return KIT_FREE_BAD;
  }
  h->state = KIT_CHUNK_QUARANTINED;
  h->free_stack = stack;
  h->free_tid = sat_tid();
  kit_san_shadow_set(user, h->size, KIT_SAN_FREED);
  quar.max_bytes = (size_t)kit_san_opts.quarantine_size_mb << 20;
  kit_san_quarantine_push(&quar, user, bs, evict, NULL);
  ulk();
  return KIT_FREE_OK;
}

size_t kit_san_alloc_usable_size(uintptr_t p) {
  uintptr_t block, user;
  size_t bs;
  if (!lookup(p, &block, &bs, &user) || user != p || hdr(user)->state != KIT_CHUNK_ALLOCATED)
    return 0;
  return hdr(user)->size;
}

static void fill_info(uintptr_t user, KitSanChunkInfo *out) {
  Header *h = hdr(user);
  out->user_beg = user;
  out->size = h->size;
  out->state = h->state;
  out->alloc_stack = h->alloc_stack;
  out->free_stack = h->state == KIT_CHUNK_QUARANTINED ? h->free_stack : 0;
  out->alloc_tid = h->alloc_tid;
  out->free_tid = h->free_tid;
}

bool kit_san_chunk_find(uintptr_t addr, KitSanChunkInfo *out) {
  uintptr_t block = 0, user = 0;
  size_t bs;
  bool have = lookup(addr, &block, &bs, &user) && hdr(user)->state != KIT_CHUNK_AVAILABLE;
  if (have && addr >= user) {
    fill_info(user, out);
    return true;
  }
  /* In a left redzone (or past a slab) the access may overflow the chunk before. */
  uintptr_t from = have ? block : addr, pb, pu;
  size_t pbs;
  bool prev = false;
  for (uintptr_t probe = from - 1; probe && from - probe <= 4096; probe -= 16) {
    if (lookup(probe, &pb, &pbs, &pu)) {
      prev = hdr(pu)->state != KIT_CHUNK_AVAILABLE;
      break;
    }
  }
  if (prev && have) {
    bool prev_alloc = hdr(pu)->state == KIT_CHUNK_ALLOCATED;
    bool cur_alloc = hdr(user)->state == KIT_CHUNK_ALLOCATED;
    size_t dist_prev = addr - (pu + hdr(pu)->size);
    size_t dist_cur = user - addr;
    if (!((prev_alloc && !cur_alloc) || (prev_alloc == cur_alloc && dist_prev < dist_cur)))
      prev = false;
  }
  if (prev) {
    fill_info(pu, out);
    return true;
  }
  if (!have)
    return false;
  fill_info(user, out);
  return true;
}

uintptr_t kit_san_chunk_live_at(uintptr_t addr, size_t *size, uint32_t *stack) {
  uintptr_t block, user;
  size_t bs;
  if (!lookup(addr, &block, &bs, &user))
    return 0;
  Header *h = hdr(user);
  if (h->state != KIT_CHUNK_ALLOCATED || addr < user || addr >= user + h->size)
    return 0;
  if (size)
    *size = h->size;
  if (stack)
    *stack = h->alloc_stack;
  return user;
}

/* The header's last byte is LSan's mark for the chunk. */
uint8_t *kit_san_chunk_tag(uintptr_t user) { return (uint8_t *)hdr(user) + 15; }

void kit_san_alloc_foreach_live(KitSanChunkVisit visit, void *ctx) {
  for (size_t i = 0; i < nslabs; i++) {
    Slab *s = &slabs[i];
    for (uintptr_t b = s->beg; b + s->block <= s->used_end; b += s->block) {
      uintptr_t u = block_user(b);
      Header *h = hdr(u);
      if (h->state == KIT_CHUNK_ALLOCATED)
        visit(u, h->size, h->alloc_stack, ctx);
    }
  }
}

size_t kit_san_alloc_quarantine_bytes(void) { return quar.bytes; }
