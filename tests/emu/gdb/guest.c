/* tests/emu/gdb/guest.c — the program gdb-multiarch debugs in the stub's
 * tests (run_gdb.py), against kit-emu -g and qemu-riscv64 -g: structs,
 * arrays, a call chain to break in and step through, global, heap and stack
 * values to watch, a SIGSEGV, a heap overflow, a spin loop for Ctrl-C, a fork,
 * an exit code. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct point {
  int x, y;
  const char *name;
};

int counter;
long table[5] = {1, 2, 3, 4, 5};
double scale = 1.5;
volatile int spin_stop;

__attribute__((noinline)) static int square(int v) {
  int r = v * v;
  return r;
}

__attribute__((noinline)) int sum(struct point *p, int n) {
  int total = 0;
  for (int i = 0; i < n; i++) total += square(p[i].x) + p[i].y;
  counter += total;
  return total;
}

__attribute__((noinline)) void bump(long *slot, long by) {
  long before = *slot;
  *slot = before + by;
}

static volatile int got_usr1;
static void on_usr1(int sig) { got_usr1 = sig; }

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "usr1")) { /* a signal with a handler: gdb stops before it runs */
    signal(SIGUSR1, on_usr1);
    raise(SIGUSR1);
    return got_usr1 == SIGUSR1 ? 10 : 11;
  }
  if (argc > 1 && !strcmp(argv[1], "fork")) { /* a child that runs square() without gdb */
    int st;
    pid_t child = fork();
    if (child == 0) _exit(square(9) == 81 ? 3 : 4);
    if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st) != 3) return 99;
  }
  struct point pts[3] = {{1, 2, "a"}, {3, 4, "b"}, {5, 6, "c"}};
  int s = sum(pts, 3);
  long *heap = malloc(4 * sizeof *heap);
  for (int i = 0; i < 4; i++) heap[i] = i * 10;
  if (argc > 1 && !strcmp(argv[1], "overflow")) heap[argc + 2] = 1; /* one past the end: ASan's report */
  long local = 7;
  bump(&heap[2], 89);
  bump(&table[1], s);
  double d = scale * s;
  bump(&local, 1);
  counter += 1;
  printf("sum %d %ld %ld %g\n", s, heap[2], local, d);
  fflush(stdout);
  if (argc > 1 && !strcmp(argv[1], "segv")) {
    volatile int *bad = (int *)16;
    *bad = 1;
  }
  if (argc > 1 && !strcmp(argv[1], "spin")) {
    while (!spin_stop) counter++;
  }
  free(heap);
  return (s + (int)local) & 0x3f;
}
