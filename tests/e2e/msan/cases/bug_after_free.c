/* freed memory is uninitialized again */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int *p = malloc(64);
  p[8] = 1;
  free(p);
  volatile int *q = p;
  if (q[8]) puts("still one");
  return 0;
}
