/* the implicit-conversion group is not part of -fsanitize=undefined (as in
 * clang): value-changing conversions print nothing; nor does a conversion
 * that keeps the value, or an explicit cast, under implicit-conversion */
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  int v = argc + 255;
  unsigned char c = v;
  unsigned u = argc - 2;
  unsigned char e = (unsigned char)(v + 1);
  short fits = v;
  printf("%d %u %d %d\n", c, u, e, fits);
  return 0;
}
