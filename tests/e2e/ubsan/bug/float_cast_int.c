#include <stdio.h>
int main(void) {
  volatile double d = 1e10;
  int x = (int)d;
  printf("%d\n", x);
  return 0;
}
