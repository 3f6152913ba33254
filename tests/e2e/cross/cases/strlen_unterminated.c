/* strlen_unterminated.c — heap-buffer-overflow: strlen runs off an unterminated chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *p = malloc(6);
  memcpy(p, "abcdef", 6);
  size_t n = strlen(p);
  free(p);
  return (int)n;
}
