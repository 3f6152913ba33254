/* stack.c — stack objects: reading the frame description the ASan pass leaves
 * at the frame's start ("N off size len name[:line] ..."), the "This frame has"
 * report section, and the fake stack behind detect_stack_use_after_return. */
#include "san_core.h"
#include <stdlib.h>
#include <string.h>

int __asan_option_detect_stack_use_after_return;

#define FAKE_CLASSES 11
#define FAKE_SLOTS 64
/* Each thread has its own fake stack (mapped on first use, per size class). A
 * slot remembers the real frame it serves: a frame left by longjmp never frees
 * its slot, so when a class is full the slots of frames at or below the
 * current real stack depth (dead ones) are taken back. */
static __thread uintptr_t fake_base[FAKE_CLASSES];
static __thread uint64_t fake_used[FAKE_CLASSES];
static __thread unsigned fake_next[FAKE_CLASSES];
static __thread uintptr_t fake_owner[FAKE_CLASSES][FAKE_SLOTS];
extern KitSanPageProvider *kit_san_fake_pages;

static size_t slot_size(int cls) { return 64UL << cls; }

static void fake_reclaim(int cls, uintptr_t depth) {
  for (unsigned i = 0; i < FAKE_SLOTS; i++)
    if ((fake_used[cls] & (1ULL << i)) && fake_owner[cls][i] <= depth)
      fake_used[cls] &= ~(1ULL << i);
}

static uintptr_t fake_alloc(int cls, size_t size, uintptr_t depth) {
  if (!__asan_option_detect_stack_use_after_return || size > slot_size(cls))
    return 0;
  if (!fake_base[cls]) {
    KitSanPageProvider *p = kit_san_fake_pages;
    if (!p || !(fake_base[cls] = p->map(p->ctx, slot_size(cls) * FAKE_SLOTS)))
      return 0;
  }
  if (!~fake_used[cls])
    fake_reclaim(cls, depth);
  uint64_t avail = ~fake_used[cls];
  if (!avail)
    return 0;
  /* the first free slot from the rotating hint on (freed frames stay
   * poisoned as long as possible) */
  unsigned from = fake_next[cls] % FAKE_SLOTS;
  uint64_t rot = from ? (avail >> from) | (avail << (FAKE_SLOTS - from)) : avail;
  unsigned i = (from + (unsigned)__builtin_ctzll(rot)) % FAKE_SLOTS;
  fake_used[cls] |= 1ULL << i;
  fake_owner[cls][i] = depth;
  fake_next[cls] = i + 1;
  /* no shadow work: the prologue writes the whole frame's shadow */
  return fake_base[cls] + i * slot_size(cls);
}

static void fake_free(int cls, uintptr_t ptr) {
  if (!fake_base[cls] || ptr < fake_base[cls])
    return;
  unsigned i = (unsigned)((ptr - fake_base[cls]) / slot_size(cls));
  if (i >= FAKE_SLOTS)
    return;
  fake_used[cls] &= ~(1ULL << i);
  kit_san_shadow_set(ptr, slot_size(cls), KIT_SAN_STACK_AFTER_RETURN);
}

static uintptr_t fake_frame_of(uintptr_t addr) {
  for (int c = 0; c < FAKE_CLASSES; c++) {
    uintptr_t b = fake_base[c];
    if (b && addr >= b && addr < b + slot_size(c) * FAKE_SLOTS)
      return b + (addr - b) / slot_size(c) * slot_size(c);
  }
  return 0;
}

bool kit_san_fake_stack_owns(uintptr_t addr) { return fake_frame_of(addr) != 0; }

void kit_san_fake_stack_foreach(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg) {
  for (int c = 0; c < FAKE_CLASSES; c++)
    for (unsigned i = 0; fake_base[c] && i < FAKE_SLOTS; i++)
      if (fake_used[c] & (1ULL << i)) {
        uintptr_t lo = fake_base[c] + i * slot_size(c);
        fn(lo, lo + slot_size(c), arg);
      }
}

#define FAKE_FN(n)                                                             \
  uintptr_t __asan_stack_malloc_##n(size_t size) {                             \
    return fake_alloc(n, size, (uintptr_t)__builtin_frame_address(0));         \
  }                                                                            \
  void __asan_stack_free_##n(uintptr_t ptr, size_t size) {                     \
    (void)size;                                                                \
    fake_free(n, ptr);                                                         \
  }
FAKE_FN(0)
FAKE_FN(1)
FAKE_FN(2)
FAKE_FN(3)
FAKE_FN(4)
FAKE_FN(5)
FAKE_FN(6)
FAKE_FN(7)
FAKE_FN(8)
FAKE_FN(9)
FAKE_FN(10)

/* A real frame starts at its left redzone: walk back over the frame's objects
 * and inner redzones to the f1 run, then to that run's first granule. */
static bool in_frame(uint8_t v) {
  return v < 8 || v == KIT_SAN_STACK_MID_RZ || v == KIT_SAN_STACK_RIGHT_RZ ||
         v == KIT_SAN_STACK_AFTER_RETURN || v == KIT_SAN_STACK_USE_AFTER_SCOPE ||
         v == KIT_SAN_ALLOCA_LEFT_RZ || v == KIT_SAN_ALLOCA_RIGHT_RZ;
}

static uintptr_t real_frame_of(uintptr_t addr) {
  uintptr_t p = addr & ~7UL;
  int steps = 0;
  /* Only shadow a frame can hold may lie between the address and its left redzone:
   * a heap or global redzone on the way means this is no stack address. */
  for (uint8_t v; (v = *kit_san_shadow(p)) != KIT_SAN_STACK_LEFT_RZ; p -= 8)
    if (++steps > 8192 || !in_frame(v))
      return 0;
  while (*kit_san_shadow(p - 8) == KIT_SAN_STACK_LEFT_RZ)
    p -= 8;
  return p;
}

typedef struct {
  unsigned long beg, size;
  char name[128];
  int line;
} StackVar;

static const char *parse_ul(const char *s, unsigned long *v) {
  char *end;
  *v = strtoul(s, &end, 10);
  return end == s ? NULL : end;
}

static void print_var(const StackVar *v, unsigned long off, size_t size, const StackVar *prev,
                      const StackVar *next) {
  unsigned long end = v->beg + v->size;
  const char *note = NULL;
  if (off >= v->beg && off < end)
    note = off + size > end ? "partially overflows" : "is inside";
  else if (off < v->beg && off + size > v->beg)
    note = "partially underflows";
  else if (off >= end && (!next || off < next->beg))
    note = "overflows";
  else if (off + size <= v->beg && (!prev || off >= prev->beg + prev->size))
    note = "underflows";
  kit_san_printf("    [%lu, %lu) '%s'", v->beg, end, v->name);
  if (v->line)
    kit_san_printf(" (line %d)", v->line);
  if (note)
    kit_san_printf(" <== Memory access at offset %lu %s this variable", off, note);
  kit_san_printf("\n");
}

bool kit_san_stack_describe(uintptr_t addr, size_t size) {
  /* Memory of a dynamic alloca (VLA, alloca()) lies below its function's frame:
   * the reference names the thread and no frame. */
  uint8_t v = *kit_san_shadow(addr);
  if (v < 8) /* a partially addressable granule: its neighbour says what this is */
    v = *kit_san_shadow(addr + 8);
  if (v == KIT_SAN_ALLOCA_LEFT_RZ || v == KIT_SAN_ALLOCA_RIGHT_RZ) {
    kit_san_printf("Address 0x%012lx is located in stack of thread T%d\n", (unsigned long)addr,
                   kit_san_tid());
    return true;
  }
  uintptr_t frame = fake_frame_of(addr);
  if (!frame)
    frame = real_frame_of(addr);
  if (!frame)
    return false;
  const uintptr_t *w = (const uintptr_t *)kit_san_host(frame);
  if (w[0] != KIT_SAN_FRAME_MAGIC)
    return false;
  const char *d = (const char *)w[1];
  uintptr_t fpc = w[2];
  unsigned long off = addr - frame;
  kit_san_printf("Address 0x%012lx is located in stack of thread T%d at offset %lu in frame\n",
                 (unsigned long)addr, kit_san_tid(), off);
  KitSanSymbol s;
  kit_san_symbolize(fpc, &s);
  if (s.func[0] && s.file[0])
    kit_san_printf("    #0 0x%012lx in %s %s:%d\n", (unsigned long)fpc, s.func, s.file, s.line);
  else if (s.func[0])
    kit_san_printf("    #0 0x%012lx in %s\n", (unsigned long)fpc, s.func);
  else
    kit_san_printf("    #0 0x%012lx\n", (unsigned long)fpc);
  kit_san_printf("\n");
  unsigned long n = 0;
  StackVar vars[64];
  const char *p = d ? parse_ul(d, &n) : NULL;
  size_t nv = 0;
  for (unsigned long i = 0; p && i < n && nv < 64; i++) {
    StackVar v = {0};
    unsigned long len;
    if (!(p = parse_ul(p, &v.beg)) || !(p = parse_ul(p, &v.size)) || !(p = parse_ul(p, &len)))
      break;
    while (*p == ' ')
      p++;
    size_t avail = strnlen(p, len);
    size_t k = avail < sizeof v.name - 1 ? avail : sizeof v.name - 1;
    memcpy(v.name, p, k);
    v.name[k] = 0;
    p += avail;
    /* Tolerate a namelen that counts a separator. */
    while (k && v.name[k - 1] == ' ')
      v.name[--k] = 0;
    char *colon = strrchr(v.name, ':');
    if (colon && colon[1] >= '0' && colon[1] <= '9') {
      v.line = atoi(colon + 1);
      *colon = 0;
    }
    vars[nv++] = v;
  }
  kit_san_printf("  This frame has %zu object(s):\n", nv);
  for (size_t i = 0; i < nv; i++)
    print_var(&vars[i], off, size ? size : 1, i ? &vars[i - 1] : NULL,
              i + 1 < nv ? &vars[i + 1] : NULL);
  kit_san_printf("HINT: this may be a false positive if your program uses some custom stack "
                 "unwind mechanism, swapcontext or vfork\n"
                 "      (longjmp and C++ exceptions *are* supported)\n");
  return true;
}
