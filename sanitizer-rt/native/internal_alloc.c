/* internal_alloc.c — the runtime's own heap. What the runtime allocates
 * through the malloc family while it runs (kit_san_in_report: reports, the
 * symbolizer's libelf and libdwarf) comes from here, never from the program's
 * checked heap, so no report can describe a chunk of the runtime's. One
 * reserved region, power-of-two size classes with free lists, a spinlock. */
#include "native.h"
#include <string.h>
#include <sys/mman.h>

#define REGION_SIZE (1ul << 30)
#define MIN_CLASS 5 /* 32-byte blocks: the 16-byte header and 16 bytes */
#define NCLASSES 31

typedef struct Header {
  uint32_t cls;   /* the block is 1 << cls bytes */
  uint32_t magic;
  char *block;    /* where the block starts (before an alignment gap) */
} Header;

#define MAGIC 0x6b69746du

static char *region;
static size_t region_used;
static void *free_list[NCLASSES];
static int lock;

static void acquire(void) {
  while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(&lock, __ATOMIC_RELAXED)) {}
}

static void release(void) { __atomic_store_n(&lock, 0, __ATOMIC_RELEASE); }

bool kit_native_internal_owns(const void *p) {
  char *r = __atomic_load_n(&region, __ATOMIC_ACQUIRE);
  return r && (const char *)p >= r && (const char *)p < r + REGION_SIZE;
}

/* a free block of class cls, or NULL when the region is used up; under the lock */
static char *take_block(unsigned cls) {
  if (free_list[cls]) {
    char *b = free_list[cls];
    free_list[cls] = *(void **)b;
    return b;
  }
  if (!region) {
    void *r = mmap(NULL, REGION_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED)
      return NULL;
    __atomic_store_n(&region, (char *)r, __ATOMIC_RELEASE);
  }
  size_t n = (size_t)1 << cls, a = n < 4096 ? n : 4096;
  size_t at = (region_used + a - 1) & ~(a - 1);
  if (at + n > REGION_SIZE)
    return NULL;
  region_used = at + n;
  return region + at;
}

void *kit_native_internal_alloc(size_t size, size_t align, bool zero) {
  if (align < 16)
    align = 16;
  size_t need = size + sizeof(Header) + (align > 16 ? align : 0);
  unsigned cls = MIN_CLASS;
  while (cls < NCLASSES && ((size_t)1 << cls) < need)
    cls++;
  if (cls >= NCLASSES || need < size)
    return NULL;
  acquire();
  char *b = take_block(cls);
  release();
  if (!b)
    return NULL;
  uintptr_t user = ((uintptr_t)b + sizeof(Header) + align - 1) & ~(uintptr_t)(align - 1);
  Header *h = (Header *)user - 1;
  h->cls = cls;
  h->magic = MAGIC;
  h->block = b;
  if (zero)
    memset((void *)user, 0, size);
  return (void *)user;
}

static Header *header_of(const void *p) {
  Header *h = (Header *)p - 1;
  return h->magic == MAGIC ? h : NULL;
}

size_t kit_native_internal_usable_size(const void *p) {
  Header *h = header_of(p);
  return h ? ((size_t)1 << h->cls) - (size_t)((const char *)p - h->block) : 0;
}

void kit_native_internal_free(void *p) {
  Header *h = header_of(p);
  if (!h)
    return;
  unsigned cls = h->cls;
  char *b = h->block;
  h->magic = 0;
  acquire();
  *(void **)b = free_list[cls]; /* may overwrite the header: read above */
  free_list[cls] = b;
  release();
}

void *kit_native_internal_realloc(void *p, size_t size) {
  void *n = kit_native_internal_alloc(size, 16, false);
  if (n && p) {
    size_t old = kit_native_internal_usable_size(p);
    memcpy(n, p, old < size ? old : size);
  }
  if (n && p)
    kit_native_internal_free(p);
  return n;
}
