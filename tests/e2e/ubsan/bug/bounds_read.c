#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  int a[10] = {0};
  int i = argc + 9;
  printf("%d\n", a[i]);
  return 0;
}
