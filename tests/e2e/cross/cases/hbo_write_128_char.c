/* hbo_write_128_char.c — heap-buffer-overflow: write of a char just past a 128-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  char *p = make(128);
  volatile long sum = 0;
  long idx = (128 / (long)sizeof(char)) + 5 + argc - 1;
  memset(p, 0, 128);
  p[idx] = 1; /* 5 element(s) past the end */
  printf("%ld\n", (long)sum);
  free(p);
  return 0;
}
