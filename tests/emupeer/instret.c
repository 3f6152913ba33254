/* tests/emupeer/instret.c — an ordinary libc program (stdio, malloc, qsort,
 * signal handlers, loads that fault in the middle of a block) that ends by reading instret and exiting in one asm block
 * of a fixed 11 instructions (the same tail as insncount.S). The harness
 * checks that --tool=insncount reports exactly the value read plus 11: the
 * guest's own view of retired instructions and the tool's agree across libc
 * start-up, the dynamic linker, signal delivery and faults. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int got;
static void on_usr1(int sig) { got += sig; }
static sigjmp_buf jb;
static void on_segv(int sig) { siglongjmp(jb, sig); }

/* a load that faults in the middle of a straight-line run: the instructions
 * after it in the same block never retire */
__attribute__((noinline)) static long fault_mid_block(volatile long *p, long a) {
  long r;
  __asm__ volatile("addi %0, %1, 1\n\t"
                   "addi %0, %0, 1\n\t"
                   "ld %0, 0(%2)\n\t"
                   "addi %0, %0, 1\n\t"
                   "addi %0, %0, 1\n\t"
                   "addi %0, %0, 1\n\t"
                   : "=&r"(r) : "r"(a), "r"(p) : "memory");
  return r;
}

static int cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 5000;
  uint32_t *v = malloc(n * sizeof *v), s = 12345;
  for (unsigned i = 0; i < n; i++) v[i] = s = s * 1103515245u + 12345u;
  qsort(v, n, sizeof *v, cmp);
  signal(SIGUSR1, on_usr1);
  raise(SIGUSR1);
  signal(SIGSEGV, on_segv);
  for (int i = 0; i < (argc > 2 ? atoi(argv[2]) : 0); i++)
    if (!sigsetjmp(jb, 1)) got += (int)fault_mid_block((volatile long *)(uintptr_t)(16 + i), i);
  char buf[64];
  snprintf(buf, sizeof buf, "%u %u %u %d\n", v[0], v[n / 2], v[n - 1], got);
  fputs(buf, stdout);
  fflush(stdout);
  free(v);
  __asm__ volatile("rdinstret t2\n\t"
                   "sub t3, t2, zero\n\t"
                   "sd t3, -8(sp)\n\t"
                   "li a0, 1\n\t"
                   "addi a1, sp, -8\n\t"
                   "li a2, 8\n\t"
                   "li a7, 64\n\t"
                   "ecall\n\t"
                   "li a0, 0\n\t"
                   "li a7, 93\n\t"
                   "ecall\n\t" ::: "memory", "t2", "t3", "a0", "a1", "a2", "a7");
  return 1; /* not reached */
}
