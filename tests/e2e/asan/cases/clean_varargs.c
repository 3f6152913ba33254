/* tests/e2e/asan/cases/clean_varargs.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
static long total(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, long);
  va_end(ap);
  return s;
}
int main(void) {
  char buf[64];
  snprintf(buf, sizeof buf, "%d %s %f", 42, "x", 1.5);
  return total(5, 1L, 2L, 3L, 4L, 5L) != 15 || buf[0] != '4';
}
// CLEAN
