/* nonnull(2, 3) on a prototype, the definition without it: arguments 2 and 3
 * are checked at each call, argument 1 is not */
#include <stdio.h>
__attribute__((nonnull(2, 3))) int pick(int *a, int *b, int *c);
int pick(int *a, int *b, int *c) { return a ? *a : b == c; }
int main(int argc, char **argv) {
  (void)argv;
  int x = 1;
  int *n = argc > 5 ? &x : NULL, *m = argc > 6 ? &x : NULL;
  printf("%d\n", pick(n, &x, &x));
  printf("%d\n", pick(&x, &x, n));
  printf("%d\n", pick(&x, m, &x));
  return 0;
}
