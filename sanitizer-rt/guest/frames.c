/* frames.c — the guest shadow call stack: the emulator reports each call and
 * return edge of the guest; reports, allocations and frees take their stacks
 * from it (frame #0 the current pc, then return addresses minus one). */
#include "guest.h"
#include <sys/mman.h>

typedef struct {
  uintptr_t ret, sp;
} Frame;

#define MAX_DEPTH (1u << 20)
/* one per guest thread: each runs on a host thread of its own */
static __thread Frame *stk;
static __thread size_t depth, dropped; /* dropped: frames past MAX_DEPTH (deep recursion) */

void kit_guest_frames_call(uintptr_t ret_addr, uintptr_t sp) {
  if (!stk) {
    void *p = mmap(0, MAX_DEPTH * sizeof *stk, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      return;
    stk = p;
  }
  if (depth == MAX_DEPTH) {
    dropped++;
    return;
  }
  stk[depth++] = (Frame){ret_addr, sp};
}

void kit_guest_frames_ret(uintptr_t ret_addr) {
  if (dropped) {
    dropped--;
    return;
  }
  /* the matching frame, searched from the top: a longjmp skips several */
  for (size_t i = depth; i > 0 && depth - i < 4096; i--)
    if (stk[i - 1].ret == ret_addr) {
      depth = i - 1;
      return;
    }
}

/* A call made with stack pointer sp: frames recorded at or below sp belong
 * to functions that were left without a return (longjmp), since a function
 * makes its calls from one sp and each of them returns before the next. */
void kit_guest_frames_unwind_to(uintptr_t sp) {
  while (depth && stk[depth - 1].sp <= sp)
    depth--;
}

size_t kit_guest_frames_depth(void) { return depth; }

size_t kit_guest_unwind(void *ctx, uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max);
size_t kit_guest_unwind(void *ctx, uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max) {
  (void)ctx;
  (void)bp;
  size_t n = 0;
  if (max)
    out[n++] = pc;
  for (size_t i = depth; i > 0 && n < max; i--)
    out[n++] = stk[i - 1].ret - 1;
  return n;
}
