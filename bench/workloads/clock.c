/* bench/workloads/clock.c — the cost of clock_gettime(CLOCK_MONOTONIC), the
 * call a vDSO exists for: N calls timed by the program itself, printed as
 * nanoseconds per call. bench/clock.sh runs it natively, under
 * qemu-riscv64 and under kit-emu. usage: clock [N] (default 2000000) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  if (n <= 0) n = 1;
  struct timespec t, a, b;
  unsigned long sum = 0;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < n; i++) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    sum += (unsigned long)t.tv_nsec;
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)n;
  printf("%.1f\n", ns);
  return (int)(sum & 0); /* the loop's result is used */
}
