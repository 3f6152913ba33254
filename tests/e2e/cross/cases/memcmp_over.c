/* memcmp_over.c — heap-buffer-overflow through memcmp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  volatile size_t n = 9;
  char *a = malloc(8), *b = malloc(16);
  memset(a, 1, 8);
  memset(b, 1, 16);
  int r = memcmp(a, b, n);
  free(a);
  free(b);
  return r;
}
