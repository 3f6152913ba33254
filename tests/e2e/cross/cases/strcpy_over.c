/* strcpy_over.c — heap-buffer-overflow through strcpy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  const char *s = "hello, world";
  char *d = malloc(strlen(s));
  strcpy(d, s);
  free(d);
  return 0;
}
