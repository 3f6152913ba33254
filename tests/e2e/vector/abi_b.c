/* tests/e2e/vector/abi_b.c — the caller side of the vector ABI test: calls
 * every function of abi_a.c and prints the lanes */
#include <stdio.h>

#include "abi.h"

v4si b_cb(v4si x, v2df d) { return x * (int)(d[0] * 2) + (int)d[1]; }

static void p4(const char *n, v4si v) { printf("%s: %d %d %d %d\n", n, v[0], v[1], v[2], v[3]); }

int main(void) {
  p4("add4", a_add4((v4si){1, 2, 3, 4}, (v4si){-5, 6, -7, 8}));
  v4sf f = a_mulf((v4sf){1.5f, 2, 3, 4}, (v4sf){2, 0.5f, -1, 8}, 0.25f);
  printf("mulf: %g %g %g %g\n", f[0], f[1], f[2], f[3]);
  v2df d = a_mix(3, (v2df){1.25, -2}, 4.0, (v2df){0.5, 8}, 100);
  printf("mix: %g %g\n", d[0], d[1]);
  v2sf out;
  v4hi h = a_hi((v4hi){1, -2, 3, -4}, (v1di){1000}, &out, (v2sf){1.5f, -3});
  printf("hi: %d %d %d %d out %g %g\n", h[0], h[1], h[2], h[3], out[0], out[1]);
  v4qi q = a_qi((v4qi){1, 2, 3, 4}, (v2hi){10, 20}, 5);
  printf("qi: %d %d %d %d\n", q[0], q[1], q[2], q[3]);
  v8si b = a_big((v8si){1, 2, 3, 4, 5, 6, 7, 8}, 3, (v8si){8, 7, 6, 5, 4, 3, 2, 1});
  printf("big: %d %d %d %d %d %d %d %d\n", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
  v4df bd = a_bigd((v4df){1, 2, 3, 4}, 8);
  printf("bigd: %g %g %g %g\n", bd[0], bd[1], bd[2], bd[3]);
  v4si one = {1, 10, 100, 1000};
  p4("many", a_many(one, one, one, one, one, one, one, one, one, (v4si){0, 0, 0, 1}, 7));
  struct sv s = a_sv((struct sv){{9, 8, 7, 6}}, (struct sv){{1, 2, 3, 4}});
  p4("sv", s.v);
  struct sv2 s2 = a_sv2((struct sv2){{1.5f, 2.5f}, 41});
  printf("sv2: %g %g %d\n", s2.a[0], s2.a[1], s2.b);
  struct sv3 s3 = a_sv3((struct sv3){{1, 2, 3, 4}, {100}}, (struct sv3){{10, 20, 30, 40}, {1}});
  printf("sv3: %d %d %d %d %lld\n", s3.a[0], s3.a[1], s3.a[2], s3.a[3], s3.b[0]);
  struct sbig sb = a_sbig((struct sbig){{1, 2, 3, 4}, 5}, 3);
  printf("sbig: %d %d %d %d %d\n", sb.a[0], sb.a[1], sb.a[2], sb.a[3], sb.b);
  p4("callback", a_callback(b_cb, (v4si){1, 2, 3, 4}));
  v4si u = {1, 2, 3, 4};
  struct sv w = {{10, 20, 30, 40}};
  v2sf t = {1.5f, 2};
  p4("late", a_late(u, u, u, u, u, u, u, w, t, w));
  p4("va", a_va(5, u, w, t, 7, u * 2, w, t * 2, 8, u, w, t, 9, u, w, t, 10, u + 1, w, t, 11));
  return 0;
}
