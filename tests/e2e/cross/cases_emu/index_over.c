/* index_over.c — heap-buffer-overflow: index reads past an unterminated chunk. */
/* expect: heap-buffer-overflow in strchr (natively, libc's index is not intercepted) */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  long r = index(p, "x"[0]) != NULL;
  free(p);
  return r == 12345;
}
