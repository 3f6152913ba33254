#include <stdio.h>
int main(void) {
  volatile int n = 30;
  volatile unsigned un = 31;
  int a = 1 << n;
  unsigned b = 1u << un;
  long c = 1L << 62;
  int d = -8 >> 2;
  printf("%d %u %ld %d\n", a, b, c, d);
  return 0;
}
