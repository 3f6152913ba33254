/* uaf_write.c — heap-use-after-free: write after free of a calloc'd chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  long *p = calloc(4, sizeof(long));
  free(p);
  p[3] = 1;
  return 0;
}
