// FLAGS: -fsanitize=implicit-conversion
/* conversions that keep the value, explicit casts, index arithmetic and
 * promotions: no report under implicit-conversion */
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  int v = argc + 100;
  unsigned char c = v;
  unsigned char e = (unsigned char)(v + 1000);
  unsigned u = (unsigned)(argc - 2);
  int a[4] = {1, 2, 3, 4};
  unsigned long i = (unsigned long)argc;
  long x = a[i + 1] + c;
  unsigned short us = 65535;
  int promoted = us + 1;
  signed char sc = -5;
  long wide = sc;
  printf("%d %d %u %ld %d %ld\n", c, e, u, x, promoted, wide);
  return 0;
}
