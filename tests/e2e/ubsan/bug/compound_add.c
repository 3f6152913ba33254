#include <stdio.h>
int main(void) {
  volatile int a = 2000000000;
  int s = a;
  s += a;
  printf("%d\n", s);
  return 0;
}
