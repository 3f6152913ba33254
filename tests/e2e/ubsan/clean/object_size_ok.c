// FLAGS: -fsanitize=undefined
/* object-size: accesses that fit their object (the last element, a struct in
 * a buffer of its size, a pointer into a local array) print nothing */
#include <stdio.h>
#include <stdlib.h>
struct S { int a; int b; };
_Alignas(8) char g[8];
int main(int argc, char **argv) {
  (void)argv;
  int *q = (int *)g + 1;
  *q = argc;
  struct S *s = malloc(sizeof(struct S));
  s->b = *q;
  short local[4] = {1, 2, 3, 4};
  short *p = local + 3;
  long *l = calloc(2, 8);
  l[1] = *p;
  printf("%d %d %ld\n", s->b, *p, l[1]);
  free(s);
  free(l);
  return 0;
}
