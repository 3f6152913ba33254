/* float arithmetic, conversions and libm */
#include <math.h>
#include <stdio.h>
int main(void) {
  double d[8];
  float f = 0.5f;
  for (int i = 0; i < 8; i++) d[i] = sqrt((double)i) + f;
  int e;
  double m = frexp(d[7], &e);
  long k = (long)(d[4] * 10);
  if (e != 2 || m <= 0 || k != 25) puts("wrong");
  return 0;
}
