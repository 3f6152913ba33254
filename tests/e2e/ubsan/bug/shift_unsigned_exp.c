#include <stdio.h>
int main(void) {
  volatile unsigned v = 1;
  volatile int n = 40;
  unsigned long x = v << n;
  printf("%lu\n", x);
  return 0;
}
