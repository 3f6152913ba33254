// ENV: UBSAN_OPTIONS=halt_on_error=1:exitcode=7
// STATUS: 7
#include <stdio.h>
int main(void) {
  volatile int a = -2147483647 - 1;
  int x = a - 1;
  int y = a * 2;
  printf("not reached %d %d\n", x, y);
  return 0;
}
