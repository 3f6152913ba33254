/* a function returns a value one path leaves unset */
#include <stdio.h>
__attribute__((noinline)) static void maybe_set(int *p, int c) { if (c) *p = 1; }
__attribute__((noinline)) static int f(int c) {
  int x;
  maybe_set(&x, c);
  return x;
}
int main(int argc, char **argv) {
  (void)argv;
  int r = f(argc - 1);
  puts("back");
  return r == 7;
}
