/* tests/emu/guest/hello.c — the smallest guest: stdout and an exit status. */
#include <stdio.h>
int main(void) {
  printf("hello, world\n");
  return 3;
}
