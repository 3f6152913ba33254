#include <stdio.h>
int main(void) {
  volatile int a = 100000;
  int s = a;
  s *= a;
  printf("%d\n", s);
  return 0;
}
