/* qsort over an initialized array, through a comparator */
#include <stdlib.h>
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int main(void) {
  int v[64];
  for (int i = 0; i < 64; i++) v[i] = (i * 37) % 64;
  qsort(v, 64, sizeof *v, cmp);
  for (int i = 0; i < 64; i++)
    if (v[i] != i) return 1;
  return 0;
}
