#include <limits.h>
#include <stdio.h>
int main(void) {
  volatile int a = INT_MAX - 1, b = INT_MIN + 1;
  int x = a + 1, y = b - 1;
  long m = (long)INT_MAX * INT_MAX;
  printf("%d %d %ld\n", x, y, m);
  return 0;
}
