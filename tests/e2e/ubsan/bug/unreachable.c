#include <stdio.h>
static int pick(int x) {
  if (x == 1) return 10;
  if (x == 2) return 20;
  __builtin_unreachable();
}
int main(int argc, char **argv) {
  (void)argv;
  printf("%d\n", pick(argc));
  printf("%d\n", pick(argc + 2));
  return 0;
}
