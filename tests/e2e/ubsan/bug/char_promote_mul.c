#include <stdio.h>
int main(void) {
  volatile short s = 30000;
  int x = s * s * 3;
  printf("%d\n", x);
  return 0;
}
