/* hbo_write_4096_int.c — heap-buffer-overflow: write of a int just past a 4096-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  int *p = make(4096);
  volatile long sum = 0;
  long idx = (4096 / (long)sizeof(int)) + 0 + argc - 1;
  memset(p, 0, 4096);
  p[idx] = 1; /* 0 element(s) past the end */
  printf("%ld\n", (long)sum);
  free(p);
  return 0;
}
