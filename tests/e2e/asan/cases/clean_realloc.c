/* tests/e2e/asan/cases/clean_realloc.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  int *p = NULL;
  for (int n = 1; n <= 300; n += 7) {
    p = realloc(p, n * sizeof(int));
    p[n - 1] = n;
  }
  p = realloc(p, 3 * sizeof(int));
  p[2] = 1;
  char *q = realloc(NULL, 5);
  q[4] = 0;
  free(q);
  free(p);
  return 0;
}
// CLEAN
