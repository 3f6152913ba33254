// ENV: UBSAN_OPTIONS=suppressions=%S/suppressed.supp
#include <stdio.h>
int main(void) {
  volatile int a = 2147483647, n = 40;
  int x = a + 1;
  int y = 1 << n;
  printf("%d %d\n", x, y);
  return 0;
}
