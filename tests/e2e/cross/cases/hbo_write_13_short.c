/* hbo_write_13_short.c — heap-buffer-overflow: write of a short just past a 13-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static short *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  short *p = make(13);
  volatile long sum = 0;
  long idx = (13 / (long)sizeof(short)) + 1 + argc - 1;
  memset(p, 0, 13);
  p[idx] = 1; /* 1 element(s) past the end */
  printf("%ld\n", (long)sum);
  free(p);
  return 0;
}
