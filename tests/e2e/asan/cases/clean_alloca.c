/* tests/e2e/asan/cases/clean_alloca.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <alloca.h>
static int f(int n) {
  char *p = alloca(n);
  memset(p, 1, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}
int main(void) { return f(33) + f(1) != 34; }
// CLEAN
