#include <stdio.h>
int main(void) {
  volatile long x = -9223372036854775807L - 1;
  long y = x;
  --y;
  printf("%ld\n", y);
  return 0;
}
