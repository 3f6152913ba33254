/* tests/e2e/complex/arith.c — C11 _Complex arithmetic, printed exactly (%a)
 * so that kitcc's build must match gcc's bit for bit: + - * / of every
 * floating complex type with complex and real operands (gcc computes with a
 * real operand itself), imaginary constants, infinities and NaNs (libgcc's
 * __mul?c3/__div?c3 recovery), signed zeros, conversions, op=, comparisons,
 * GNU complex integers and ++/--, initializers, varargs, _Generic,
 * sizeof/_Alignof. */
#include <complex.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* NaN signs depend on operand order inside the FPU: print every NaN alike */
static void pd(const char *tag, double _Complex z) {
  double p[2] = {creal(z), cimag(z)};
  printf("%s:", tag);
  for (int i = 0; i < 2; i++) isnan(p[i]) ? printf(" nan") : printf(" %a", p[i]);
  printf("\n");
}
static void pf(const char *tag, float _Complex z) {
  float p[2] = {crealf(z), cimagf(z)};
  printf("%s:", tag);
  for (int i = 0; i < 2; i++) isnan(p[i]) ? printf(" nan") : printf(" %a", (double)p[i]);
  printf("\n");
}
static void pl(const char *tag, long double _Complex z) {
  long double p[2] = {creall(z), cimagl(z)};
  printf("%s:", tag);
  for (int i = 0; i < 2; i++) isnan(p[i]) ? printf(" nan") : printf(" %La", p[i]);
  printf("\n");
}

/* volatile inputs: neither compiler folds the arithmetic at compile time */
static volatile double vals[] = {0.0, -0.0, 1.0, -2.5, 3.0, 1e308, 1e-310, INFINITY, -INFINITY, NAN};
enum { NVALS = sizeof vals / sizeof vals[0] };
static volatile double vr = 1.5, vi = -0.75, vz = 0.0, vinf = INFINITY;

#define OPS(T, P, MK, x, y, tag)                                      \
  do {                                                                \
    T a_ = (x), b_ = (y);                                             \
    P(tag " +", a_ + b_);                                             \
    P(tag " -", a_ - b_);                                             \
    P(tag " *", a_ * b_);                                             \
    P(tag " /", a_ / b_);                                             \
  } while (0)

static void general(void) {
  /* every pair of a few complex values, both parts from vals[] */
  for (int i = 0; i < NVALS; i += 2)
    for (int j = 1; j < NVALS; j += 3)
      for (int k = 0; k < NVALS; k += 3) {
        double _Complex a = CMPLX(vals[i], vals[j]), b = CMPLX(vals[k], vals[(k + i + 1) % NVALS]);
        char tag[32];
        snprintf(tag, sizeof tag, "d %d %d %d", i, j, k);
        printf("%s\n", tag);
        OPS(double _Complex, pd, CMPLX, a, b, "  ");
        OPS(float _Complex, pf, CMPLXF, (float _Complex)a, (float _Complex)b, "  f");
        OPS(long double _Complex, pl, CMPLXL, (long double _Complex)a, (long double _Complex)b, "  l");
      }
}

/* a real operand leaves the other part alone (signed zeros, infinities); I is a complex */
static void shaped(void) {
  for (int i = 0; i < NVALS; i++)
    for (int k = 0; k < NVALS; k += 2) {
      double x = vals[i];
      double _Complex z = CMPLX(vals[k], vals[(k + 3) % NVALS]);
      printf("shape %d %d\n", i, k);
      pd(" z+x", z + x);
      pd(" x+z", x + z);
      pd(" z-x", z - x);
      pd(" x-z", x - z);
      pd(" z*x", z * x);
      pd(" x*z", x * z);
      pd(" z/x", z / x);
      pd(" x/z", x / z);
      pd(" x*I", x * I);
      pd(" z*I", z * I);
      pd(" I*z", I * z);
      pd(" z/I", z / I);
      pd(" x+yI", x + vals[k] * I);
      pd(" (x*I)*(x*I)", (x * I) * (x * I));
      pd(" (x*I)/(2*I)", (x * I) / (2.0 * I));
      pf(" f z*x", (float _Complex)z * (float)x);
      pl(" l x/z", (long double)x / (long double _Complex)z);
    }
}

static void unary_and_conv(void) {
  double _Complex z = CMPLX(vr, vi);
  pd("neg", -z);
  pd("conj", conj(z));
  pd("~", ~z);
  pd("+", +z);
  pf("conjf", conjf((float _Complex)z));
  pl("conjl", conjl((long double _Complex)z));
  printf("creal %a cimag %a\n", creal(z), cimag(z));
  printf("__real__ %a __imag__ %a\n", __real__ z, __imag__ z);
  printf("__imag__ of a real %a, __real__ of a real %a\n", __imag__ vr, __real__ vr);
  double d = z; /* the real part */
  int n = (int)(z * 3.0);
  _Bool b1 = z, b0 = CMPLX(vz, vz), bi = CMPLX(vz, vi), bn = CMPLX(NAN, vz);
  printf("to double %a, to int %d, to _Bool %d %d %d %d\n", d, n, b1, b0, bi, bn);
  printf("!z %d, z && 1 %d, if: %s\n", !z, z && 1, CMPLX(vz, vz) ? "yes" : "no");
  float _Complex f = z;
  long double _Complex l = f;
  pf("narrow", f);
  pl("widen", l);
  pd("from int", (double _Complex)7);
  _Complex int ci = (_Complex int)CMPLX(-2.75, 3.5);
  printf("complex int from double complex: %d %d\n", __real__ ci, __imag__ ci);
  pd("complex double from complex int", (double _Complex)ci);
  printf("== %d %d != %d %d\n", z == z, z == conj(z), z != z, z != conj(z));
  printf("== real %d %d\n", CMPLX(vr, vz) == vr, CMPLX(vr, -0.0) == vr);
  printf("nan == nan %d, nan != nan %d\n", CMPLX(NAN, vz) == CMPLX(NAN, vz), CMPLX(NAN, vz) != CMPLX(NAN, vz));
}

static void lvalues_and_assign(void) {
  double _Complex z = 0;
  __real__ z = vr;
  __imag__ z = vi;
  pd("parts set", z);
  __real__ z += 1;
  __imag__ z *= 4;
  pd("parts op=", z);
  double *pr = &__real__ z, *pi = &__imag__ z;
  *pr = -*pi;
  pd("through pointers", z);
  double _Complex w = z;
  w += 2.0;
  pd("+= real", w);
  w -= I;
  pd("-= I", w);
  w *= z;
  pd("*= z", w);
  w /= 3.0;
  pd("/= real", w);
  w /= z;
  pd("/= z", w);
  double d = vr;
  d += z; /* d = creal(d + z) */
  printf("double += complex %a\n", d);
  float _Complex f = 1.0f;
  f *= z; /* computed in double _Complex */
  pf("float complex *= double complex", f);
  double _Complex arr[3] = {1, 2 * I, CMPLX(vr, vi)};
  arr[1] += arr[2];
  for (int i = 0; i < 3; i++) pd("array", arr[i]);
  double _Complex *p = arr;
  p[0] = *(p + 2) * p[1];
  pd("p[0]", p[0]);
  double _Complex cond = vr > 0 ? z : w;
  pd("?:", cond);
  pd("?: real", vr < 0 ? z : vr);
  pd("comma", (z, w));
  pd("assign value", (z = w));
  double _Complex pre = ++z, post = z--; /* GNU: the real part steps */
  pd("++z", pre);
  pd("z--", post);
  pd("z", z);
}

static void integers(void) {
  volatile int a = 7, b = -3, c = 2, e = 5;
  _Complex int x = a + b * 1i, y = c + e * 1i;
  _Complex int s = x + y, d = x - y, m = x * y, q = x / y, n = -x, cj = ~x;
  printf("int + %d %d - %d %d * %d %d / %d %d neg %d %d conj %d %d\n", __real__ s, __imag__ s, __real__ d,
         __imag__ d, __real__ m, __imag__ m, __real__ q, __imag__ q, __real__ n, __imag__ n, __real__ cj, __imag__ cj);
  _Complex long l = x;
  l *= 100000;
  printf("long %ld %ld\n", __real__ l, __imag__ l);
  _Complex unsigned char uc = 250 + 3i;
  uc += 10;
  printf("uchar %d %d size %zu\n", __real__ uc, __imag__ uc, sizeof uc);
  _Complex short sh = x;
  printf("short %d %d, == %d\n", __real__ sh, __imag__ sh, sh == x);
  _Complex char c1 = 100 + 1i, c2 = 100 - 2i;
  _Complex short s1 = 1;
  _Complex unsigned char u1 = 200;
  printf("sizes %zu %zu %zu %zu %zu\n", sizeof(c1 + c2), sizeof(c1 * s1), sizeof(-c1), sizeof(u1 + 1), sizeof(u1 + c1));
  y = (c + 10) + (e * 3) * 1i;
  q = y / x;
  printf("int / %d %d\n", __real__ q, __imag__ q);
}

/* initializers: static (constant-folded by the compiler) and automatic */
static double _Complex g1 = 1.0 + 2.0i;
static float _Complex g2 = 3.0f - 1.5if;
static long double _Complex g3 = 0.1L + 0.7Li;
static double _Complex g4 = 2.0 * (3.0 - 1.0i) / (1.0 + 1.0i);
static double _Complex g5 = 5; /* a real */
static double _Complex g6 = {-1.25};
static _Complex int g7 = 4 - 9i;
static double _Complex garr[] = {1, 1.0i, -1, -1.0i, 0.5 + 0.25i};
static struct {
  char c;
  double _Complex z;
  float _Complex f[2];
  _Complex short s;
} gs = {'x', 3.0 + 4.0i, {1.0f, 2.0if}, 2 + 3i};
static double gr = __real__ (6.0 + 7.0i);
/* folded with the real operands as the lowering computes them: signed zeros */
static double _Complex gz[] = {1.0 - 0.0i, -3 * I, 2.0 - 3.0 * I, (1.0 + 2.0i) / 4.0, 5.0 / (1.0 + 2.0i), -0.0 + 1.0i,
                               0.0i - 1.0, -(0.0 - 1.0i), ~(1.0 + 0.0i)};
static float _Complex gzf[] = {1.0f / 3.0if, (1.0f + 2.0if) * (3.0f - 1.0if)};
static long double _Complex gzl = 1.0L / (3.0L + 7.0Li);
static double _Complex *gp = &garr[2];

static void initializers(void) {
  pd("g1", g1);
  pf("g2", g2);
  pl("g3", g3);
  pd("g4", g4);
  pd("g5", g5);
  pd("g6", g6);
  printf("g7 %d %d\n", __real__ g7, __imag__ g7);
  for (unsigned i = 0; i < sizeof garr / sizeof garr[0]; i++) pd("garr", garr[i]);
  printf("gs %c", gs.c);
  pd("", gs.z);
  pf("gs.f0", gs.f[0]);
  pf("gs.f1", gs.f[1]);
  printf("gs.s %d %d gr %a\n", __real__ gs.s, __imag__ gs.s, gr);
  pd("*gp", *gp);
  for (unsigned i = 0; i < sizeof gz / sizeof gz[0]; i++) pd("gz", gz[i]);
  pf("gzf0", gzf[0]);
  pf("gzf1", gzf[1]);
  pl("gzl", gzl);
  static long double _Complex ls = 1.0L / 3.0L + 2.0Li;
  pl("local static", ls);
  double _Complex a1 = vr + vi * I, a2 = {vr}, a3[2] = {[1] = vi * I};
  struct {
    int n;
    double _Complex z;
  } as = {1, CMPLX(vr, vi)}, bs = {.z = 2.0i};
  pd("auto", a1);
  pd("auto brace", a2);
  pd("auto array0", a3[0]);
  pd("auto array1", a3[1]);
  pd("auto struct", as.z);
  pd("auto struct designated", bs.z);
  double _Complex cl = (double _Complex){vi};
  pd("compound literal", cl);
}

static void varargs(int n, ...) {
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    pf("va f", va_arg(ap, float _Complex));
    pd("va d", va_arg(ap, double _Complex));
    pl("va l", va_arg(ap, long double _Complex));
    _Complex int ci = va_arg(ap, _Complex int);
    printf("va i %d %d, then %d\n", __real__ ci, __imag__ ci, va_arg(ap, int));
  }
  va_end(ap);
}

#define KIND(x) _Generic((x), float _Complex: "float _Complex", double _Complex: "double _Complex", \
                         long double _Complex: "long double _Complex", _Complex int: "_Complex int", \
                         double: "double", default: "other")

static void types(void) {
  float _Complex f = 0;
  double _Complex d = 0;
  long double _Complex l = 0;
  _Complex int i = 0;
  printf("sizeof %zu %zu %zu %zu align %zu %zu %zu %zu\n", sizeof f, sizeof d, sizeof l, sizeof i, _Alignof(float _Complex),
         _Alignof(double _Complex), _Alignof(long double _Complex), _Alignof(_Complex int));
  printf("%s %s %s %s %s %s %s\n", KIND(f), KIND(d), KIND(l), KIND(i), KIND(f + 1.0), KIND(f * 2.0f), KIND(i + 1.0));
  printf("%s %s %s %s\n", KIND(1.0i), KIND(1.0fi), KIND(1.0Li), KIND(2i));
  printf("%s %s\n", KIND(creal(d)), KIND(__real__ l));
  printf("%s\n", KIND((_Complex double)1));
}

int main(void) {
  general();
  shaped();
  unary_and_conv();
  lvalues_and_assign();
  integers();
  initializers();
  varargs(2, CMPLXF(1.0f, -2.0f), CMPLX(vr, vi), CMPLXL(0.5L, 0.25L), 3 + 4i, 11, CMPLXF(vr, vi), 3.0i, (long double _Complex)1.0L,
          -1 - 1i, 12);
  types();
  return 0;
}
