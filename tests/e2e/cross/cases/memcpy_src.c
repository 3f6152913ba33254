/* memcpy_src.c — heap-buffer-overflow through memcpy: reading past the source chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  volatile size_t n = 12;
  char *src = malloc(10);
  memset(src, 'a', 10);
  char dst[16];
  memcpy(dst, src, n);
  free(src);
  return dst[0] == 'a' ? 0 : 1;
}
