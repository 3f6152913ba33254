/* hbu_40_long.c — heap-buffer-overflow: a long read 1 element(s) before a 40-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  (void)argv;
  long *p = malloc(40);
  long idx = -1 + argc - 1;
  volatile long v = p[idx];
  (void)v;
  free(p);
  return 0;
}
