// ENV: UBSAN_OPTIONS=print_summary=0
#include <stdio.h>
int main(void) {
  volatile int a = 65536;
  int x = a * a;
  printf("%d\n", x);
  return 0;
}
