/* san_abi.h — the entry points that ASan-instrumented code (kitcc output, lifted
 * guest code) calls in the sanitizer runtime, and the data layouts it emits.
 * Names and layouts follow AddressSanitizer's so users and tools recognise them. */
#ifndef KIT_SAN_ABI_H
#define KIT_SAN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shadow mapping on x86-64: shadow = (addr >> 3) + KIT_SAN_SHADOW_OFFSET. */
#define KIT_SAN_SHADOW_SCALE 3
#define KIT_SAN_SHADOW_OFFSET 0x7fff8000ULL

/* Shadow byte values (the reference's). */
enum {
  KIT_SAN_HEAP_LEFT_RZ = 0xfa,
  KIT_SAN_HEAP_RIGHT_RZ = 0xfb,
  KIT_SAN_FREED = 0xfd,
  KIT_SAN_STACK_LEFT_RZ = 0xf1,
  KIT_SAN_STACK_MID_RZ = 0xf2,
  KIT_SAN_STACK_RIGHT_RZ = 0xf3,
  KIT_SAN_STACK_AFTER_RETURN = 0xf5,
  KIT_SAN_INIT_ORDER = 0xf6,
  KIT_SAN_USER_POISONED = 0xf7,
  KIT_SAN_STACK_USE_AFTER_SCOPE = 0xf8,
  KIT_SAN_GLOBAL_RZ = 0xf9,
  KIT_SAN_CONTAINER_OVERFLOW = 0xfc,
  KIT_SAN_ARRAY_COOKIE = 0xac,
  KIT_SAN_INTRA_OBJECT_RZ = 0xbb,
  KIT_SAN_INTERNAL = 0xfe,
  KIT_SAN_ALLOCA_LEFT_RZ = 0xca,
  KIT_SAN_ALLOCA_RIGHT_RZ = 0xcb,
};

/* A stack frame laid out by the ASan pass starts (at its first left-redzone
 * granule) with three words: this magic, a pointer to the frame description
 * string, and the function's pc. The description is
 * "N off size namelen name ..." where name may end in ":line". */
#define KIT_SAN_FRAME_MAGIC 0x41B58AB3UL

/* Global descriptor emitted per instrumented global (layout of the reference's
 * __asan_global, so both kinds of objects can be registered). */
typedef struct KitSanSourceLocation {
  const char *filename;
  int line_no;
  int column_no;
} KitSanSourceLocation;

typedef struct KitSanGlobal {
  uintptr_t beg;               /* address of the global */
  uintptr_t size;              /* its size in bytes */
  uintptr_t size_with_redzone; /* size plus the trailing redzone */
  const char *name;
  const char *module_name;
  uintptr_t has_dynamic_init;
  KitSanSourceLocation *location; /* may be NULL */
  uintptr_t odr_indicator;
} KitSanGlobal;

void __asan_init(void);
void __asan_version_mismatch_check_v8(void);
extern uintptr_t __asan_shadow_memory_dynamic_address;
extern int __asan_option_detect_stack_use_after_return;

/* Checked accesses: check the shadow and report on a bad access. */
#define KIT_SAN_ACCESS_DECL(n)                                                \
  void __asan_load##n(uintptr_t addr);                                        \
  void __asan_store##n(uintptr_t addr);                                       \
  void __asan_load##n##_noabort(uintptr_t addr);                              \
  void __asan_store##n##_noabort(uintptr_t addr);                             \
  void __asan_report_load##n(uintptr_t addr);                                 \
  void __asan_report_store##n(uintptr_t addr);                                \
  void __asan_report_load##n##_noabort(uintptr_t addr);                       \
  void __asan_report_store##n##_noabort(uintptr_t addr);
KIT_SAN_ACCESS_DECL(1)
KIT_SAN_ACCESS_DECL(2)
KIT_SAN_ACCESS_DECL(4)
KIT_SAN_ACCESS_DECL(8)
KIT_SAN_ACCESS_DECL(16)
#undef KIT_SAN_ACCESS_DECL
void __asan_loadN(uintptr_t addr, size_t size);
void __asan_storeN(uintptr_t addr, size_t size);
void __asan_loadN_noabort(uintptr_t addr, size_t size);
void __asan_storeN_noabort(uintptr_t addr, size_t size);
void __asan_report_load_n(uintptr_t addr, size_t size);
void __asan_report_store_n(uintptr_t addr, size_t size);
void __asan_report_load_n_noabort(uintptr_t addr, size_t size);
void __asan_report_store_n_noabort(uintptr_t addr, size_t size);

void *__asan_memcpy(void *dst, const void *src, size_t n);
void *__asan_memmove(void *dst, const void *src, size_t n);
void *__asan_memset(void *dst, int c, size_t n);

void __asan_register_globals(KitSanGlobal *globals, size_t n);
void __asan_unregister_globals(KitSanGlobal *globals, size_t n);

/* Stack: fake frames for use-after-return (class N holds 64 << N bytes). */
#define KIT_SAN_STACK_DECL(n)                                                 \
  uintptr_t __asan_stack_malloc_##n(size_t size);                             \
  void __asan_stack_free_##n(uintptr_t ptr, size_t size);
KIT_SAN_STACK_DECL(0)
KIT_SAN_STACK_DECL(1)
KIT_SAN_STACK_DECL(2)
KIT_SAN_STACK_DECL(3)
KIT_SAN_STACK_DECL(4)
KIT_SAN_STACK_DECL(5)
KIT_SAN_STACK_DECL(6)
KIT_SAN_STACK_DECL(7)
KIT_SAN_STACK_DECL(8)
KIT_SAN_STACK_DECL(9)
KIT_SAN_STACK_DECL(10)
#undef KIT_SAN_STACK_DECL

void __asan_set_shadow_00(uintptr_t addr, size_t size);
void __asan_set_shadow_f1(uintptr_t addr, size_t size);
void __asan_set_shadow_f2(uintptr_t addr, size_t size);
void __asan_set_shadow_f3(uintptr_t addr, size_t size);
void __asan_set_shadow_f5(uintptr_t addr, size_t size);
void __asan_set_shadow_f8(uintptr_t addr, size_t size);
void __asan_poison_stack_memory(uintptr_t addr, size_t size);
void __asan_unpoison_stack_memory(uintptr_t addr, size_t size);
void __asan_handle_no_return(void);
void __asan_alloca_poison(uintptr_t addr, size_t size);
void __asan_allocas_unpoison(uintptr_t top, uintptr_t bottom);
void __asan_before_dynamic_init(const char *module_name);
void __asan_after_dynamic_init(void);

/* The <sanitizer/asan_interface.h> subset. */
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
int __asan_address_is_poisoned(void const volatile *addr);
void *__asan_region_is_poisoned(void *beg, size_t size);
void __asan_describe_address(void *addr);
int __asan_report_present(void);
void __asan_set_error_report_callback(void (*callback)(const char *));
const char *__asan_default_options(void);
void __sanitizer_annotate_contiguous_container(const void *beg, const void *end,
                                               const void *old_mid, const void *new_mid);
void __sanitizer_print_stack_trace(void);
/* <sanitizer/lsan_interface.h> subset (native runtime). */
void __lsan_do_leak_check(void);
int __lsan_do_recoverable_leak_check(void);
void __lsan_ignore_object(const void *p);
void __lsan_disable(void);
void __lsan_enable(void);

#ifdef __cplusplus
}
#endif
#endif
