/* GNU cast to a union type: `(union U) x` makes the union whose member of
 * x's type holds x; usable as a value, an argument and in an initializer. */
#include <stdio.h>

typedef union { unsigned long long d; struct { unsigned h, l; } s; double f; int i; } U;

static unsigned long long bits(U u) { return u.d; }
static int first(U u) { return u.i; }

int main(void) {
  U a = (U)1.5;
  U b = (U)0x100000002ULL;
  struct { unsigned h, l; } hl = {7, 9};
  printf("%llx %u %u\n", a.d, b.s.h, b.s.l);
  printf("%llx %d\n", bits((U)0x1234567890ULL), first((U)42));
  printf("%d\n", ((U)3).i);
  (void)hl;
  return 0;
}
