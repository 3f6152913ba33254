/* an uninitialized argument */
#include <stdio.h>
__attribute__((noinline)) static void maybe_set(int *p, int c) { if (c) *p = 0; }
__attribute__((noinline)) static void show(int v) { printf("%s\n", v ? "yes" : "no"); }
int main(int argc, char **argv) {
  int x;
  (void)argv;
  maybe_set(&x, argc > 4);
  show(x);
  return 0;
}
