/* realloc's grown part is not initialized */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int *p = malloc(4 * sizeof(int));
  for (int i = 0; i < 4; i++) p[i] = i;
  p = realloc(p, 8 * sizeof(int));
  if (p[6] == 3) puts("three");
  free(p);
  return 0;
}
