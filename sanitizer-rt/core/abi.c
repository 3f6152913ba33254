/* abi.c — the checked-access and report entry points instrumented code calls
 * (__asan_load4, __asan_report_store_n, ...), the stack shadow setters, and
 * the shared globals of san_abi.h. */
#include "san_core.h"

uintptr_t __asan_shadow_memory_dynamic_address = KIT_SAN_SHADOW_OFFSET;
static KitSanPageProvider fake_pages_copy;
KitSanPageProvider *kit_san_fake_pages;

void kit_san_core_set_fake_pages(const KitSanPageProvider *p);
void kit_san_core_set_fake_pages(const KitSanPageProvider *p) {
  fake_pages_copy = *p;
  kit_san_fake_pages = &fake_pages_copy;
}

static inline bool bad_small(uintptr_t a, size_t n) {
  int8_t v = (int8_t)*kit_san_shadow(a);
  if (n == 16)
    return kit_san_region_bad(a, 16) != 0;
  if (__builtin_expect(v == 0, 1))
    return (a & 7) + n > 8 && kit_san_region_bad(a, n) != 0;
  return (int8_t)((a & 7) + n - 1) >= v || (a & 7) + n > 8;
}

/* The caller of the entry point is the instrumented code: its pc is our return
 * address and its frame is the one our frame pointer links to. */
#define CALLER_PC ((uintptr_t)__builtin_return_address(0))
#define CALLER_BP (*(uintptr_t *)__builtin_frame_address(0))
#define CALLER_SP ((uintptr_t)__builtin_frame_address(0) + 16)

#define ACCESS(n)                                                                  \
  __attribute__((noinline)) void __asan_load##n(uintptr_t a) {                     \
    if (bad_small(a, n))                                                           \
      kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, a, n, false, true);   \
  }                                                                                \
  __attribute__((noinline)) void __asan_store##n(uintptr_t a) {                    \
    if (bad_small(a, n))                                                           \
      kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, a, n, true, true);    \
  }                                                                                \
  __attribute__((noinline)) void __asan_load##n##_noabort(uintptr_t a) {           \
    if (bad_small(a, n))                                                           \
      kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, a, n, false, false);  \
  }                                                                                \
  __attribute__((noinline)) void __asan_store##n##_noabort(uintptr_t a) {          \
    if (bad_small(a, n))                                                           \
      kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, a, n, true, false);   \
  }                                                                                \
  __attribute__((noinline)) void __asan_report_load##n(uintptr_t a) {              \
    kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, a, n, false, true);     \
  }                                                                                \
  __attribute__((noinline)) void __asan_report_store##n(uintptr_t a) {             \
    kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, a, n, true, true);      \
  }                                                                                \
  __attribute__((noinline)) void __asan_report_load##n##_noabort(uintptr_t a) {    \
    kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, a, n, false, false);    \
  }                                                                                \
  __attribute__((noinline)) void __asan_report_store##n##_noabort(uintptr_t a) {   \
    kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, a, n, true, false);     \
  }
ACCESS(1)
ACCESS(2)
ACCESS(4)
ACCESS(8)
ACCESS(16)

#define ACCESS_N(name, write, fatal)                                               \
  __attribute__((noinline)) void name(uintptr_t a, size_t n) {                     \
    uintptr_t bad = kit_san_region_bad(a, n);                                      \
    if (bad)                                                                       \
      kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, bad, n, write, fatal); \
  }
ACCESS_N(__asan_loadN, false, true)
ACCESS_N(__asan_storeN, true, true)
ACCESS_N(__asan_loadN_noabort, false, false)
ACCESS_N(__asan_storeN_noabort, true, false)

#define REPORT_N(name, write, fatal)                                               \
  __attribute__((noinline)) void name(uintptr_t a, size_t n) {                     \
    kit_san_report_access(CALLER_PC, CALLER_BP, CALLER_SP, a, n, write, fatal);    \
  }
REPORT_N(__asan_report_load_n, false, true)
REPORT_N(__asan_report_store_n, true, true)
REPORT_N(__asan_report_load_n_noabort, false, false)
REPORT_N(__asan_report_store_n_noabort, true, false)

#define SET_SHADOW(v)                                                              \
  void __asan_set_shadow_##v(uintptr_t addr, size_t size) {                        \
    uint8_t *s = kit_san_shadow(addr);                                             \
    for (size_t i = 0; i < size; i++)                                              \
      s[i] = 0x##v;                                                                \
  }
SET_SHADOW(00)
SET_SHADOW(f1)
SET_SHADOW(f2)
SET_SHADOW(f3)
SET_SHADOW(f5)
SET_SHADOW(f8)

void __asan_poison_stack_memory(uintptr_t addr, size_t size) {
  kit_san_shadow_poison_user(addr, size, KIT_SAN_STACK_USE_AFTER_SCOPE);
}

void __asan_unpoison_stack_memory(uintptr_t addr, size_t size) {
  kit_san_shadow_unpoison_user(addr, size);
}

void __asan_version_mismatch_check_v8(void) {}

/* C has no dynamic initialisers; kept so objects built for the reference link. */
void __asan_before_dynamic_init(const char *module_name) { (void)module_name; }
void __asan_after_dynamic_init(void) {}

/* Dynamic allocas: a 32-byte ca redzone before, cb after up to the next
 * 32-byte boundary plus 32, the reference's layout. */
void __asan_alloca_poison(uintptr_t addr, size_t size) {
  uintptr_t end = addr + size;
  uintptr_t right_end = ((end + 31) & ~31UL) + 32;
  kit_san_shadow_set(addr - 32, 32, KIT_SAN_ALLOCA_LEFT_RZ);
  kit_san_shadow_unpoison(addr, size);
  uintptr_t g = (end + 7) & ~7UL;
  kit_san_shadow_set(g, right_end - g, KIT_SAN_ALLOCA_RIGHT_RZ);
}

void __asan_allocas_unpoison(uintptr_t top, uintptr_t bottom) {
  if (top && bottom > top)
    kit_san_shadow_set(top & ~7UL, bottom - (top & ~7UL), 0);
}
