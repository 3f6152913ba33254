/* shadow.c — every shadow byte the core reads or writes goes through here, with
 * a configurable base so the emulator can shadow guest addresses
 * (shadow = base + (addr >> 3)); plus the user poisoning interface. */
#include "san_core.h"

uintptr_t kit_san_shadow_base = KIT_SAN_SHADOW_OFFSET;

typedef uint64_t __attribute__((may_alias)) ShadowWord;

/* Word stores for the aligned middle: fake frames and chunks set hundreds of
 * shadow bytes at a time (no memset: natively that is the checking one). */
void kit_san_shadow_set(uintptr_t addr, size_t size, uint8_t value) {
  uint8_t *s = kit_san_shadow(addr), *e = s + ((size + 7) >> 3);
  while (s < e && ((uintptr_t)s & 7))
    *s++ = value;
  ShadowWord w = 0x0101010101010101ULL * value;
  for (; e - s >= 8; s += 8)
    *(ShadowWord *)s = w;
  while (s < e)
    *s++ = value;
}

void kit_san_shadow_unpoison(uintptr_t addr, size_t size) {
  uint8_t *s = kit_san_shadow(addr);
  size_t full = size >> 3;
  for (size_t i = 0; i < full; i++)
    s[i] = 0;
  if (size & 7)
    s[full] = (uint8_t)(size & 7);
}

/* ASan's rules for arbitrary (unaligned) user ranges: a granule is addressable
 * as a prefix only, so poisoning the tail of a granule keeps its head
 * addressable, and poisoning its head poisons nothing unless the whole
 * granule goes. */
void kit_san_shadow_poison_user(uintptr_t addr, size_t size, uint8_t value) {
  if (!size)
    return;
  uintptr_t end = addr + size;
  uintptr_t g = addr & ~7UL;
  if (addr != g) {
    uint8_t *s = kit_san_shadow(g);
    int8_t v = (int8_t)*s;
    uintptr_t gend = g + 8;
    if (end < gend) {
      /* Interior of one granule: only a poisoned tail is representable. */
      if (v > 0 && g + (uintptr_t)v <= end && g + (uintptr_t)v > addr)
        *s = (uint8_t)(addr - g);
      return;
    }
    if (v == 0 || (v > 0 && g + (uintptr_t)v > addr))
      *s = (uint8_t)(addr - g);
    g = gend;
  }
  while (g + 8 <= end) {
    *kit_san_shadow(g) = value;
    g += 8;
  }
  if (g < end) {
    uint8_t *s = kit_san_shadow(g);
    int8_t v = (int8_t)*s;
    if (v > 0 && g + (uintptr_t)v <= end)
      *s = value;
  }
}

void kit_san_shadow_unpoison_user(uintptr_t addr, size_t size) {
  if (!size)
    return;
  uintptr_t end = addr + size;
  uintptr_t g = addr & ~7UL;
  while (g < end) {
    uint8_t *s = kit_san_shadow(g);
    if (g + 8 <= end) {
      *s = 0;
    } else {
      int8_t v = (int8_t)*s;
      uint8_t want = (uint8_t)(end - g);
      if (v != 0 && (v < 0 || v < (int8_t)want))
        *s = want;
    }
    g += 8;
  }
}

static inline bool addr_bad(uintptr_t addr) {
  int8_t v = (int8_t)*kit_san_shadow(addr);
  return v != 0 && (int8_t)(addr & 7) >= v;
}

bool kit_san_addr_bad(uintptr_t addr) { return addr_bad(addr); }

/* Are the n shadow bytes at s all zero? Word compares for the middle. */
static bool shadow_zero(const uint8_t *s, size_t n) {
  const uint8_t *e = s + n;
  while (s < e && ((uintptr_t)s & 7))
    if (*s++)
      return false;
  for (; e - s >= 8; s += 8)
    if (*(const ShadowWord *)s)
      return false;
  while (s < e)
    if (*s++)
      return false;
  return true;
}

uintptr_t kit_san_region_bad(uintptr_t addr, size_t size) {
  if (!size)
    return 0;
  uintptr_t end = addr + size;
  /* The reference's quick check for short ranges: both ends and the middle
   * (and the quarters up to 64 bytes) addressable means the range is. */
  if (size <= 32 && end > addr) {
    if (!addr_bad(addr) && !addr_bad(end - 1) && !addr_bad(addr + size / 2))
      return 0;
  } else if (size <= 64 && end > addr) {
    if (!addr_bad(addr) && !addr_bad(end - 1) && !addr_bad(addr + size / 2) &&
        !addr_bad(addr + size / 4) && !addr_bad(addr + 3 * size / 4))
      return 0;
  }
  /* otherwise: every granule the range touches fully addressable */
  if (end > addr && shadow_zero(kit_san_shadow(addr), ((end - 1) >> 3) - (addr >> 3) + 1))
    return 0;
  uintptr_t p = addr;
  while (p < end && (p & 7)) {
    if (addr_bad(p))
      return p;
    p++;
  }
  for (; p + 8 <= end; p += 8)
    if (*kit_san_shadow(p) != 0)
      break;
  for (; p < end; p++)
    if (addr_bad(p))
      return p;
  return 0;
}

void __asan_poison_memory_region(void const volatile *addr, size_t size) {
  if (!kit_san_opts.allow_user_poisoning)
    return;
  kit_san_shadow_poison_user((uintptr_t)addr, size, KIT_SAN_USER_POISONED);
}

void __asan_unpoison_memory_region(void const volatile *addr, size_t size) {
  if (!kit_san_opts.allow_user_poisoning)
    return;
  kit_san_shadow_unpoison_user((uintptr_t)addr, size);
}

int __asan_address_is_poisoned(void const volatile *addr) {
  return kit_san_addr_bad((uintptr_t)addr);
}

void *__asan_region_is_poisoned(void *beg, size_t size) {
  return (void *)kit_san_region_bad((uintptr_t)beg, size);
}

/* std::vector-style containers: [beg, mid) in use, [mid, end) capacity the
 * program must not touch; the tail is poisoned fc (container-overflow). */
void __sanitizer_annotate_contiguous_container(const void *beg, const void *end,
                                               const void *old_mid, const void *new_mid) {
  (void)old_mid;
  uintptr_t b = (uintptr_t)beg, e = (uintptr_t)end, m = (uintptr_t)new_mid;
  if (b > e || m < b || m > e)
    return;
  kit_san_shadow_unpoison_user(b, m - b);
  uintptr_t g = (m + 7) & ~7UL;
  if (g < e)
    kit_san_shadow_poison_user(g, e - g, KIT_SAN_CONTAINER_OVERFLOW);
  if (m & 7) {
    uint8_t *s = kit_san_shadow(m & ~7UL);
    *s = (uint8_t)(m & 7);
  }
}
