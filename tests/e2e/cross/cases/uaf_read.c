/* uaf_read.c — heap-use-after-free: read after free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int peek(int *p) { return p[2]; }

int main(void) {
  int *p = malloc(40);
  p[2] = 7;
  free(p);
  return peek(p);
}
