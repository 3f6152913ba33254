/* tests/e2e/asan/cases/clean_memcpy_self.c — clean: the reference's overlap rules.
 * memcpy(p, p, n) is not reported (the check is skipped when dst == src), nor is
 * strcat with an empty source inside the destination (nothing is appended). */
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  (void)argv;
  char *p = malloc(32);
  strcpy(p, "hello world");
  memcpy(p, p, 8 + (size_t)argc);
  strcat(p, p + strlen(p));
  strncat(p, p + strlen(p), 4);
  int ok = strcmp(p, "hello world") == 0;
  free(p);
  return ok ? 0 : 1;
}
// CLEAN
