/* rawmemchr_over.c — heap-buffer-overflow: rawmemchr reads past an unterminated chunk. */
/* expect: heap-buffer-overflow in rawmemchr (natively, libc's rawmemchr is not intercepted) */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  long r = *(char *)rawmemchr(p, 0);
  free(p);
  return r == 12345;
}
