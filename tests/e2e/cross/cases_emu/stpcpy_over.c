/* stpcpy_over.c — heap-buffer-overflow: stpcpy reads past an unterminated chunk. */
/* expect: heap-buffer-overflow in stpcpy (natively, libc's stpcpy is not intercepted) */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  char d[16]; long r = stpcpy(d, p) - d;
  free(p);
  return r == 12345;
}
