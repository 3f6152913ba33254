/* malloc.c — the malloc family, defined by the runtime so it replaces libc's in
 * the executable. Frame #0 names follow clang-16's runtime (__interceptor_malloc
 * with malloc as a weak alias; free under its own name). Works before init. */
#include "native.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

#define ALIAS(name, target) extern __typeof(target) name __attribute__((weak, alias(#target)))

static inline void ensure_init(void) {
  if (__builtin_expect(!kit_native_ready(), 0))
    kit_native_init();
}

/* Huge requests: NULL with allocator_may_return_null=1, else the reference's report. */
#define TOO_BIG(size)                                                          \
  do {                                                                         \
    if ((size) > KIT_SAN_MAX_ALLOC) {                                          \
      if (!kit_san_opts.allocator_may_return_null)                             \
        kit_san_report_too_big(KIT_HERE_PC() - 1, KIT_HERE_BP(), (size));      \
      errno = ENOMEM;                                                          \
      return NULL;                                                             \
    }                                                                          \
  } while (0)

static void *do_alloc(size_t size, size_t align, uint32_t stack, bool zero) {
  if (kit_san_in_report) {
    void *q = kit_native_internal_alloc(size, align, zero);
    if (!q)
      errno = ENOMEM;
    return q;
  }
  uintptr_t p = kit_san_alloc(size, align, stack, zero);
  if (!p)
    errno = ENOMEM;
  return (void *)p;
}

__attribute__((noinline)) void *__interceptor_malloc(size_t size) {
  ensure_init();
  TOO_BIG(size);
  void *p = do_alloc(size, 8, KIT_HERE_STACK(), false);
  kit_native_lsan_note_alloc((uintptr_t)p, (uintptr_t)__builtin_return_address(0));
  return p;
}
ALIAS(malloc, __interceptor_malloc);

__attribute__((noinline)) void free(void *p) {
  if (!p)
    return;
  if (kit_native_internal_owns(p)) {
    kit_native_internal_free(p);
    return;
  }
  ensure_init();
  uint32_t stack = KIT_HERE_STACK();
  KitSanFreeResult r = kit_san_free((uintptr_t)p, stack);
  if (r != KIT_FREE_OK)
    kit_san_report_free(KIT_HERE_PC() - 1, KIT_HERE_BP(), (uintptr_t)p, r);
}

__attribute__((noinline)) void cfree(void *p) { free(p); }

__attribute__((noinline)) void *__interceptor_calloc(size_t n, size_t size) {
  ensure_init();
  size_t total;
  if (__builtin_mul_overflow(n, size, &total)) {
    if (!kit_san_opts.allocator_may_return_null)
      kit_san_report_calloc_overflow(KIT_HERE_PC() - 1, KIT_HERE_BP(), n, size);
    errno = ENOMEM;
    return NULL;
  }
  TOO_BIG(total);
  void *p = do_alloc(total, 8, KIT_HERE_STACK(), true);
  kit_native_lsan_note_alloc((uintptr_t)p, (uintptr_t)__builtin_return_address(0));
  return p;
}
ALIAS(calloc, __interceptor_calloc);

static void *realloc_impl(void *p, size_t size, uint32_t stack, uintptr_t pc, uintptr_t bp) {
  if (!p)
    return do_alloc(size, 8, stack, false);
  if (kit_native_internal_owns(p))
    return kit_native_internal_realloc(p, size);
  if (size == 0) {
    KitSanFreeResult r = kit_san_free((uintptr_t)p, stack);
    if (r != KIT_FREE_OK)
      kit_san_report_free(pc, bp, (uintptr_t)p, r);
    return NULL;
  }
  size_t old = kit_san_alloc_usable_size((uintptr_t)p);
  if (!old && !kit_san_chunk_live_at((uintptr_t)p, NULL, NULL)) {
    KitSanChunkInfo c;
    bool freed = kit_san_chunk_find((uintptr_t)p, &c) && c.user_beg == (uintptr_t)p &&
                 c.state == KIT_CHUNK_QUARANTINED;
    kit_san_report_free(pc, bp, (uintptr_t)p, freed ? KIT_FREE_DOUBLE : KIT_FREE_BAD);
    return NULL;
  }
  void *n = do_alloc(size, 8, stack, false);
  if (!n)
    return NULL;
  memcpy(n, p, old < size ? old : size);
  kit_san_free((uintptr_t)p, stack);
  return n;
}

__attribute__((noinline)) void *__interceptor_realloc(void *p, size_t size) {
  ensure_init();
  TOO_BIG(size);
  void *n = realloc_impl(p, size, KIT_HERE_STACK(), KIT_HERE_PC() - 1, KIT_HERE_BP());
  kit_native_lsan_note_alloc((uintptr_t)n, (uintptr_t)__builtin_return_address(0));
  return n;
}
ALIAS(realloc, __interceptor_realloc);

__attribute__((noinline)) void *__interceptor_reallocarray(void *p, size_t n, size_t size) {
  ensure_init();
  size_t total;
  if (__builtin_mul_overflow(n, size, &total)) {
    errno = ENOMEM;
    return NULL;
  }
  return realloc_impl(p, total, KIT_HERE_STACK(), KIT_HERE_PC() - 1, KIT_HERE_BP());
}
ALIAS(reallocarray, __interceptor_reallocarray);

static bool pow2(size_t a) { return a && !(a & (a - 1)); }

__attribute__((noinline)) void *__interceptor_memalign(size_t align, size_t size) {
  ensure_init();
  if (!pow2(align)) {
    errno = EINVAL;
    return NULL;
  }
  void *p = do_alloc(size, align, KIT_HERE_STACK(), false);
  kit_native_lsan_note_alloc((uintptr_t)p, (uintptr_t)__builtin_return_address(0));
  return p;
}
ALIAS(memalign, __interceptor_memalign);

__attribute__((noinline)) void *__interceptor_aligned_alloc(size_t align, size_t size) {
  ensure_init();
  if (!pow2(align)) {
    errno = EINVAL;
    return NULL;
  }
  return do_alloc(size, align, KIT_HERE_STACK(), false);
}
ALIAS(aligned_alloc, __interceptor_aligned_alloc);

__attribute__((noinline)) int __interceptor_posix_memalign(void **out, size_t align, size_t size) {
  ensure_init();
  if (!pow2(align) || align % sizeof(void *))
    return EINVAL;
  void *p = do_alloc(size, align, KIT_HERE_STACK(), false);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}
ALIAS(posix_memalign, __interceptor_posix_memalign);

__attribute__((noinline)) void *__interceptor_valloc(size_t size) {
  ensure_init();
  return do_alloc(size, (size_t)getpagesize(), KIT_HERE_STACK(), false);
}
ALIAS(valloc, __interceptor_valloc);

__attribute__((noinline)) void *__interceptor_pvalloc(size_t size) {
  ensure_init();
  size_t pg = (size_t)getpagesize();
  size = size ? (size + pg - 1) & ~(pg - 1) : pg;
  return do_alloc(size, pg, KIT_HERE_STACK(), false);
}
ALIAS(pvalloc, __interceptor_pvalloc);

__attribute__((noinline)) size_t __interceptor_malloc_usable_size(void *p) {
  if (!p)
    return 0;
  if (kit_native_internal_owns(p))
    return kit_native_internal_usable_size(p);
  ensure_init();
  return kit_san_alloc_usable_size((uintptr_t)p);
}
ALIAS(malloc_usable_size, __interceptor_malloc_usable_size);
