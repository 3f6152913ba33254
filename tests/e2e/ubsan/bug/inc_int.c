#include <stdio.h>
int main(void) {
  volatile int x = 2147483647;
  int y = x;
  y++;
  printf("%d\n", y);
  return 0;
}
