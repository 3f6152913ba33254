/* tests/emu/guest/abort.c — raise(SIGABRT) ends the process with 128+6. */
#include <signal.h>
#include <stdio.h>
int main(void) {
  printf("before abort\n");
  fflush(stdout);
  raise(SIGABRT);
  printf("not reached\n");
  return 0;
}
