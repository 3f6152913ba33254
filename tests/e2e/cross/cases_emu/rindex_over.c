/* rindex_over.c — heap-buffer-overflow: rindex reads past an unterminated chunk. */
/* expect: heap-buffer-overflow in __interceptor_strrchr (natively, libc's rindex is not intercepted) */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  long r = rindex(p, "x"[0]) != NULL;
  free(p);
  return r == 12345;
}
