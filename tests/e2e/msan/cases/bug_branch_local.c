/* a branch on a local that the callee leaves unset on this path */
#include <stdio.h>
__attribute__((noinline)) static void maybe_set(int *p, int c) { if (c) *p = 1; }
int main(int argc, char **argv) {
  int x;
  (void)argv;
  maybe_set(&x, argc > 5);
  if (x) puts("set");
  return 0;
}
