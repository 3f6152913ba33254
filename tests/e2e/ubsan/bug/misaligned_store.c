#include <stdio.h>
int main(void) {
  _Alignas(8) char buf[32] = {0};
  volatile int off = 4;
  long *p = (long *)(buf + off);
  *p = 1;
  printf("%d\n", buf[4]);
  return 0;
}
