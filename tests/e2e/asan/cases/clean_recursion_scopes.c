/* tests/e2e/asan/cases/clean_recursion_scopes.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
static int rec(int n) {
  char buf[24];
  memset(buf, n, sizeof buf);
  if (n == 0) return buf[23];
  int r = rec(n - 1) + buf[0];
  for (int i = 0; i < 3; i++) { int t[3] = {i, i, i}; int *p = t; r += p[2]; }
  return r;
}
int main(void) { return rec(20) != 270; }
// CLEAN
