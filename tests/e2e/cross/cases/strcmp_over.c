/* strcmp_over.c — heap-buffer-overflow: strcmp reads past an unterminated chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  int r = strcmp(p, "abcdefgh");
  free(p);
  return r > 0;
}
