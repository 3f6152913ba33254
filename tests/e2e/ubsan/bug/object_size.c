// CLANG_FLAGS: -O2
/* object-size: accesses through pointers whose object (a global, malloc and
 * calloc of a constant size) is too small. clang-16 sees these sizes only
 * after optimizing (at -O0 it reports nothing), hence -O2 for its expectation;
 * kitcc sees them in the CG at every level. Aligned objects, so that no
 * alignment report comes first. */
#include <stdio.h>
#include <stdlib.h>
struct S { int a; int b; };
_Alignas(4) char g[2];
int main(int argc, char **argv) {
  (void)argv;
  int *q = (int *)g;
  printf("%d\n", *q);
  struct S *s = malloc(4);
  s->a = argc;
  printf("%d\n", s->b);
  long *l = calloc(2, 4);
  l[0] = argc;
  short *sh = malloc(8);
  sh[3] = 1;
  printf("%ld %d\n", l[0], sh[3]);
  return 0;
}
