/* segv_wild_low.c — SEGV on a wild pointer to unmapped memory. */
#include <stdint.h>
#include <stdio.h>

static void poke(long *p) { *p = 42; }

int main(int argc, char **argv) {
  (void)argv;
  poke((long *)(uintptr_t)(0x40000000ull + (unsigned)(argc - 1)));
  return 0;
}
