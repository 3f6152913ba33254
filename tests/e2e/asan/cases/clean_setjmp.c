/* tests/e2e/asan/cases/clean_setjmp.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <setjmp.h>
static jmp_buf env;
static void deep(int n) {
  char pad[40];
  memset(pad, n, sizeof pad);
  if (n == 0) longjmp(env, 1);
  deep(n - 1);
}
static int use_stack(void) { char b[64]; memset(b, 2, sizeof b); return b[63]; }
int main(void) {
  if (setjmp(env) == 0) deep(5);
  return use_stack() != 2;
}
// CLEAN
