/* calloc's memory is initialized */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int *p = calloc(32, sizeof *p);
  int s = 0;
  for (int i = 0; i < 32; i++)
    if (p[i]) s++;
  free(p);
  return s;
}
