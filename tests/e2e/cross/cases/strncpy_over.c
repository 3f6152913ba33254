/* strncpy_over.c — heap-buffer-overflow through strncpy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  volatile size_t n = 12;
  char *d = malloc(10);
  strncpy(d, "abc", n);
  free(d);
  return 0;
}
