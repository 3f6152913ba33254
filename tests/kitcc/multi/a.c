/* tests/kitcc/multi/a.c — with b.c, compiled and linked by one kitcc command:
 * each translation unit starts from a fresh frontend state. */
#include <stdarg.h>
#include <stdio.h>
int sum_b(int n, ...);
static int sum_a(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
int main(void) {
  int a = sum_a(3, 1, 2, 3), b = sum_b(2, 10, 20);
  printf("%d %d\n", a, b);
  return a == 6 && b == 30 ? 0 : 1;
}
