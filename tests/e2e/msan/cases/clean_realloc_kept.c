/* realloc keeps the initialized prefix initialized, growing and shrinking */
#include <stdlib.h>
int main(void) {
  int *p = malloc(4 * sizeof(int));
  for (int i = 0; i < 4; i++) p[i] = i + 1;
  p = realloc(p, 1000 * sizeof(int));
  int s = 0;
  for (int i = 0; i < 4; i++) s += p[i];
  p = realloc(p, 2 * sizeof(int));
  s += p[1];
  free(p);
  return s != 12;
}
