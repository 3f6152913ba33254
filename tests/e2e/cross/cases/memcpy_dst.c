/* memcpy_dst.c — heap-buffer-overflow through memcpy: the destination is too small. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  volatile size_t n = 20;
  char src[32] = "0123456789abcdefghij";
  char *dst = malloc(16);
  memcpy(dst, src, n);
  free(dst);
  return 0;
}
