/* nonnull without arguments: every pointer parameter; the location of an
 * argument under an implicit conversion, and a call through a pointer (not
 * checked, as in clang) */
#include <stdio.h>
int count(void *p, long n, const char *s) __attribute__((__nonnull__));
int count(void *p, long n, const char *s) { return (p != 0) + (int)n + (s != 0); }
int main(int argc, char **argv) {
  (void)argv;
  char buf[4] = "abc";
  char *n = argc > 5 ? buf : NULL;
  int (*fp)(void *, long, const char *) = count;
  printf("%d\n", fp(n, 1, n));
  printf("%d\n", count(argc > 7 ? buf : n, 1, buf));
  printf("%d\n", count(buf, 2, n));
  return 0;
}
