/* strdup_over.c — heap-buffer-overflow: writing past a strdup'd string. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *s = strdup("kit");
  s[4] = '!';
  free(s);
  return 0;
}
