#include <limits.h>
#include <stdio.h>
int main(void) {
  volatile int a = INT_MIN, b = -1;
  int x = a / b;
  printf("%d\n", x);
  return 0;
}
