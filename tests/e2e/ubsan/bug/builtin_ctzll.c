#include <stdio.h>
int main(void) {
  volatile unsigned long long z = 0;
  printf("%d\n", __builtin_ctzll(z) > 0);
  return 0;
}
