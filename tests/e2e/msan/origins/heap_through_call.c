/* origins: a heap allocation's uninitialized element through a parameter
 * and a return value (registers in a binary: their origins travel with
 * their shadows) */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static int twice(int v) { return v * 2; }
int main(void) {
  int *p = malloc(4 * sizeof *p);
  p[0] = 1;
  int v = twice(p[2]);
  if (v > 3) puts("big");
  free(p);
  return 0;
}
