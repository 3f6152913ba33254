/* tests/e2e/vector/abi_a.c — the callee side of the vector ABI test */
#include "abi.h"

v4si a_add4(v4si x, v4si y) { return x + y * 3; }
v4sf a_mulf(v4sf x, v4sf y, float k) { return x * y + k; }
v2df a_mix(int i, v2df x, double d, v2df y, long l) { return x * d + y + (double)(i + l); }
v4hi a_hi(v4hi x, v1di y, v2sf *out, v2sf f) {
  *out = f * 2;
  return x + (short)y[0];
}
v4qi a_qi(v4qi x, v2hi y, int k) { return x + (char)(y[0] + y[1] + k); }
v8si a_big(v8si x, int k, v8si y) { return x * k - y; }
v4df a_bigd(v4df x, double k) { return x / k; }
v4si a_many(v4si a, v4si b, v4si c, v4si d, v4si e, v4si f, v4si g, v4si h, v4si i, v4si j, int k) {
  return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + i * 9 + j * 10 + k;
}
struct sv a_sv(struct sv x, struct sv y) {
  x.v -= y.v;
  return x;
}
struct sv2 a_sv2(struct sv2 x) {
  x.a = x.a * 3;
  x.b += 1;
  return x;
}
struct sv3 a_sv3(struct sv3 x, struct sv3 y) {
  x.a += y.a;
  x.b -= y.b;
  return x;
}
struct sbig a_sbig(struct sbig x, int k) {
  x.a += k;
  x.b *= k;
  return x;
}
v4si a_callback(v4si (*f)(v4si, v2df), v4si x) { return f(x, (v2df){1.5, -2.5}) + 1; }

/* variadic: 16-byte vectors (and a struct of one) in XMM slots, 8-byte ones as doubles, then memory */
#include <stdarg.h>
v4si a_va(int n, ...) {
  va_list ap;
  va_start(ap, n);
  v4si acc = {0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    acc += va_arg(ap, v4si) * (i + 1);
    struct sv s = va_arg(ap, struct sv);
    acc -= s.v;
    v2sf f = va_arg(ap, v2sf);
    acc[0] += (int)(f[0] * 10 + f[1]);
    acc[1] += va_arg(ap, int);
  }
  va_end(ap);
  return acc;
}

/* the last XMM register goes to s (a struct of one vector); t and u then go to memory */
v4si a_late(v4si a, v4si b, v4si c, v4si d, v4si e, v4si f, v4si g, struct sv s, v2sf t, struct sv u) {
  return a + b + c + d + e + f + g + s.v * 100 + (int)(t[0] * t[1]) + u.v * 1000;
}
