/* tests/llvm/argattrs_driver.c — C side of argattrs.cg: the callees, called
 * once directly by gcc-compiled C and once indirectly by the CG code. */
#include <stdio.h>

typedef struct S { long a, b, c; } S;

S combine(S x, long k, S y) { return (S){x.a * k + y.a, x.b + y.b, x.c - y.c}; }
long many(long a, long b, long c, long d, long e, signed char f, S s) {
  return a + b * 10 + c * 100 + d * 1000 + e * 10000 + (long)f * 100000 + s.a + s.b * 3 + s.c * 7;
}

long cg_apply(S (*fn)(S, long, S), long k);
long cg_many(long (*fn)(long, long, long, long, long, signed char, S));

int main(void) {
  S r = combine((S){7, 20, 300}, 7, (S){-4, 50, 600});
  printf("apply %ld %ld\n", r.a * 1000000 + r.b * 1000 + r.c, cg_apply(combine, 7));
  printf("many %ld %ld\n", many(1, 2, 3, 4, 5, -7, (S){1, 2, 3}), cg_many(many));
  return 0;
}
