/* tests/emu/trace/probe_prog.c — probes' guest: a static inline function
 * that gcc -O2 inlines at two call sites (its inlined copies are probe
 * points too), an out-of-line function called in a loop, a line in a loop. */
#include <stdio.h>

static inline int square_plus(int x) {
  int y = x * x; /* PROBE_LINE_SQUARE */
  return y + 1;
}

__attribute__((noinline)) int work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    s += square_plus(i);
    if (i % 3 == 0) s ^= square_plus(s & 15); /* PROBE_LINE_XOR */
  }
  return s;
}

int main(int argc, char **argv) {
  (void)argv;
  int t = 0;
  for (int k = 0; k < 50 + argc; k++) t += work(10 + k % 7);
  printf("total %d\n", t);
  return 0;
}
