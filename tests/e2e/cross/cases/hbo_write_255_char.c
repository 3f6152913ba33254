/* hbo_write_255_char.c — heap-buffer-overflow: write of a char just past a 255-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  char *p = make(255);
  volatile long sum = 0;
  long idx = (255 / (long)sizeof(char)) + 0 + argc - 1;
  memset(p, 0, 255);
  p[idx] = 1; /* 0 element(s) past the end */
  printf("%ld\n", (long)sum);
  free(p);
  return 0;
}
