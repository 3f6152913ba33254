/* memset_over.c — heap-buffer-overflow through memset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  volatile size_t n = 33;
  char *p = malloc(32);
  memset(p, 0, n);
  free(p);
  return 0;
}
