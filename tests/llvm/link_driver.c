/* tests/llvm/link_driver.c — C side of link.cg: calls the CG functions and
 * is called back by them; prints one line per ABI case for link.sh. */
#include <stdio.h>

struct LL { long q, r; };
struct DD { double a, b; };
struct S { long a, b, c; };

struct LL cg_divmod(long, long);
struct DD cg_twice(double);
long cg_sum3(struct S);
double cg_poly(double);
long cg_callback(long);
struct S cg_make(long);

double host_scale(double x) { return x * 10; }
struct LL host_pair(long x) { return (struct LL){x + 1, x * 2}; }
long host_sum3(struct S s) { return s.a * 100 + s.b * 10 + s.c; }

int main(void) {
  struct LL d = cg_divmod(-47, 5);
  printf("divmod %ld %ld\n", d.q, d.r);
  struct DD t = cg_twice(1.25);
  printf("twice %g %g\n", t.a, t.b);
  printf("sum3 %ld\n", cg_sum3((struct S){1, 2, 3}));
  printf("poly %g\n", cg_poly(0.5));
  printf("callback %ld\n", cg_callback(4));
  struct S m = cg_make(3);
  printf("sret %ld %ld %ld\n", m.a, m.b, m.c);
  return 0;
}
