#include <stdio.h>
/* C: even nullptr + 0 is undefined (clang-16 reports it for C, not for C++) */
int main(int argc, char **argv) {
  (void)argv;
  char *volatile np = 0;
  char *q = np + (argc - 1);
  printf("%d\n", q == 0);
  return 0;
}
