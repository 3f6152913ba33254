#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  volatile int n = 0;
  int vla[n - argc + 1];
  printf("%d\n", (int)sizeof vla);
  return 0;
}
