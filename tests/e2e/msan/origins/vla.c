/* origins: a variable-length array's element never written ("an allocation
 * of 'vla'", clang's name for every VLA) */
#include <stdio.h>
__attribute__((noinline)) static void touch(int *p, int c) { if (c) p[0] = 1; }
int main(int argc, char **argv) {
  (void)argv;
  int n = argc + 3;
  int v[n];
  touch(v, argc > 5);
  if (v[0]) puts("v");
  return 0;
}
