/* an uninitialized value passed to printf */
#include <stdio.h>
__attribute__((noinline)) static void maybe_set(int *p, int c) { if (c) *p = 2; }
int main(int argc, char **argv) {
  int x;
  (void)argv;
  maybe_set(&x, argc > 3);
  printf("%d\n", x);
  return 0;
}
