/* tests/e2e/asan/cases/clean_locals_by_pointer.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
static void fill(int *a, int n) { for (int i = 0; i < n; i++) a[i] = i; }
static int last(const char *s, int n) { return s[n - 1]; }
int main(void) {
  int a[7];
  char s[5] = "abcd";
  fill(a, 7);
  int x = 3, *px = &x;
  *px += a[6];
  return x != 9 || last(s, 5) != 0;
}
// CLEAN
