#include <stdio.h>
int main(void) {
  volatile int v = -1;
  int x = v << 3;
  printf("%d\n", x);
  return 0;
}
