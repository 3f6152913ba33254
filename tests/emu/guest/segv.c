/* tests/emu/guest/segv.c — a SIGSEGV handler that recovers with siglongjmp,
 * sees si_addr, and runs on an alternate stack. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static sigjmp_buf env;
static volatile uintptr_t seen;
static void on_segv(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  seen = (uintptr_t)si->si_addr;
  siglongjmp(env, sig);
}
int main(void) {
  static char altstack[65536];
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGSEGV, &sa, NULL);
  volatile int *targets[] = {(int *)0, (int *)16, (int *)0x12345678, (int *)main};
  for (int i = 0; i < 4; i++) {
    int r = sigsetjmp(env, 1);
    if (r == 0) {
      targets[i][0] = 42;
      printf("no fault %d\n", i);
    } else {
      printf("caught %d: sig=%d addr_match=%d\n", i, r, seen == (uintptr_t)targets[i]);
    }
  }
  return 0;
}
