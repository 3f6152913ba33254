/* an uninitialized divisor */
#include <stdio.h>
__attribute__((noinline)) static int quot(int a, int *d) { return a / *d; }
int main(void) {
  int d;
  printf("%d\n", quot(10, &d) > 0);
  return 0;
}
