/* clean_stdio.c — clean: stdio with heap buffers (snprintf, sscanf, qsort). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(void) {
  int *v = malloc(100 * sizeof *v);
  for (int i = 0; i < 100; i++) v[i] = (i * 37) % 101;
  qsort(v, 100, sizeof *v, cmp);
  char *buf = malloc(64);
  snprintf(buf, 64, "%d %d %s", v[0], v[99], "end");
  int x, y;
  char w[8];
  if (sscanf(buf, "%d %d %7s", &x, &y, w) != 3) return 1;
  puts(buf);
  free(buf);
  free(v);
  return x != 0;
}
