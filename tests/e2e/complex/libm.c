/* tests/e2e/complex/libm.c — complex values passed to and returned from glibc's
 * libm (cexp, csqrt, cpow, clog, csin, cproj, cabs, carg and their f/l forms):
 * kitcc's side of the SysV complex ABI against gcc-built code. The inputs are
 * volatile so that gcc does not fold the calls with MPC at compile time. */
#include <stdio.h>
#include <complex.h>
#include <math.h>
int main(void) {
  volatile double vr = 1.0, vi = 2.0; double complex z = vr + vi * I;
  float complex f = 0.5f - (float)vi * 0.75f * I;
  long double complex l = 2.0L * vr + 0.5L * I;
  double complex r[] = {cexp(z), csqrt(z), cpow(z, 2.0), clog(z), csin(z), cproj(z)};
  for (int i = 0; i < 6; i++) printf("%a %a\n", creal(r[i]), cimag(r[i]));
  printf("%a %a %a\n", cabs(z), carg(z), (double)cabsf(f));
  float complex fr = cexpf(f); printf("%a %a\n", (double)crealf(fr), (double)cimagf(fr));
  long double complex lr = csqrtl(l); printf("%La %La %La\n", creall(lr), cimagl(lr), cabsl(l));
  lr = cexpl(l) * conjl(l); printf("%La %La\n", creall(lr), cimagl(lr));
  return 0;
}
