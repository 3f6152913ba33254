#include <stdio.h>
int main(void) {
  volatile int z = 0;
  int x = 10 / z;
  printf("%d\n", x);
  return 0;
}
