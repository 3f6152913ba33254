#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  char buf[8] = "abcdefg";
  printf("%d\n", buf[argc - 2]);
  return 0;
}
