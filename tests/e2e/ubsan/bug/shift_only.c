// FLAGS: -fsanitize=shift-exponent
#include <stdio.h>
int main(void) {
  volatile int a = 2147483647, n = 33, m = 2;
  int x = a + 1;
  int y = -1 << m;
  int z = 1 << n;
  printf("%d %d %d\n", x, y, z);
  return 0;
}
