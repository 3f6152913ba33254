/* strncmp_over.c — heap-buffer-overflow: strncmp reads past an unterminated chunk. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  int r = strncmp(p, "abcdefgh", 8);
  free(p);
  return r == 12345;
}
