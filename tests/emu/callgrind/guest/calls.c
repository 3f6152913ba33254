/* tests/emu/callgrind/guest/calls.c — a program whose call structure is
 * known: leaf() called 3 times from one_caller and 5 from other_caller,
 * recurse() 1 + 9 deep, apply() calling through a function pointer
 * (twice each of two targets), tail() ending in a tail call of leaf_tail()
 * at -O2 (4 times), a signal handler run 2 times, a longjmp out of two
 * frames, and work(), a loop with no call that makes main hold nearly all
 * of the program's cost. check_calls.py holds the expected calls= counts. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

#define NOIPA __attribute__((noipa))
static volatile int sink;
static jmp_buf jb;

NOIPA int leaf(int x) { return x * 3 + 1; }
NOIPA int one_caller(void) {
  int s = 0;
  for (int i = 0; i < 3; i++) s += leaf(i);
  return s;
}
NOIPA int other_caller(void) {
  int s = 0;
  for (int i = 0; i < 5; i++) s += leaf(i);
  return s;
}
NOIPA int recurse(int n) {
  if (!n) return 0;
  int r = recurse(n - 1);
  sink += r; /* after the call: no tail call, no loop */
  return r + 1;
}
NOIPA int twice(int x) { return 2 * x; }
NOIPA int square(int x) { return x * x; }
NOIPA int apply(int (*f)(int), int x) { return f(x) + 1; }
NOIPA int leaf_tail(int x) { return x + 7; }
NOIPA int tail(int x) { return leaf_tail(x * 5); }
NOIPA void handler(int sig) { sink += sig; }
NOIPA void jumper2(void) { longjmp(jb, 1); }
NOIPA void jumper1(void) {
  jumper2();
  sink++;
}

NOIPA int work(int n) {
  unsigned h = 1;
  for (int i = 0; i < n; i++) h = h * 31 + (unsigned)i;
  return (int)(h & 0xff);
}

int main(void) {
  int s = work(400000) + one_caller() + other_caller() + recurse(9);
  s += apply(twice, 3) + apply(square, 4) + apply(twice, 5) + apply(square, 6);
  for (int i = 0; i < 4; i++) s += tail(i);
  signal(SIGUSR1, handler);
  raise(SIGUSR1);
  raise(SIGUSR1);
  if (!setjmp(jb)) jumper1();
  s += recurse(2);
  printf("%d %d\n", s, sink);
  return 0;
}
