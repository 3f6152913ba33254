/* tests/llvm/rv64_driver.c — C side of rv64.cg, built with
 * riscv64-linux-gnu-gcc -static and run under qemu-riscv64 by rv64.sh. */
#include <stdio.h>

struct Mix { long i; double d; };
struct Mix rv_mix(long, double);
int rv_say(long, double);
long rv_dispatch(long, long);

long host_twice(long x) { return 2 * x; }

int main(void) {
  struct Mix m = rv_mix(14, 1.5);
  printf("mix %ld %g\n", m.i, m.d);
  int n = rv_say(-7, 0.25);
  printf("said %d\n", n);
  printf("dispatch %ld %ld\n", rv_dispatch(0, 41), rv_dispatch(1, 21));
  return 0;
}
