// FLAGS: -fsanitize=unsigned-integer-overflow
#include <stdio.h>
int main(void) {
  volatile unsigned u = 4294967295u, one = 1;
  volatile unsigned long big = 1UL << 63;
  unsigned a = u + one;
  unsigned b = 0u - one;
  unsigned long c = big * 2;
  unsigned d = -one;
  unsigned char e = 255;
  e++;
  printf("%u %u %lu %u %u\n", a, b, c, d, e);
  return 0;
}
