#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  int m[3][4] = {{0}};
  m[argc][argc + 4] = 7;
  printf("%d\n", m[1][1]);
  return 0;
}
