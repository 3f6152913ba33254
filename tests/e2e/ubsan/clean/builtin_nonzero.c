#include <stdio.h>
int main(void) {
  volatile unsigned x = 1;
  volatile unsigned long long y = 1ULL << 63;
  printf("%d %d %d\n", __builtin_clz(x), __builtin_ctzll(y), __builtin_popcount(0));
  return 0;
}
