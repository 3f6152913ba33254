/* hbo_write_31_char.c — heap-buffer-overflow: write of a char just past a 31-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  char *p = make(31);
  volatile long sum = 0;
  long idx = (31 / (long)sizeof(char)) + 0 + argc - 1;
  memset(p, 0, 31);
  p[idx] = 1; /* 0 element(s) past the end */
  printf("%ld\n", (long)sum);
  free(p);
  return 0;
}
