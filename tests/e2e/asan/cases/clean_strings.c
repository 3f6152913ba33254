/* tests/e2e/asan/cases/clean_strings.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char a[16];
  strcpy(a, "0123456789abcde");
  char *b = malloc(32);
  strcpy(b, a);
  strcat(b, "f");
  int r = strcmp(a, "0123456789abcde") != 0 || strlen(b) != 16 || strchr(b, 'f') != b + 15;
  char *d = strdup(b);
  r |= memcmp(d, b, 17) != 0;
  free(d);
  free(b);
  return r;
}
// CLEAN
