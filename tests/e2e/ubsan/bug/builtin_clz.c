#include <stdio.h>
int main(void) {
  volatile unsigned z = 0;
  printf("%d\n", __builtin_clz(z) > 0);
  return 0;
}
