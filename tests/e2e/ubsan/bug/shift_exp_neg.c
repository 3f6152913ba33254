#include <stdio.h>
int main(void) {
  volatile int n = -1;
  int x = 8 >> n;
  printf("%d\n", x);
  return 0;
}
