/* tests/e2e/asan/cases/clean_exact_fit.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  for (int n = 1; n < 70; n++) {
    unsigned char *p = malloc(n);
    for (int i = 0; i < n; i++) p[i] = (unsigned char)i;
    unsigned s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    if (n >= 8) { long v; memcpy(&v, p + n - 8, 8); s += (unsigned)v; }
    free(p);
    if (!s && n > 2) return 1;
  }
  char *t = malloc(6);
  strcpy(t, "hello");
  int r = (int)strlen(t) - 5;
  free(t);
  return r;
}
// CLEAN
