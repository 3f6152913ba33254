/* native.h — what the native glue files share: init, the host unwinder and
 * symbolizer, the host stack bounds, and the pc/frame capture for interceptors. */
#ifndef KIT_SAN_NATIVE_H
#define KIT_SAN_NATIVE_H

#include "san_core.h"

void kit_native_init(void);
bool kit_native_ready(void);
extern const KitSanPageProvider kit_native_pages;
size_t kit_native_unwind(void *ctx, uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max);
bool kit_native_symbolize(void *ctx, uintptr_t pc, KitSanSymbol *out);
void kit_native_stack_bounds(uintptr_t *lo, uintptr_t *hi);
void kit_native_signals_install(void);
void kit_native_altstack_install(void);
int kit_native_tid(void);
bool kit_native_thread_stack(uintptr_t *lo, uintptr_t *hi); /* false on the main thread */
/* Calls fn for the stack of every other thread still running. */
void kit_native_threads_foreach_stack(void (*fn)(uintptr_t lo, uintptr_t hi, void *), void *ctx);
void kit_native_lsan_at_exit(void);
int kit_native_lsan_check(void); /* prints the leak report; returns leaked allocations */
void kit_native_lsan_note_alloc(uintptr_t user, uintptr_t caller);
/* the runtime's own heap (internal_alloc.c): the malloc family serves the
 * runtime from it while kit_san_in_report, and frees its blocks whenever */
bool kit_native_internal_owns(const void *p);
void *kit_native_internal_alloc(size_t size, size_t align, bool zero);
void *kit_native_internal_realloc(void *p, size_t size);
void kit_native_internal_free(void *p);
size_t kit_native_internal_usable_size(const void *p);
void kit_san_core_set_fake_pages(const KitSanPageProvider *p);

/* A return address inside the calling function: the pc of an interceptor. */
__attribute__((noinline)) uintptr_t kit_native_here(void);
#define KIT_HERE_PC() kit_native_here()
#define KIT_HERE_BP() ((uintptr_t)__builtin_frame_address(0))
#define KIT_HERE_SP()                                                          \
  ({                                                                           \
    uintptr_t sp_;                                                             \
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp_));                             \
    sp_;                                                                       \
  })
#define KIT_HERE_STACK() kit_san_stack_id(KIT_HERE_PC() - 1, KIT_HERE_BP())

#endif
