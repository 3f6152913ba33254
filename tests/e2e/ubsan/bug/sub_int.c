#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  int x = -2147483647 - 1;
  int y = x - argc;
  printf("%d\n", y);
  return 0;
}
