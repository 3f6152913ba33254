/* memcpy_overlap.c — memcpy-param-overlap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  volatile size_t n = 10;
  char *p = malloc(32);
  memset(p, 'x', 32);
  memcpy(p + 4, p, n);
  free(p);
  return 0;
}
