/* glibc declares memcpy and strlen __nonnull: calls to them are checked, the
 * note names the header */
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  (void)argv;
  char buf[8] = "abc";
  char *n = argc > 5 ? buf : NULL;
  memcpy(buf, n, 0);
  printf("%s\n", buf);
  char *m = argc > 6 ? buf : NULL;
  memset(m, 0, 0);
  return 0;
}
