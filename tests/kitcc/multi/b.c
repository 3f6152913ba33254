/* tests/kitcc/multi/b.c — the second unit of the multi-file test (see a.c). */
#include <stdarg.h>
int sum_b(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
