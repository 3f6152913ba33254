/* tests/emu/guest/floats.c — printf of floats and a little libm. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  double x = 1.0;
  for (int i = 1; i < 20; i++) x = x * 1.5 + 1.0 / i;
  printf("%f %e %g %.17g\n", x, x, x, x);
  printf("%.3f %.3f %.3f\n", sqrt(2.0), sin(1.0), exp(1.0));
  float f = 0.1f;
  for (int i = 0; i < 10; i++) f += 0.1f;
  printf("%.9g %a\n", (double)f, (double)f);
  printf("%g %g %g\n", strtod("3.25e2", NULL), -0.0, 1.0 / 3);
  printf("%d %ld\n", (int)(x * 1000) % 1000, lround(-2.5));
  return 0;
}
