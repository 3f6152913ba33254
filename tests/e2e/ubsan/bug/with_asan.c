// FLAGS: -fsanitize=address,undefined
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int *p = malloc(4 * sizeof *p);
  volatile int big = 2147483647;
  p[0] = big + 1;
  volatile int z = 0;
  p[1] = 5 / (z + 1);
  printf("%d\n", p[1]);
  free(p);
  return 0;
}
