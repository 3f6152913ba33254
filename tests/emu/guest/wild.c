/* tests/emu/guest/wild.c — stores to many wild addresses (inside and far
 * outside the guest window) each become a catchable SIGSEGV; the last one,
 * without a handler, kills the process with SIGSEGV. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
static sigjmp_buf env;
static void on_segv(int sig) { siglongjmp(env, sig); }
int main(void) {
  signal(SIGSEGV, on_segv);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  int caught = 0;
  for (int i = 0; i < 2000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    uint64_t a = (i & 1) ? (x & 0x3fffffffffull) | 0x1000000000ull : x | 0x8000000000000000ull;
    if (sigsetjmp(env, 1) == 0) {
      *(volatile uint64_t *)(uintptr_t)a = x;
    } else {
      caught++;
    }
  }
  printf("caught %d\n", caught);
  fflush(stdout);
  signal(SIGSEGV, SIG_DFL);
  *(volatile int *)(uintptr_t)0x10 = 1;
  return 0;
}
