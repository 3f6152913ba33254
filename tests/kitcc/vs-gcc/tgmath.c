/* <tgmath.h> (glibc's, on gcc's __builtin_tgmath): each macro calls the float,
 * double, long double or complex function that C11 7.25 picks from its
 * arguments; the long double fmin/fmax/fma builtins beside */
#include <stdio.h>
#include <tgmath.h>

int main(void) {
  float f = 2.0f;
  double d = 2.0;
  long double l = 2.0L;
  double complex z = 1.0 + 2.0 * I;
  float complex zf = 3.0f - 1.0f * I;
  printf("sizes %zu %zu %zu %zu %zu %zu %zu\n", sizeof sqrt(f), sizeof sqrt(d), sizeof sqrt(l), sizeof sqrt(3),
         sizeof pow(f, 2), sizeof pow(f, 2.0f), sizeof sqrt(zf));
  printf("%.6g %.9g %.12Lg %.6g\n", sqrt(f), sqrt(d), sqrt(l), sqrt(2));
  printf("%.6g %.9g %.6Lg\n", pow(f, 0.5f), pow(d, 3), pow(l, 0.25L));
  printf("%.9g%+.9gi %.6g%+.6gi\n", creal(sqrt(z)), cimag(sqrt(z)), crealf(exp(zf)), cimagf(exp(zf)));
  printf("fabs %.9g carg %.9g %.9g\n", fabs(z), carg(z), carg(d));
  printf("fmin %.9g fmax %.9Lg fma %.9g\n", fmin(f, d), fmax(l, 1.5), fma(d, 3, f));
  printf("l %.12Lg %.12Lg %.12Lg\n", __builtin_fminl(l, 1.25L), __builtin_fmaxl(l, 7.5L),
         __builtin_fmal(l, 3.0L, 0.5L));
  printf("frexp %.9g ldexp %.9g\n", frexp(d, &(int){0}), ldexp(f, 3));
  return 0;
}
