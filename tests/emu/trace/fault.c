/* tests/emu/trace/fault.c — loads that fault in the middle of a hot block
 * (4 times, caught by a SIGSEGV handler that longjmps out): the
 * instructions after the faulting load did not retire, so a trace must say
 * so (PARTIAL records) for its instruction count to be insncount's; then 3
 * ebreaks and 3 illegal instructions, which trap. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static sigjmp_buf env;
static int table[64];
static int *volatile ptr;

static void on_segv(int sig) { siglongjmp(env, sig); }

int main(void) {
  signal(SIGSEGV, on_segv);
  long sum = 0;
  volatile int faults = 0;
  for (int r = 0; r < 20000; r++) {
    ptr = r % 5000 == 4999 ? (int *)0x40 : table;
    if (sigsetjmp(env, 1)) {
      faults++;
      continue;
    }
    int *p = ptr;
    sum += r * 3;
    sum += p[r & 63];
    sum ^= r;
    table[r & 63] = (int)sum;
  }
  /* traps (an ebreak, an illegal instruction) count as run, as insncount counts them */
  signal(SIGTRAP, on_segv);
  signal(SIGILL, on_segv);
  for (int r = 0; r < 3; r++) {
    if (!sigsetjmp(env, 1)) __asm__ volatile("ebreak");
    else faults++;
    if (!sigsetjmp(env, 1)) __asm__ volatile(".word 0");
    else faults++;
  }
  printf("sum %ld, %d faults and traps\n", sum, faults);
  return 0;
}
