#include <stdio.h>
int main(void) {
  _Alignas(8) char buf[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  volatile int off = 1;
  int *p = (int *)(buf + off);
  printf("%d\n", *p != 0);
  return 0;
}
