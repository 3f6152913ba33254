/* tests/tools/examples_guest.c — a riscv64 guest that knows its own
 * numbers, for tests/tools/examples.sh: exactly GETPPID_CALLS getppid calls,
 * CLOSE_ERRORS failing close calls (EBADF), SINK_N 32-bit stores of known
 * values (SINK_VALUE) to a volatile array and SINK_N loads back, and a loop
 * of HOT_ITERS iterations in hot_loop (the hottest block). The test reads
 * these numbers from the #defines below. */
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GETPPID_CALLS 23
#define CLOSE_ERRORS 7
#define SINK_N 40
#define SINK_BASE 0x5eed0000u
#define SINK_STEP 0x101u
#define SINK_VALUE(i) (SINK_BASE + (uint32_t)(i) * SINK_STEP)
#define HOT_ITERS 200000

volatile uint32_t sink[SINK_N];

__attribute__((noinline)) static uint32_t hot_loop(uint32_t n) {
  uint32_t x = 1;
  for (uint32_t i = 0; i < n; i++) x = x * 1103515245u + 12345u;
  return x;
}

int main(void) {
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
