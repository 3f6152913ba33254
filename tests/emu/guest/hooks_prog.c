/* tests/emu/guest/hooks_prog.c — the guest of test_hooks: calls, branches,
 * heap growth, and one store to a page the test tool watches (denied once,
 * caught by a SIGSEGV handler), and a getpid() the test tool answers itself
 * (4242: the exit status says whether the guest saw it). */

#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
static sigjmp_buf env;
static void on_segv(int s) { siglongjmp(env, s); }
__attribute__((noinline)) static long step(long x) { return x & 1 ? 3 * x + 1 : x / 2; }
int main(void) {
  long total = 0;
  /* REPEAT=N runs the hot loop N times, long enough for tier 2 */
  long repeat = getenv("REPEAT") ? atol(getenv("REPEAT")) : 1;
  for (long r = 0; r < repeat; r++)
    for (long i = 1; i < 3000; i++)
      for (long x = i; x != 1; x = step(x)) total++;
  total /= repeat;
  char *p = malloc(200000);
  p[199999] = 1;
  signal(SIGSEGV, on_segv);
  volatile long *watch = mmap((void *)0x1000000000, 4096, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  int denied = 0;
  for (int i = 0; i < 2; i++) {
    if (sigsetjmp(env, 1) == 0) watch[1] = 5;
    else denied++;
  }
  printf("total=%ld denied=%d watch=%ld\n", total, denied, watch[1]);
  return getpid() == 4242 ? 0 : 1;
}
