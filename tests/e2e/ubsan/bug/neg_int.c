#include <limits.h>
#include <stdio.h>
int main(void) {
  volatile int x = INT_MIN;
  int y = -x;
  printf("%d\n", y);
  return 0;
}
