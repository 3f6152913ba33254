/* array-bounds on pointer arithmetic: a - n is index -n (zlib's infcover
 * passes ZLIB_VERSION - 1 on purpose), a string literal is an array too, and
 * a + n is reported at the operator (a[n] at the array) */
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  char a[7] = "abcdef";
  const char *p = a - 1;
  const char *q = "hello" - 1;
  const char *r = a + 8;
  const char *s = a - argc;
  printf("%d %d %d %d\n", p != 0, q != 0, r != 0, s != 0);
  return 0;
}
