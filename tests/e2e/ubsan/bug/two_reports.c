#include <stdio.h>
int main(void) {
  volatile int a = 2147483647, z = 0;
  int x = a + 1;
  int y = a / z;
  printf("%d %d\n", x, y);
  return 0;
}
