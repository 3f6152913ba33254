#include <stdio.h>
int g[4];
int main(int argc, char **argv) {
  (void)argv;
  g[argc + 4] = 1;
  printf("done\n");
  return 0;
}
