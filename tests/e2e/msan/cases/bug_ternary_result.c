/* the result of a ternary on an uninitialized value, branched on */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static int clip(int *p) {
  int v = *p > 10 ? 10 : *p;
  return v;
}
__attribute__((noinline)) static void use(int *p) {
  int c = clip(p) + 1;
  if (c > 5) puts("big");
}
int main(void) {
  int *p = malloc(sizeof *p);
  use(p);
  free(p);
  return 0;
}
