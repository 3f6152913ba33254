/* tests/e2e/asan/cases/clean_bypassed_scope.c — a clean program: locals whose declaration a
 * case label or a goto jumps past (legal C: only initialisation is skipped) are in scope
 * for ASan; no report, exit 0. */
// CLEAN
#include <stdio.h>
#include <stdlib.h>
static void set(int *p, int v) { *p = v; }
static int by_switch(int op, int n) {
  int r = 0;
  switch (op) {
    int t;
  case 1:
    set(&t, n * 2);
    r = t;
    break;
  case 2:
    set(&t, n + 1);
    r = t;
    break;
  }
  return r;
}
static int by_goto(int n) {
  int s = 0;
  goto inside;
  while (n > 0) {
    int k;
  inside:
    set(&k, n);
    s += k;
    n--;
  }
  return s;
}
int main(void) {
  if (by_switch(1, 5) != 10 || by_switch(2, 5) != 6 || by_goto(3) != 6) abort();
  puts("ok");
  return 0;
}
