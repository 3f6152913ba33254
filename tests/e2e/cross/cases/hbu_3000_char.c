/* hbu_3000_char.c — heap-buffer-overflow: a char read 16 element(s) before a 3000-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  (void)argv;
  char *p = malloc(3000);
  long idx = -16 + argc - 1;
  volatile char v = p[idx];
  (void)v;
  free(p);
  return 0;
}
