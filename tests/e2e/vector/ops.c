/* tests/e2e/vector/ops.c — GNU vector operators lane by lane, printed: run.sh
 * compares kitcc's output with gcc's and clang-16's (clang spells constant
 * shuffles __builtin_shufflevector and has no variable-mask shuffle). */
#include <stdio.h>

#ifdef __clang__
#define SHUF1(a, i, j, k, l) __builtin_shufflevector(a, a, i, j, k, l)
#define SHUF2(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define SHUF1(a, i, j, k, l) __builtin_shuffle(a, (v4si){i, j, k, l})
#define SHUF2(a, b, i, j, k, l) __builtin_shuffle(a, b, (v4si){i, j, k, l})
#endif
typedef int v4si __attribute__((vector_size(16)));
typedef unsigned int v4su __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
typedef signed char v16qi __attribute__((vector_size(16)));
typedef long long v2di __attribute__((vector_size(16)));
typedef int v2si __attribute__((vector_size(8)));
typedef int v8si __attribute__((vector_size(32)));
typedef char v4qi __attribute__((vector_size(4)));

static void p4(const char *n, v4si v) { printf("%s: %d %d %d %d\n", n, v[0], v[1], v[2], v[3]); }
static void pf(const char *n, v4sf v) { printf("%s: %g %g %g %g\n", n, v[0], v[1], v[2], v[3]); }
v4si add(v4si a, v4si b) { return a + b; }
v8si add8(v8si a, v8si b) { return a + b; }
v2si add2(v2si a, v2si b) { return a * b; }
v4qi add4q(v4qi a, v4qi b) { return a - b; }
struct S { v4si v; };
struct S sadd(struct S a, struct S b) { a.v += b.v; return a; }
v4si g = {10, 20, 30, 40};

int main(void) {
  v4si a = {1, 2, 3, 4}, b = (v4si){5, -6, 7, -8};
  p4("add", a + b); p4("sub", a - b); p4("mul", a * b); p4("div", b / a); p4("mod", b % a);
  p4("and", a & b); p4("or", a | b); p4("xor", a ^ b); p4("not", ~a); p4("neg", -b);
  p4("shl", a << 2); p4("shr", b >> 1); p4("shlv", a << a);
  p4("bcast", a + 10); p4("bcast2", 100 - a);
  p4("lt", a < b); p4("eq", a == (v4si){1, 0, 3, 0}); p4("ge", a >= 3);
  v4su u = (v4su)b; printf("ushr: %u %u\n", (u >> 28)[0], (u >> 28)[1]);
  v4sf f = {1.5f, -2.0f, 3.25f, 0.5f};
  pf("fadd", f + f); pf("fmul", f * 2); pf("fdiv", f / (v4sf){2, 4, 8, 16}); p4("flt", f < 1);
  a[2] = 99; p4("sub[]", a);
  int i = 3; a[i] += 1; p4("sub[i]", a);
  p4("call", add(a, b)); p4("global", g + 1);
  v8si x = {1,2,3,4,5,6,7,8}; v8si y = add8(x, x); printf("v8: %d %d\n", y[0], y[7]);
  v2si s2 = add2((v2si){3, 4}, (v2si){5, 6}); printf("v2: %d %d\n", s2[0], s2[1]);
  v4qi q = add4q((v4qi){10, 20, 30, 40}, (v4qi){1, 2, 3, 4}); printf("v4q: %d %d %d %d\n", q[0], q[1], q[2], q[3]);
  struct S s = sadd((struct S){a}, (struct S){b}); p4("struct", s.v);
  p4("shuf", SHUF1(a, 3, 2, 1, 0));
  p4("shuf2", SHUF2(a, b, 0, 4, 1, 5));
#ifndef __clang__
  v4si m = {1, 1, 0, 0}, m2 = {7, 0, 5, 2};
  p4("shufd", __builtin_shuffle(a, m));
  p4("shufd2", __builtin_shuffle(a, b, m2));
#else
  p4("shufd", (v4si){a[1], a[1], a[0], a[0]});
  p4("shufd2", (v4si){b[3], a[0], b[1], a[2]});
#endif
  pf("cvt", __builtin_convertvector(a, v4sf));
  p4("cvt2", __builtin_convertvector(f, v4si));
  v2di d = (v2di)a; printf("v2di: %llx %llx\n", (unsigned long long)d[0], (unsigned long long)d[1]);
  __int128 w = (__int128)a; printf("i128: %llx\n", (unsigned long long)(w >> 64));
  printf("sizeof %zu %zu %zu align %zu %zu\n", sizeof(v4si), sizeof(v8si), sizeof(v2si), _Alignof(v4si), _Alignof(v2si));
  v8hi h = {1, -2, 3, -4, 5, -6, 7, -8}; h = h * h; printf("v8hi: %d %d\n", h[1], h[7]);
  v16qi c = {0}; c += 127; c += 1; printf("v16qi: %d\n", c[5]);
  v2df dd = {1.0 / 3, -2.5};
  v2df dq = dd * dd - 1;
  printf("v2df: %.17g %.17g lt %lld %lld\n", dq[0], dq[1], (dd < 0)[0], (dd < 0)[1]);
  v4si cv = a[0] > 2 ? b : a; /* a scalar condition choosing a whole vector (gcc's C has no vector one) */
  p4("cond", cv);
  struct { int k; v4si v; char c; } sv = {3, {7, 8, 9, 10}, 'x'};
  printf("struct member: %d %d %zu\n", sv.v[3], sv.k, sizeof sv);
  static v4si garr[2] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  p4("garr", garr[0] + garr[1]);
  v4su big = {0xffffffffu, 0x80000000u, 7, 0};
  printf("unsigned: %u %u %u %u\n", (big / 3)[0], (big >> 31)[1], (big % 4)[2], (big > 5)[3] + 2u);
  v8si wide = __builtin_shufflevector(a, b, 7, 6, 5, 4, 3, 2, 1, 0); /* gcc 12 and clang */
  v2si narrow = __builtin_shufflevector(a, a, 3, 1);
  printf("shufflevector: %d %d %d %d | %d %d\n", wide[0], wide[3], wide[4], wide[7], narrow[0], narrow[1]);
  v8si w8 = {1, -2, 3, -4, 5, -6, 7, -8};
  w8 = w8 * w8 + w8;
  printf("v8si: %d %d %d %d\n", w8[0], w8[1], w8[6], w8[7]);
  return 0;
}
