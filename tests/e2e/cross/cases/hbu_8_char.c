/* hbu_8_char.c — heap-buffer-overflow: a char read 1 element(s) before a 8-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  (void)argv;
  char *p = malloc(8);
  long idx = -1 + argc - 1;
  volatile char v = p[idx];
  (void)v;
  free(p);
  return 0;
}
