/* strcoll_over.c — heap-buffer-overflow: strcoll reads past an unterminated chunk. */
/* expect: heap-buffer-overflow in strcmp (natively, libc's strcoll is not intercepted) */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *p = malloc(4);
  memcpy(p, "abcd", 4);
  int r = strcoll(p, "abcdefgh");
  free(p);
  return r == 12345;
}
