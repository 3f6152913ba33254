/* tests/e2e/asan/cases/clean_qsort.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
static int cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
int main(void) {
  int n = 100;
  int *v = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) v[i] = (i * 37) % n;
  qsort(v, n, sizeof(int), cmp);
  int key = 42;
  int *hit = bsearch(&key, v, n, sizeof(int), cmp);
  int r = !hit || v[0] != 0 || v[n - 1] != n - 1;
  free(v);
  return r;
}
// CLEAN
