#include <stdint.h>
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  char *volatile hp = (char *)UINTPTR_MAX - 2;
  char *r = hp + 8 * argc;
  printf("%d\n", r != 0);
  return 0;
}
