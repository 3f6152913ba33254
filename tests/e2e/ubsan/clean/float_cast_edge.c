#include <stdio.h>
int main(void) {
  volatile double a = 2147483647.9, b = -2147483648.9, c = 255.5;
  volatile float f = -0.9f;
  int x = (int)a, y = (int)b;
  unsigned char u = (unsigned char)c;
  unsigned z = (unsigned)f;
  printf("%d %d %d %u\n", x, y, u, z);
  return 0;
}
