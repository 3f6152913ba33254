#include <stdio.h>
int main(void) {
  volatile int n = 32;
  int x = 1 << n;
  printf("%d\n", x);
  return 0;
}
