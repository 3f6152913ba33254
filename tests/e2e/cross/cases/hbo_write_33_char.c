/* hbo_write_33_char.c — heap-buffer-overflow: write of a char just past a 33-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  char *p = make(33);
  volatile long sum = 0;
  long idx = (33 / (long)sizeof(char)) + 2 + argc - 1;
  memset(p, 0, 33);
  p[idx] = 1; /* 2 element(s) past the end */
  printf("%ld\n", (long)sum);
  free(p);
  return 0;
}
