#include <limits.h>
#include <stdio.h>
int main(void) {
  volatile int a = INT_MIN, one = 1, m1 = -1;
  printf("%d %d %d\n", a % one, a / one, 7 % m1);
  return 0;
}
