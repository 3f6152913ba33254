/* tests/emu/guest/chain.c — what chained LLVM code must get right: long runs
 * of blocks that never return to the dispatcher (the host stack must not
 * grow: chains are tail calls), calls through a pointer and returns (exits
 * to computed targets), and a timer signal that has to stop a tight loop
 * (chains leave for the dispatcher when a host signal is pending). */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static void on_alarm(int sig) {
  (void)sig;
  ticks++;
}

static unsigned step(unsigned x) { return x & 1 ? 3 * x + 1 : x / 2; }
static unsigned (*volatile fp)(unsigned) = step;

int main(void) {
  unsigned long steps = 0;
  for (unsigned i = 1; i < 100000; i++)
    for (unsigned x = i; x != 1; steps++) x = fp(x);
  printf("collatz steps below 100000: %lu\n", steps);
  signal(SIGALRM, on_alarm);
  struct itimerval it = {{0, 10000}, {0, 10000}};
  setitimer(ITIMER_REAL, &it, NULL);
  unsigned long spins = 0;
  /* at least one round: on a loaded machine (or with --tier=1 compiling
   * each new block first) all three ticks may come before the loop starts */
  do
    spins++;
  while (ticks < 3);
  it = (struct itimerval){{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &it, NULL);
  printf("three ticks: %s, spun: %s\n", ticks >= 3 ? "yes" : "no", spins > 0 ? "yes" : "no");
  return 0;
}
