/* a switch on an uninitialized value */
#include <stdio.h>
__attribute__((noinline)) static void maybe_set(int *p, int c) { if (c) *p = 1; }
int main(int argc, char **argv) {
  int k;
  (void)argv;
  maybe_set(&k, argc > 3);
  switch (k) {
  case 1: puts("one"); break;
  case 2: puts("two"); break;
  case 7: puts("seven"); break;
  default: break;
  }
  return 0;
}
