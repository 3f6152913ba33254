/* tests/kitcc/fuzz-seeds/features.c: a seed for the frontend fuzzer that
 * touches most of C11 and the GNU extensions kitcc accepts */
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define STR(x) #x
#define CAT(a, b) a##b
#define VA(fmt, ...) printf(fmt, ##__VA_ARGS__)
#if defined(__GNUC__) && __STDC_VERSION__ >= 201112L
#define HAVE_GNU 1
#else
#define HAVE_GNU 0
#endif
int printf(const char *, ...);
typedef unsigned long size_t;
typedef struct Node { struct Node *next; int val : 7; unsigned flag : 1; long long wide : 40; } Node;
union U { int i; float f; char c[4]; };
enum Color { RED, GREEN = 5, BLUE };
struct Flex { int n; double d[]; };
static const int table[] = {[2] = 3, [0] = 1, 7};
static struct { int a; char *s; } named = {.s = "hi", .a = 2};
_Static_assert(sizeof(int) == 4, "int");
static int sum(int n, ...) {
  __builtin_va_list ap;
  __builtin_va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += __builtin_va_arg(ap, int);
  __builtin_va_end(ap);
  return s;
}
static inline int sq(int x) { return x * x; }
int apply(int (*f)(int), int x) { return f(x); }
int vla(int n, int m[n][n]) {
  int a[n];
  for (int i = 0; i < n; i++) a[i] = m[i][i];
  return a[n - 1] + (int)sizeof a;
}
int main(void) {
  Node n1 = {0, 3, 1, -5}, n2 = {&n1, -4, 0, 1LL << 35};
  union U u = {.f = 1.5f};
  enum Color c = BLUE;
  int m[2][2] = {{1, 2}, {3, 4}};
  int x = ({ int t = MAX(3, 4); t * 2; });
  __typeof__(x) y = _Generic(x, int: 1, default: 2);
  char s[] = STR(hello) "world";
  long CAT(v, 1) = 10L << 2;
  double d = 0x1.8p3 + 1e-3 + .5;
  switch (c) {
  case RED: x++; break;
  case GREEN ... BLUE: x--;
  default: goto out;
  }
out:
  for (Node *p = &n2; p; p = p->next) x += p->val + p->flag + (int)p->wide;
  x += sum(3, 1, 2, 3) + apply(sq, 4) + vla(2, m) + table[1] + named.a + u.c[0];
  x += _Alignof(double) + sizeof(struct Flex) + (c == BLUE ? 1 : 0) + s[3] + (int)d + (int)v1 + y;
  unsigned char uc = 255; uc += 1; x ^= uc << 3 | ~x & 0xff;
  _Bool b = x != 0; x = b ? x % 7 : x / 3;
  do { x <<= 1; } while (x < 100 && HAVE_GNU);
  VA("%d\n", x);
  VA("done\n");
  return x > 0 ? 0 : 1;
}
