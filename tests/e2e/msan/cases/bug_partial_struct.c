/* one member of two set, the other used */
#include <stdio.h>
struct P { int a, b; };
__attribute__((noinline)) static void set_a(struct P *p) { p->a = 1; }
int main(void) {
  struct P p;
  set_a(&p);
  if (p.b > 0) puts("b positive");
  return p.a - 1;
}
