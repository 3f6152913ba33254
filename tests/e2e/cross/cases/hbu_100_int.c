/* hbu_100_int.c — heap-buffer-overflow: a int read 3 element(s) before a 100-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  (void)argv;
  int *p = malloc(100);
  long idx = -3 + argc - 1;
  volatile int v = p[idx];
  (void)v;
  free(p);
  return 0;
}
