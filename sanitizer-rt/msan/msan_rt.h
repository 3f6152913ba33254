/* msan_rt.h — what the MemorySanitizer runtime's files share: the shadow
 * (address ^ 0x500000000000, clang's x86-64 layout), its options, the report
 * of a use of uninitialized bytes, and how an interceptor finds libc's own. */
#ifndef KIT_MSAN_RT_H
#define KIT_MSAN_RT_H

#include "native.h"

#define MSAN_SHADOW_XOR 0x500000000000ULL
#define MSAN_ORIGIN_ADD 0x100000000000ULL /* origin of a: (shadow of a) + this, 4-aligned */

static inline uint8_t *msan_shadow(const void *p) { return (uint8_t *)((uintptr_t)p ^ MSAN_SHADOW_XOR); }

typedef struct MsanOptions {
  bool halt_on_error, print_stats, report_umrs, poison_in_malloc, poison_in_free, poison_heap_with_zeroes;
  int exit_code;
} MsanOptions;
extern MsanOptions msan_opts;

void msan_init(void);
bool msan_ready(void);
void msan_poison(const void *p, size_t n);
void msan_unpoison(const void *p, size_t n);
void msan_copy_shadow(void *dst, const void *src, size_t n);
/* offset of the first uninitialized byte of [p, p+n), or -1 */
long msan_first_poisoned(const void *p, size_t n);
/* A use of uninitialized bits in the caller (pc, its frame pointer bp);
 * origin: where they came from (origin.c), 0 = not known. */
void msan_report_umr(uintptr_t pc, uintptr_t bp, uint32_t origin);
/* An interceptor's check that libc reads only initialized bytes of [p, p+n). */
void msan_check_range(const char *fn, const void *p, size_t n, uintptr_t pc, uintptr_t bp);
/* true when the return address ra lies in libc itself (its own mallocs start initialized) */
bool msan_from_libc(uintptr_t ra);

/* origin.c: origins, when the program was compiled to track them
 * (msan_origin_level: -fsanitize-memory-track-origins=N, 0 = off) */
extern int msan_origin_level;
void msan_origin_init(void);
uint32_t msan_origin_of(const void *p);
void msan_set_origin(const void *p, size_t n, uint32_t id);
/* a pc inside the function that calls it: frame #0 of an origin's stack */
uintptr_t msan_here(void);
/* a heap (de)allocation's origin: frames here, then pc/bp's stack */
uint32_t msan_heap_origin(uintptr_t here, uintptr_t pc, uintptr_t bp, bool freed);
/* after the shadow of [src, src+n) was copied to dst: the origins too
 * (level 2 chains them to the stack here, pc, bp; here 0: no chain) */
void msan_copy_origin(void *dst, const void *src, size_t n, uintptr_t here, uintptr_t pc, uintptr_t bp);
/* the report's "Uninitialized value was created by ..." lines */
void msan_describe_origin(uint32_t id);

/* the instrumented caller of the runtime function this is used in */
#define MSAN_CALLER_PC() ((uintptr_t)__builtin_return_address(0) - 1)
#define MSAN_CALLER_BP() (*(uintptr_t *)__builtin_frame_address(0))
#define MSAN_CHECK(fn, p, n) msan_check_range(fn, p, n, MSAN_CALLER_PC(), MSAN_CALLER_BP())

/* libc's definition of an intercepted function, found once */
void *msan_real(const char *name);
static inline void *msan_real_cached(void **slot, const char *name) {
  if (!*slot) *slot = msan_real(name);
  return *slot;
}
#define REAL(type, name) ((type)msan_real_cached(&real_##name, #name))
#define DECLARE_REAL(name) static void *real_##name

#endif
