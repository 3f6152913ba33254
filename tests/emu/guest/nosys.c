/* tests/emu/guest/nosys.c — an unknown system call fails with ENOSYS. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  long r = syscall(999);
  printf("r=%ld enosys=%d\n", r, errno == ENOSYS);
  return 0;
}
