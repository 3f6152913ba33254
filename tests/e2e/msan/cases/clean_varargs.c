/* va_arg reads what the caller passed */
#include <stdarg.h>
#include <stdio.h>
__attribute__((noinline)) static long sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
int main(void) {
  if (sum(5, 1, 2, 3, 4, 5) != 15) puts("wrong");
  return 0;
}
