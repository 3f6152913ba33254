/* tests/kitcc/knr/defs.c — K&R definitions, with and without a prototype in
 * scope; calls.c calls them (built by kitcc or gcc, see knr.sh). */
#include <stddef.h>
#include <stdio.h>

/* a prototype, then a K&R definition: callers convert to size_t (C11 6.5.2.2p7) */
void proto_first(size_t n, unsigned flags);
void proto_first(n, flags) size_t n; unsigned flags; { printf("proto_first %zx %u\n", n, flags); }

/* the prototype's types are the promoted K&R types: compatible (C11 6.7.6.3p15) */
void proto_promoted(int c, double x, unsigned u);
void proto_promoted(c, x, u) int c; double x; unsigned u; { printf("proto_promoted %d %g %u\n", c, x, u); }

/* no prototype: callers pass the default promotions, the callee converts back */
void kr_narrow(c, x, s, uc, l) char c; float x; short s; unsigned char uc; long l;
{ printf("kr_narrow %d %g %d %d %ld\n", c, x, s, uc, l); }

long long kr_wide(a, p, d) long long a; const char *p; double d; { printf("kr_wide %lld %s %g\n", a, p, d); return a * 2; }

/* a K&R definition, then a prototype of the promoted types (float as double) */
void kr_then_proto(n, f) size_t n; float f; { printf("kr_then_proto %zx %g\n", n, f); }
void kr_then_proto(size_t n, double f);

static void local_proto(size_t n, int k);
static void local_proto(n, k) size_t n; int k; { printf("local_proto %zx %d\n", n, k); }

void call_here(void) {
  /* calls in the defining file after the definition use the prototype too */
  local_proto(-1, 5);
  proto_first(-2, 7);
  void (*fp)(size_t, int) = local_proto;
  fp(-3, 9);
  kr_then_proto(-4, 2.5f);
}
