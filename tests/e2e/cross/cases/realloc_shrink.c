/* realloc_shrink.c — heap-buffer-overflow after realloc shrank the chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  (void)argv;
  char *p = malloc(100);
  p = realloc(p, 20);
  p[19 + argc] = 1;
  free(p);
  return 0;
}
