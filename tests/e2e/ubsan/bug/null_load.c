#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  (void)argv;
  int *p = argc > 5 ? malloc(4) : NULL;
  printf("before\n");
  fflush(stdout);
  int x = *p;
  printf("%d\n", x);
  return 0;
}
