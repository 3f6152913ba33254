// FLAGS: -fsanitize=undefined -fno-sanitize-recover=shift
// STATUS: 1
#include <stdio.h>
int main(void) {
  volatile int a = 2147483647, n = 33;
  int x = a + 1;
  int y = 1 << n;
  printf("not reached %d %d\n", x, y);
  return 0;
}
