/* hbo_read_10_char.c — heap-buffer-overflow: read of a char just past a 10-byte chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  char *p = make(10);
  volatile long sum = 0;
  long idx = (10 / (long)sizeof(char)) + 0 + argc - 1;
  memset(p, 0, 10);
  sum += p[idx];
  printf("%ld\n", (long)sum);
  free(p);
  return 0;
}
