/* strcasecmp_over.c — heap-buffer-overflow: strcasecmp reads past an unterminated chunk. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  int r = strcasecmp(p, "ABCDEFGH");
  free(p);
  return r == 12345;
}
