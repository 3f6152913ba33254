/* memmove_over.c — heap-buffer-overflow through memmove. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  volatile size_t n = 17;
  char *p = malloc(24);
  memmove(p + 8, p, n);
  free(p);
  return 0;
}
