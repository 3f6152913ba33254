#include <stdio.h>
int main(void) {
  volatile int big = 2147483600;
  int s = 0;
  for (int i = 0; i < 5; i++) s = big + 100 + i;
  printf("%d\n", s);
  return 0;
}
