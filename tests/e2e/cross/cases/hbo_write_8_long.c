/* hbo_write_8_long.c — heap-buffer-overflow: write of a long just past a 8-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  long *p = make(8);
  volatile long sum = 0;
  long idx = (8 / (long)sizeof(long)) + 0 + argc - 1;
  memset(p, 0, 8);
  p[idx] = 1; /* 0 element(s) past the end */
  printf("%ld\n", (long)sum);
  free(p);
  return 0;
}
