/* uaf_realloc.c — heap-use-after-free: the old pointer after realloc moved the chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *p = malloc(16);
  char *q = realloc(p, 4000);
  p[0] = 'x';
  free(q);
  return 0;
}
