/* tests/kitcc/fuzz-seeds/decls.c: declarators, initializers, K&R functions
 * and qualifiers, a seed for the frontend fuzzer */
typedef int (*fnptr)(int, char **);
int (*signal_like(int sig, void (*handler)(int)))(int);
char *const *volatile pp;
int arr[3][4] = {{1}, [2][1] = 5};
struct P { short x, y; } pts[] = {{1, 2}, {.y = 3}, 4, 5};
extern int later;
int later = sizeof pts / sizeof pts[0];
const char *names[] = {"a", "bc", [5] = "f"};
int old_style(a, b) int a; char *b; { return a + *b; }
static _Thread_local int tls;
_Alignas(32) static char aligned[10];
struct Outer { struct { int a, b; }; union { long l; double d; }; int tail[]; };
int f(const int *restrict p, int n) {
  register int acc = 0;
  static int calls;
  calls++;
  while (n--) acc += *p++;
  if (acc > 10) return acc; else if (acc < 0) return -acc;
  return acc + calls + tls + aligned[0];
}
void g(void) {
  struct Outer o = {.a = 1, .l = 2};
  int *q = &o.b, **qq = &q;
  **qq = 3;
  float fl = (float)o.a / 3;
  long double ld = fl * 2.0L;
  (void)ld;
  __auto_type z = o.a + o.b;
  (void)z;
  int k = 0;
  for (;;) { if (++k > 3) break; else continue; }
  void *lbl = &&done;
  goto *lbl;
done:
  return;
}
