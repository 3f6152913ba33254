#include <stdio.h>
int main(void) {
  volatile int v = 3;
  int x = v << 31;
  printf("%d\n", x);
  return 0;
}
