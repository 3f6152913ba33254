/* unwind.c — the native frame source: walk the frame-pointer chain within the
 * thread's stack; fall back to libunwind when the chain breaks at once. */
#define UNW_LOCAL_ONLY
#include "native.h"
#include <fcntl.h>
#include <libunwind.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uintptr_t stack_lo, stack_hi;

/* The main thread's [stack] mapping from /proc/self/maps, read without stdio
 * so it works inside malloc and signal handlers. */
static void find_stack(void) {
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  char buf[8192], line[512];
  size_t ll = 0;
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) {
    for (ssize_t i = 0; i < n; i++) {
      if (buf[i] != '\n') {
        if (ll + 1 < sizeof line)
          line[ll++] = buf[i];
        continue;
      }
      line[ll] = 0;
      ll = 0;
      if (strstr(line, "[stack]")) {
        char *e;
        stack_lo = strtoul(line, &e, 16);
        stack_hi = strtoul(e + 1, NULL, 16);
      }
    }
  }
  close(fd);
}

void kit_native_stack_bounds(uintptr_t *lo, uintptr_t *hi) {
  if (kit_native_thread_stack(lo, hi))
    return;
  if (!stack_hi)
    find_stack();
  *lo = stack_lo;
  *hi = stack_hi;
}

static bool fp_ok(uintptr_t fp, uintptr_t lo, uintptr_t hi) {
  if (fp & 7)
    return false;
  if (hi)
    return fp >= lo && fp + 16 <= hi;
  return fp > 4096;
}

static size_t libunwind_tail(uintptr_t first, uintptr_t *out, size_t n, size_t max) {
  unw_context_t uc;
  unw_cursor_t cur;
  if (unw_getcontext(&uc) || unw_init_local(&cur, &uc))
    return n;
  bool found = false;
  for (int guard = 0; guard < 256 && unw_step(&cur) > 0 && n < max; guard++) {
    unw_word_t ip;
    unw_get_reg(&cur, UNW_REG_IP, &ip);
    if (found)
      out[n++] = (uintptr_t)ip - 1;
    else if ((uintptr_t)ip - 1 == first || (uintptr_t)ip == first)
      found = true;
  }
  return n;
}

size_t kit_native_unwind(void *ctx, uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max) {
  (void)ctx;
  uintptr_t lo, hi;
  kit_native_stack_bounds(&lo, &hi);
  if (hi && !(bp >= lo && bp < hi))
    hi = 0; /* another thread's stack: bounds unknown */
  size_t n = 0;
  if (max == 0)
    return 0;
  out[n++] = pc;
  uintptr_t fp = bp;
  while (n < max && fp_ok(fp, lo, hi)) {
    uintptr_t next = ((uintptr_t *)fp)[0];
    uintptr_t ret = ((uintptr_t *)fp)[1];
    if (ret < 4096)
      break;
    out[n++] = ret - 1;
    if (next <= fp || (!hi && next - fp > (1UL << 20)))
      break;
    fp = next;
  }
  if (n == 1 && max > 1)
    n = libunwind_tail(pc, out, n, max);
  return n;
}
