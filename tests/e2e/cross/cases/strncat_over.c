/* strncat_over.c — heap-buffer-overflow: strncat reads past an unterminated chunk. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  char d[16] = "x"; long r = strncat(d, p, 8) != NULL;
  free(p);
  return r == 12345;
}
