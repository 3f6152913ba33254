/* tests/e2e/asan/cases/clean_vla.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
static int sum(int n) {
  int v[n];
  for (int i = 0; i < n; i++) v[i] = i;
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}
int main(void) {
  int t = 0;
  for (int n = 1; n < 50; n++) t += sum(n);
  return t == 0;
}
// CLEAN
