// FLAGS: -fsanitize=undefined -fno-sanitize-recover=all
// STATUS: 1
#include <stdio.h>
int main(void) {
  volatile int a = 2147483647;
  int x = a + 1;
  printf("not reached %d\n", x);
  return 0;
}
