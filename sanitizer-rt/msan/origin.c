/* origin.c — MemorySanitizer's origins (-fsanitize-memory-track-origins): a
 * 4-byte id per 4-byte granule of program memory at (addr ^ 0x500000000000) +
 * 0x100000000000 (clang's x86-64 layout), naming where an uninitialized value
 * was made: a heap allocation or deallocation (its stack in the core's depot),
 * a stack object ("x@f" and the pc that poisoned it), or, at level 2, a store
 * of an uninitialized value (its stack and the origin before it); the lines a
 * report prints after its stack. */
#include "msan_rt.h"
#include <string.h>
#include <sys/mman.h>

/* the id's top 3 bits say what its low 29 bits index */
enum { KIND_SHIFT = 29, KIND_HEAP = 1, KIND_FREED = 2, KIND_STACK = 3, KIND_CHAINED = 4 };
#define INDEX_MASK ((1u << KIND_SHIFT) - 1)
#define MAX_STACK_ORIGINS (1u << 20)
#define MAX_CHAINED (1u << 22)
#define CHAIN_BUCKETS (1u << 20)
#define HISTORY_DEPTH 16 /* clang's origin_history_size */

int msan_origin_level;

/* the compiler's definition (weak_odr in clang's modules) says whether origins
 * are tracked; a program without it has none */
extern const int __msan_track_origins __attribute__((weak));

static const char *stack_descr[MAX_STACK_ORIGINS];
static uintptr_t stack_pc[MAX_STACK_ORIGINS];
static uint32_t nstack;

typedef struct Chained {
  uint32_t stack, prev, depth, next;
} Chained;
static Chained *chained;
static uint32_t *chain_buckets;
static uint32_t nchained;
static int chain_lock;

static void *map(size_t n) {
  void *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void msan_origin_init(void) {
  if (&__msan_track_origins) msan_origin_level = __msan_track_origins;
  if (msan_origin_level > 1) {
    chained = map(MAX_CHAINED * sizeof *chained);
    chain_buckets = map(CHAIN_BUCKETS * sizeof *chain_buckets);
    if (!chained || !chain_buckets) msan_origin_level = 1;
  }
}

static inline uint32_t kind(uint32_t id) { return id >> KIND_SHIFT; }
static inline uint32_t make(uint32_t k, uint32_t index) { return k << KIND_SHIFT | (index & INDEX_MASK); }

static inline uint32_t *origin_at(const void *p) {
  return (uint32_t *)((((uintptr_t)p ^ MSAN_SHADOW_XOR) + MSAN_ORIGIN_ADD) & ~3ull);
}

uint32_t msan_origin_of(const void *p) { return msan_origin_level ? *origin_at(p) : 0; }

void msan_set_origin(const void *p, size_t n, uint32_t id) {
  if (!n || !msan_origin_level || !msan_ready()) return;
  uint32_t *o = origin_at(p), *e = origin_at((const char *)p + n - 1);
  while (o <= e) *o++ = id;
}

__attribute__((noinline)) uintptr_t msan_here(void) { return (uintptr_t)__builtin_return_address(0) - 1; }

/* frames: here (a pc inside the runtime function), then its caller's stack */
static uint32_t stack_id(uintptr_t here, uintptr_t pc, uintptr_t bp) {
  uintptr_t f[KIT_SAN_MAX_FRAMES];
  size_t lim = kit_san_opts.malloc_context_size > 0 ? (size_t)kit_san_opts.malloc_context_size : 1;
  if (lim > KIT_SAN_MAX_FRAMES) lim = KIT_SAN_MAX_FRAMES;
  f[0] = here;
  size_t n = lim > 1 ? 1 + kit_san_unwind(pc, bp, f + 1, lim - 1) : 1;
  return kit_san_depot_put(f, n);
}

uint32_t msan_heap_origin(uintptr_t here, uintptr_t pc, uintptr_t bp, bool freed) {
  return make(freed ? KIND_FREED : KIND_HEAP, stack_id(here, pc, bp));
}

/* Level 2: the origin of a value stored at the given stack, chained to the one it
 * had; (stack, prev) pairs are kept once, chains stop growing at HISTORY_DEPTH. */
static uint32_t chain(uint32_t prev, uint32_t stack) {
  if (!prev || msan_origin_level < 2 || !stack) return prev;
  uint32_t depth = kind(prev) == KIND_CHAINED ? chained[prev & INDEX_MASK].depth + 1 : 1;
  if (depth >= HISTORY_DEPTH) return prev;
  while (__atomic_exchange_n(&chain_lock, 1, __ATOMIC_ACQUIRE))
    ;
  uint32_t h = (stack * 0x9e3779b1u ^ prev * 0x85ebca6bu) & (CHAIN_BUCKETS - 1), id = prev;
  uint32_t i = chain_buckets[h];
  while (i && !(chained[i].stack == stack && chained[i].prev == prev)) i = chained[i].next;
  if (!i && nchained + 1 < MAX_CHAINED) {
    i = ++nchained;
    chained[i] = (Chained){stack, prev, depth, chain_buckets[h]};
    chain_buckets[h] = i;
  }
  if (i) id = make(KIND_CHAINED, i);
  __atomic_store_n(&chain_lock, 0, __ATOMIC_RELEASE);
  return id;
}

/* Shadow already copied: each destination granule with an uninitialized byte
 * takes the origin of the source byte at its offset (level 2: chained to the
 * copy's stack, here/pc/bp, taken when first needed; here 0: no chain). */
/* some byte of [p, p+n) uninitialized: words at a time */
static bool any_poisoned(const void *p, size_t n) {
  const uint8_t *s = msan_shadow(p), *e = s + n;
  while (s < e && ((uintptr_t)s & 7)) if (*s++) return true;
  for (; s + 8 <= e; s += 8) if (*(const uint64_t *)s) return true;
  while (s < e) if (*s++) return true;
  return false;
}

void msan_copy_origin(void *dst, const void *src, size_t n, uintptr_t here, uintptr_t pc, uintptr_t bp) {
  if (!n || !msan_origin_level || !msan_ready() || !any_poisoned(dst, n)) return;
  uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
  uintptr_t first = d & ~3ull, last = (d + n - 1) & ~3ull;
  bool backward = d > s && d < s + n;
  uint32_t stack = 0, last_prev = 0, last_id = 0;
  for (uintptr_t k = 0; k <= (last - first) / 4; k++) {
    uintptr_t g = backward ? last - 4 * k : first + 4 * k;
    uintptr_t lo = g < d ? d : g, hi = g + 4 > d + n ? d + n : g + 4;
    bool poisoned = false;
    for (uintptr_t b = lo; b < hi; b++) poisoned |= *msan_shadow((void *)b) != 0;
    if (!poisoned) continue;
    uint32_t o = *origin_at((void *)(s + (lo - d)));
    if (msan_origin_level > 1 && o && here) {
      if (o != last_prev) {
        if (!stack) stack = stack_id(here, pc, bp);
        last_prev = o;
        last_id = chain(o, stack);
      }
      o = last_id;
    }
    *origin_at((void *)g) = o;
  }
}

/* the instrumented code's interface (clang's names where clang has one) */

/* a stack object's origin: descr is "----x@f", its first 4 bytes keep the id
 * (clang's scheme); the pc is the call's, at the object's declaration */
uint32_t __kit_msan_stack_origin(char *descr) {
  uint32_t id = *(volatile uint32_t *)descr; /* 4-aligned: the pass made it so */
  if (id != 0x2d2d2d2d) return id;
  uint32_t i = __atomic_fetch_add(&nstack, 1, __ATOMIC_RELAXED);
  if (i >= MAX_STACK_ORIGINS) return 0;
  stack_descr[i] = descr + 4;
  stack_pc[i] = (uintptr_t)__builtin_return_address(0) - 1;
  id = make(KIND_STACK, i);
  *(volatile uint32_t *)descr = id;
  return id;
}

void __msan_set_origin(const volatile void *a, size_t size, uint32_t origin) {
  msan_set_origin((const void *)a, size, origin);
}

uint32_t __msan_get_origin(const volatile void *a) { return msan_origin_of((const void *)a); }

int __msan_get_track_origins(void) { return msan_origin_level; }

/* a struct copy the pass made inline, whose shadow has a set bit: the
 * origins (chain: level 2's link, not for a copy into a stack object clang's
 * optimiser promotes) */
void __kit_msan_copy_origin(void *dst, const void *src, size_t n, int chain) {
  if (chain)
    msan_copy_origin(dst, src, n, msan_here(), MSAN_CALLER_PC(), MSAN_CALLER_BP());
  else
    msan_copy_origin(dst, src, n, 0, 0, 0);
}

/* level 2, at a store of an uninitialized value */
uint32_t __msan_chain_origin(uint32_t id) {
  if (!id || msan_origin_level < 2 || kit_san_in_report) return id;
  uintptr_t f[KIT_SAN_MAX_FRAMES];
  size_t lim = kit_san_opts.malloc_context_size > 0 ? (size_t)kit_san_opts.malloc_context_size : 1;
  size_t n = kit_san_unwind(MSAN_CALLER_PC(), MSAN_CALLER_BP(), f, lim < KIT_SAN_MAX_FRAMES ? lim : KIT_SAN_MAX_FRAMES);
  return chain(id, kit_san_depot_put(f, n));
}

/* ---- the report's lines ---- */

static void describe_stack_object(uint32_t i) {
  const char *d = i < nstack ? stack_descr[i] : NULL;
  const char *at = d ? strchr(d, '@') : NULL;
  if (!at)
    kit_san_printf("  Uninitialized value was created in the stack frame\n");
  else
    kit_san_printf("  Uninitialized value was created by an allocation of '%.*s' in the stack frame\n", (int)(at - d), d);
  if (i < nstack && stack_pc[i]) kit_san_print_stack(&stack_pc[i], 1);
}

void msan_describe_origin(uint32_t id) {
  for (uint32_t hops = 0; kind(id) == KIND_CHAINED && hops < HISTORY_DEPTH + 1; hops++) {
    const Chained *c = &chained[id & INDEX_MASK];
    kit_san_printf("  Uninitialized value was stored to memory at\n");
    kit_san_print_stack_id(c->stack);
    id = c->prev;
  }
  switch (kind(id)) {
  case KIND_STACK:
    describe_stack_object(id & INDEX_MASK);
    return;
  case KIND_HEAP:
    kit_san_printf("  Uninitialized value was created by a heap allocation\n");
    break;
  case KIND_FREED:
    kit_san_printf("  Uninitialized value was created by a heap deallocation\n");
    break;
  default:
    kit_san_printf("  Uninitialized value was created\n");
    break;
  }
  kit_san_print_stack_id(id & INDEX_MASK);
}
