#include <limits.h>
#include <stdio.h>
int main(void) {
  volatile long a = LONG_MIN, b = -1;
  long x = a % b;
  printf("%ld\n", x);
  return 0;
}
