/* errors.c — one function per error kind: picks the bug kind from the shadow,
 * prints the header, the stack, the address description (heap chunk, global,
 * stack frame), SUMMARY and the shadow dump, exactly in the reference's order. */
#include "san_core.h"
#include <stdio.h>
#include <string.h>


static const char *kind_for(uintptr_t addr, size_t size, uintptr_t *bad_out) {
  uintptr_t bad = kit_san_region_bad(addr, size ? size : 1);
  if (!bad)
    bad = addr;
  *bad_out = bad;
  uint8_t v = *kit_san_shadow(bad);
  if (v > 0 && v < 8)
    v = *kit_san_shadow(bad + 8);
  switch (v) {
  case KIT_SAN_HEAP_LEFT_RZ:
  case KIT_SAN_HEAP_RIGHT_RZ:
  case KIT_SAN_ARRAY_COOKIE:
    return "heap-buffer-overflow";
  case KIT_SAN_FREED:
    return "heap-use-after-free";
  case KIT_SAN_STACK_LEFT_RZ:
    return "stack-buffer-underflow";
  case KIT_SAN_STACK_MID_RZ:
  case KIT_SAN_STACK_RIGHT_RZ:
  case KIT_SAN_INTRA_OBJECT_RZ:
    return "stack-buffer-overflow";
  case KIT_SAN_STACK_AFTER_RETURN:
    return "stack-use-after-return";
  case KIT_SAN_STACK_USE_AFTER_SCOPE:
    return "stack-use-after-scope";
  case KIT_SAN_INIT_ORDER:
    return "initialization-order-fiasco";
  case KIT_SAN_USER_POISONED:
    return "use-after-poison";
  case KIT_SAN_GLOBAL_RZ:
    return "global-buffer-overflow";
  case KIT_SAN_CONTAINER_OVERFLOW:
    return "container-overflow";
  case KIT_SAN_ALLOCA_LEFT_RZ:
  case KIT_SAN_ALLOCA_RIGHT_RZ:
    return "dynamic-stack-buffer-overflow";
  default:
    return "unknown-crash";
  }
}

static bool describe_heap(uintptr_t addr, size_t size) {
  KitSanChunkInfo c;
  if (!kit_san_chunk_find(addr, &c))
    return false;
  bool freed = c.state == KIT_CHUNK_QUARANTINED;
  uintptr_t end = c.user_beg + c.size;
  if (addr < c.user_beg)
    kit_san_printf("0x%012lx is located %lu bytes before", (unsigned long)addr,
                   (unsigned long)(c.user_beg - addr));
  else if (addr + (size ? size : 1) > end)
    /* an access that runs off the end is described from the end, as the reference does */
    kit_san_printf("0x%012lx is located %lu bytes after", (unsigned long)(addr < end ? end : addr),
                   (unsigned long)(addr < end ? 0 : addr - end));
  else
    kit_san_printf("0x%012lx is located %lu bytes inside of", (unsigned long)addr,
                   (unsigned long)(addr - c.user_beg));
  kit_san_printf(" %lu-byte region [0x%012lx,0x%012lx)\n", (unsigned long)c.size,
                 (unsigned long)c.user_beg, (unsigned long)end);
  if (freed) {
    kit_san_printf("freed by thread T%d here:\n", c.free_tid);
    kit_san_print_stack_id(c.free_stack);
    kit_san_printf("previously allocated by thread T%d here:\n", c.alloc_tid);
  } else {
    kit_san_printf("allocated by thread T%d here:\n", c.alloc_tid);
  }
  kit_san_print_stack_id(c.alloc_stack);
  /* The reference's order: the current thread, then the freeing, then the allocating one. */
  kit_san_describe_thread(kit_san_tid());
  if (freed)
    kit_san_describe_thread(c.free_tid);
  kit_san_describe_thread(c.alloc_tid);
  return true;
}

void kit_san_describe_address(uintptr_t addr, size_t size) {
  if (kit_san_stack_describe(addr, size) || kit_san_globals_describe(addr, size)) {
    kit_san_describe_thread(kit_san_tid());
    return;
  }
  if (describe_heap(addr, size))
    return;
  kit_san_printf("Address 0x%012lx is a wild pointer inside of access range of size 0x%012lx.\n",
                 (unsigned long)addr, (unsigned long)size);
}

void __asan_describe_address(void *addr) { kit_san_describe_address((uintptr_t)addr, 1); }

/* Recover mode reports one error per pc, as suppress_equal_pcs does. */
static bool seen_pc(uintptr_t pc) {
  static uintptr_t pcs[256];
  static unsigned n;
  for (unsigned i = 0; i < n && i < 256; i++)
    if (pcs[i] == pc)
      return true;
  pcs[n++ % 256] = pc;
  return false;
}

void kit_san_report_access(uintptr_t pc, uintptr_t bp, uintptr_t sp, uintptr_t addr,
                           size_t size, bool write, bool fatal) {
  if (kit_san_in_report)
    return;
  fatal = fatal || kit_san_opts.halt_on_error;
  if (!fatal && seen_pc(pc))
    return;
  uintptr_t bad;
  const char *kind = kind_for(addr, size, &bad);
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(pc - 1, bp, frames, KIT_SAN_MAX_FRAMES);
  kit_san_report_begin();
  kit_san_printf("==%d==ERROR: AddressSanitizer: %s on address 0x%012lx at pc 0x%012lx bp "
                 "0x%012lx sp 0x%012lx\n",
                 kit_san_pid(), kind, (unsigned long)addr, (unsigned long)pc, (unsigned long)bp,
                 (unsigned long)sp);
  kit_san_printf("%s of size %lu at 0x%012lx thread T%d\n", write ? "WRITE" : "READ",
                 (unsigned long)size, (unsigned long)addr, kit_san_tid());
  kit_san_print_stack(frames, n);
  kit_san_describe_address(addr, size);
  kit_san_print_summary(kind, frames[0]);
  kit_san_print_shadow(bad);
  kit_san_report_end(fatal);
}

void kit_san_report_free(uintptr_t pc, uintptr_t bp, uintptr_t addr, KitSanFreeResult why) {
  if (kit_san_in_report)
    return;
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(pc, bp, frames, KIT_SAN_MAX_FRAMES);
  const char *kind = why == KIT_FREE_DOUBLE ? "double-free" : "bad-free";
  kit_san_report_begin();
  if (why == KIT_FREE_DOUBLE)
    kit_san_printf("==%d==ERROR: AddressSanitizer: attempting double-free on 0x%012lx in "
                   "thread T%d:\n", kit_san_pid(), (unsigned long)addr, kit_san_tid());
  else
    kit_san_printf("==%d==ERROR: AddressSanitizer: attempting free on address which was not "
                   "malloc()-ed: 0x%012lx in thread T%d\n", kit_san_pid(), (unsigned long)addr,
                   kit_san_tid());
  kit_san_print_stack(frames, n);
  kit_san_describe_address(addr, 1);
  kit_san_print_summary(kind, frames[0]);
  kit_san_report_end(kit_san_opts.halt_on_error);
}

void kit_san_report_overlap(uintptr_t pc, uintptr_t bp, const char *fn, uintptr_t a,
                            size_t an, uintptr_t b, size_t bn) {
  if (kit_san_in_report)
    return;
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(pc, bp, frames, KIT_SAN_MAX_FRAMES);
  char kind[64];
  snprintf(kind, sizeof kind, "%s-param-overlap", fn);
  kit_san_report_begin();
  kit_san_printf("==%d==ERROR: AddressSanitizer: %s: memory ranges [0x%012lx,0x%012lx) and "
                 "[0x%012lx, 0x%012lx) overlap\n",
                 kit_san_pid(), kind, (unsigned long)a, (unsigned long)(a + an), (unsigned long)b,
                 (unsigned long)(b + bn));
  kit_san_print_stack(frames, n);
  kit_san_describe_address(a, an);
  kit_san_describe_address(b, bn);
  kit_san_print_summary(kind, frames[0]);
  kit_san_report_end(kit_san_opts.halt_on_error);
}

static void alloc_error_tail(const char *kind, const uintptr_t *frames, size_t n) {
  kit_san_print_stack(frames, n);
  kit_san_printf("==%d==HINT: if you don't care about these errors you may set "
                 "allocator_may_return_null=1\n", kit_san_pid());
  kit_san_print_summary(kind, frames[0]);
  kit_san_report_end(true);
}

void kit_san_report_too_big(uintptr_t pc, uintptr_t bp, size_t size) {
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(pc, bp, frames, KIT_SAN_MAX_FRAMES);
  /* The reference reports the adjusted size as its size arithmetic computed it, wrapping. */
  size_t adjusted = ((size + 7) & ~(size_t)7) + 2048;
  kit_san_report_begin();
  kit_san_printf("==%d==ERROR: AddressSanitizer: requested allocation size 0x%lx (0x%lx after "
                 "adjustments for alignment, red zones etc.) exceeds maximum supported size of "
                 "0x%llx (thread T%d)\n", kit_san_pid(), (unsigned long)size,
                 (unsigned long)adjusted, KIT_SAN_MAX_ALLOC, kit_san_tid());
  alloc_error_tail("allocation-size-too-big", frames, n);
}

void kit_san_report_calloc_overflow(uintptr_t pc, uintptr_t bp, size_t count, size_t size) {
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(pc, bp, frames, KIT_SAN_MAX_FRAMES);
  kit_san_report_begin();
  kit_san_printf("==%d==ERROR: AddressSanitizer: calloc parameters overflow: count * size (%ld * "
                 "%ld) cannot be represented in type size_t (thread T%d)\n", kit_san_pid(),
                 (long)count, (long)size, kit_san_tid());
  alloc_error_tail("calloc-overflow", frames, n);
}
