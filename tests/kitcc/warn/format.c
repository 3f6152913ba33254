/* -Wformat: printf/scanf formats against their arguments */
#include <stdio.h>

void f(int i, long l, double d, const char *s, unsigned u, char *buf, size_t n) {
  printf("%d\n", i);
  printf("%d\n", l);
  printf("%ld %s\n", l, s);
  printf("%s\n", i);
  printf("%f %g\n", d, d);
  printf("%d %d\n", i);
  printf("%d\n", i, i);
  printf("%u %x %lu %zu\n", u, u, (unsigned long)n, n);
  printf("%p %%\n", (void *)s);
  fprintf(stderr, "%s %d\n", s, s);
  snprintf(buf, n, "%d", d);
  sprintf(buf, "%c %5.2f %-3d", i, d, i);
  scanf("%d", &i);
  scanf("%d", i);
  scanf("%ld %s", &l, buf);
  printf(s);
  printf("%lld\n", (long long)i);
  printf("%hhd %hd\n", i, i);
}
