#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  char *volatile np = 0;
  char *q = np + argc;
  printf("%d\n", q != 0);
  return 0;
}
