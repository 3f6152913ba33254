#include <stdio.h>
int main(void) {
  volatile unsigned u = 4294967295u;
  unsigned v = u + 1;
  unsigned long w = 0;
  w -= 1;
  printf("%u %lu\n", v, w);
  return 0;
}
