/* origins: alloca()'s bytes never written (an unnamed allocation: '') */
#include <alloca.h>
#include <stdio.h>
__attribute__((noinline)) static void touch(char *p, int c) { if (c) p[1] = 1; }
int main(int argc, char **argv) {
  (void)argv;
  char *a = alloca((size_t)argc + 3);
  touch(a, argc > 5);
  if (a[1]) puts("a");
  return 0;
}
