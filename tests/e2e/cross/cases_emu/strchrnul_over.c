/* strchrnul_over.c — heap-buffer-overflow: strchrnul reads past an unterminated chunk. */
/* expect: heap-buffer-overflow in strchrnul (natively, libc's strchrnul is not intercepted) */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  long r = *strchrnul(p, "x"[0]);
  free(p);
  return r == 12345;
}
