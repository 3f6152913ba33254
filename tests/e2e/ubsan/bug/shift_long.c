#include <stdio.h>
int main(void) {
  volatile long v = 1;
  volatile int n = 64;
  long x = v << n;
  printf("%ld\n", x);
  return 0;
}
