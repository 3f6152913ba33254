/* hbo_write_7_char.c — heap-buffer-overflow: write of a char just past a 7-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  char *p = make(7);
  volatile long sum = 0;
  long idx = (7 / (long)sizeof(char)) + 0 + argc - 1;
  memset(p, 0, 7);
  p[idx] = 1; /* 0 element(s) past the end */
  printf("%ld\n", (long)sum);
  free(p);
  return 0;
}
