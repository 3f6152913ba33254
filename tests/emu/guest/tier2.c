/* tests/emu/guest/tier2.c — hot loops long enough for kit-emu's tier 2
 * (sampled hot blocks compiled again as traces through their likely
 * successors): biased branches, calls, loads and stores, a timer signal
 * arriving while the loops run chained, and a fault raised by a load inside
 * a loop that is hot by then (its pointer turns bad at one iteration). The
 * output is deterministic and compared with qemu-riscv64's. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile unsigned long ticks;
static sigjmp_buf env;
static volatile uintptr_t fault_addr;

static void on_alarm(int sig) {
  (void)sig;
  ticks++;
}

static void on_segv(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  fault_addr = (uintptr_t)si->si_addr;
  siglongjmp(env, sig);
}

__attribute__((noinline)) static uint32_t mix(uint32_t h, uint32_t v) {
  h ^= v;
  h *= 0x01000193u;
  return h ^ (h >> 13);
}

static uint32_t table[4096];

/* a loop whose branches go one way almost always */
static uint32_t biased(unsigned rounds) {
  uint32_t h = 2166136261u;
  for (unsigned r = 0; r < rounds; r++)
    for (unsigned i = 0; i < 4096; i++) {
      uint32_t v = table[i];
      if (v % 97 == 0) h = mix(h, v); /* rare */
      else h += v ^ i;
      if ((i & 1023) == 1023) table[(h >> 7) & 4095] ^= h; /* 1 in 1024 */
    }
  return h;
}

/* a hot loop whose load faults at one iteration */
static int faulting(unsigned rounds, unsigned bad_at) {
  uint32_t *volatile p = table;
  volatile uint32_t sum = 0; /* (volatile: defined after the longjmp) */
  volatile unsigned i = 0;
  if (sigsetjmp(env, 1)) {
    printf("fault at iteration %u, si_addr %#lx, sum %u\n", i, (unsigned long)fault_addr, sum);
    return 1;
  }
  for (; i < rounds; i++) {
    if (i == bad_at) p = (uint32_t *)(uintptr_t)0x40;
    sum += p[i & 4095] + (i & 7 ? 1 : 3);
  }
  printf("no fault, sum %u\n", sum);
  return 0;
}

int main(void) {
  for (unsigned i = 0; i < 4096; i++) table[i] = i * 2654435761u;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  sa.sa_handler = NULL;
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  struct itimerval it = {{0, 5000}, {0, 5000}};
  setitimer(ITIMER_REAL, &it, NULL);
  uint32_t h = 0;
  for (int k = 0; k < 6; k++) {
    h ^= biased(300);
    printf("round %d: %08x\n", k, h);
  }
  faulting(30000000u, 29000000u);
  faulting(1000u, 5000u);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  printf("timer ticked: %s\n", ticks > 0 ? "yes" : "no");
  return 0;
}
