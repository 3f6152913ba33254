/* tests/tools/examples_guest.c — a riscv64 guest that knows its own
 * numbers, for tests/tools/examples.sh: exactly GETPPID_CALLS getppid calls,
 * CLOSE_ERRORS failing close calls (EBADF), SINK_N 32-bit stores of known
 * values (SINK_VALUE) to a volatile array and SINK_N loads back, and a loop
 * of HOT_ITERS iterations in hot_loop (the hottest block). With the
 * argument "faults" it makes FAULTS loads from an unmapped address instead,
 * each one a SIGSEGV that the handler leaves by siglongjmp. The test reads
 * these numbers from the #defines below. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GETPPID_CALLS 23
#define CLOSE_ERRORS 7
#define SINK_N 40
#define SINK_BASE 0x5eed0000u
#define SINK_STEP 0x101u
#define SINK_VALUE(i) (SINK_BASE + (uint32_t)(i) * SINK_STEP)
#define HOT_ITERS 200000
#define FAULTS 9

volatile uint32_t sink[SINK_N];

__attribute__((noinline)) static uint32_t hot_loop(uint32_t n) {
  uint32_t x = 1;
  for (uint32_t i = 0; i < n; i++) x = x * 1103515245u + 12345u;
  return x;
}

static sigjmp_buf recover;

static void on_segv(int sig) {
  (void)sig;
  siglongjmp(recover, 1);
}

static int faults(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_segv;
  sigaction(SIGSEGV, &sa, NULL);
  volatile int faulted = 0; /* volatile: live across siglongjmp */
  volatile uint32_t sum = 0;
  for (volatile int i = 0; i < FAULTS; i++)
    if (sigsetjmp(recover, 1)) faulted++;
    else sum += *(volatile uint32_t *)(uintptr_t)(0x40 + 8 * i);
  printf("guest: faults %d sum %u\n", faulted, sum);
  return faulted == FAULTS ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "faults")) return faults();
  long ppid = 0;
  for (int i = 0; i < GETPPID_CALLS; i++) ppid += syscall(SYS_getppid);
  int errors = 0;
  for (int i = 0; i < CLOSE_ERRORS; i++) errors += syscall(SYS_close, -1) < 0;
  for (int i = 0; i < SINK_N; i++) sink[i] = SINK_VALUE(i);
  uint32_t sum = 0;
  for (int i = 0; i < SINK_N; i++) sum += sink[i];
  uint32_t x = hot_loop(HOT_ITERS);
  printf("guest: ppid-sum %ld close-errors %d sink-sum %#x hot %#x\n", ppid, errors, sum, x);
  return 0;
}
