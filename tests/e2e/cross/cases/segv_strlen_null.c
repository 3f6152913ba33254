/* segv_strlen_null.c — SEGV inside strlen on a null pointer. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *s = argc > 5 ? argv[0] : NULL;
  printf("%zu\n", strlen(s));
  return 0;
}
