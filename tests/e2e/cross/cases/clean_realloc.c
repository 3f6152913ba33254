/* clean_realloc.c — clean: a growing realloc'd array and aligned allocations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int *a = NULL;
  size_t n = 0;
  for (int i = 0; i < 5000; i++) {
    if ((n & (n - 1)) == 0) a = realloc(a, (n ? 2 * n : 1) * sizeof *a);
    a[n++] = i;
  }
  void *q;
  if (posix_memalign(&q, 64, 100) || ((size_t)q & 63)) return 1;
  memset(q, 0, 100);
  free(q);
  char *c = calloc(10, 10);
  int bad = c[99] != 0;
  free(c);
  printf("%d %d\n", a[n - 1], bad);
  free(a);
  return bad;
}
