/* strspn_over.c — heap-buffer-overflow: strspn reads past an unterminated chunk. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  size_t r = strspn(p, "abcd");
  free(p);
  return r == 12345;
}
