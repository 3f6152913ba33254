/* tests/emu/trace/loop.c — `loop N`: N rounds of an unrolled loop of
 * arithmetic (long blocks, few branches): the ring tests' and
 * bench/run.sh's trace-throughput guest. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000, a = 1, b = 2, c = 3, d = 4;
  for (unsigned long i = 0; i < n; i++) {
#define STEP a += b ^ i; b += c >> 3; c ^= d + a; d += a << 2;
    STEP STEP STEP STEP STEP STEP STEP STEP
    STEP STEP STEP STEP STEP STEP STEP STEP
  }
  printf("%lu\n", a ^ b ^ c ^ d);
  return 0;
}
