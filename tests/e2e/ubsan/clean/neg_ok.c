#include <limits.h>
#include <stdio.h>
int main(void) {
  volatile int a = INT_MAX;
  volatile long b = LONG_MIN + 1;
  printf("%d %ld\n", -a, -b);
  unsigned u = 0;
  u = -u - 1;
  printf("%u\n", u);
  return 0;
}
