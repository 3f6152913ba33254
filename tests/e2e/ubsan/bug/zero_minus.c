#include <limits.h>
#include <stdio.h>
int main(void) {
  volatile int m = INT_MIN;
  int a = 0 - m;
  int b = -m;
  printf("%d %d\n", a, b);
  return 0;
}
