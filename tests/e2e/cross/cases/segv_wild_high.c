/* segv_wild_high.c — SEGV on a wild pointer far outside any address space. */
#include <stdint.h>
#include <stdio.h>

static long peek(const long *p) { return *p; }

int main(int argc, char **argv) {
  (void)argv;
  uintptr_t bad = (uintptr_t)0xdead000000000000ull + (uintptr_t)(argc - 1);
  printf("%ld\n", peek((const long *)bad));
  return 0;
}
