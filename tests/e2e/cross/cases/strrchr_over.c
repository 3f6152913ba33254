/* strrchr_over.c — heap-buffer-overflow: strrchr reads past an unterminated chunk. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  long r = strrchr(p, "x"[0]) != NULL;
  free(p);
  return r == 12345;
}
