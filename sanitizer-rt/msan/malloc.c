/* malloc.c — the malloc family for MemorySanitizer: glibc's allocator
 * underneath (__libc_malloc ...), new memory poisoned, calloc's clean,
 * realloc's grown part poisoned and its kept part's shadow moved, freed
 * memory poisoned. Memory libc allocates for itself (strdup, getline, fopen,
 * setlocale) starts initialized: libc fills it without instrumentation.
 * With origins, poisoned memory gets the origin of its allocation's stack
 * (malloc as frame #0) or, freed, of the free's. */
#include "msan_rt.h"
#include <errno.h>
#include <malloc.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

/* [p, p+n) uninitialized, made by the allocation function whose pc is here,
 * called from the program's pc with frame pointer bp */
static void poison_new(void *p, size_t n, uintptr_t here, uintptr_t pc, uintptr_t bp, bool freed) {
  msan_poison(p, n);
  /* no stack to take under a report (the symbolizer's libraries) or from
   * libc (frames without frame pointers) */
  if (msan_origin_level && !kit_san_in_report && !msan_from_libc(pc))
    msan_set_origin(p, n, msan_heap_origin(here, pc, bp, freed));
}

#define POISON_NEW(p, n) poison_new(p, n, msan_here(), MSAN_CALLER_PC(), MSAN_CALLER_BP(), false)

static void fresh(void *p, uintptr_t here, uintptr_t pc, uintptr_t bp) {
  if (!p || !msan_ready()) return;
  size_t usable = malloc_usable_size(p);
  if (msan_from_libc(pc) || !msan_opts.poison_in_malloc || kit_san_in_report)
    msan_unpoison(p, usable);
  else
    poison_new(p, usable, here, pc, bp, false);
}

#define FRESH(p) fresh(p, msan_here(), MSAN_CALLER_PC(), MSAN_CALLER_BP())

void *malloc(size_t n) {
  void *p = __libc_malloc(n);
  FRESH(p);
  return p;
}

void *calloc(size_t n, size_t size) {
  void *p = __libc_calloc(n, size);
  if (p) msan_unpoison(p, malloc_usable_size(p));
  return p;
}

void *realloc(void *old, size_t n) {
  if (!old) {
    void *p = __libc_malloc(n);
    FRESH(p);
    return p;
  }
  size_t had = malloc_usable_size(old);
  void *p = __libc_realloc(old, n);
  if (!p || !msan_ready()) return p;
  size_t keep = had < n ? had : n;
  if (p != old) msan_copy_shadow(p, old, keep);
  size_t usable = malloc_usable_size(p);
  if (usable > keep) {
    if (msan_from_libc((uintptr_t)__builtin_return_address(0)))
      msan_unpoison((char *)p + keep, usable - keep);
    else
      POISON_NEW((char *)p + keep, usable - keep);
  }
  return p;
}

/* glibc's chunk header: bit 1 of the size word marks a chunk with its own mapping */
static bool own_mapping(const void *p) { return ((const size_t *)p)[-1] & 2; }

void free(void *p) {
  if (p) {
    /* a mapping of its own goes back to the kernel: whatever is mapped there next
     * (a thread's stack and TLS, the program's mmap) starts initialized */
    if (own_mapping(p))
      msan_unpoison(p, malloc_usable_size(p));
    else if (msan_opts.poison_in_free && msan_ready())
      poison_new(p, malloc_usable_size(p), msan_here(), MSAN_CALLER_PC(), MSAN_CALLER_BP(), true);
  }
  __libc_free(p);
}

void *memalign(size_t align, size_t n) {
  void *p = __libc_memalign(align, n);
  FRESH(p);
  return p;
}

void *aligned_alloc(size_t align, size_t n) {
  void *p = __libc_memalign(align, n);
  FRESH(p);
  return p;
}

int posix_memalign(void **out, size_t align, size_t n) {
  if (!align || (align & (align - 1)) || align % sizeof(void *)) return EINVAL;
  void *p = __libc_memalign(align, n);
  if (!p) return ENOMEM;
  FRESH(p);
  *out = p;
  msan_unpoison(out, sizeof *out);
  return 0;
}

void *valloc(size_t n) {
  void *p = __libc_memalign(4096, n);
  FRESH(p);
  return p;
}
