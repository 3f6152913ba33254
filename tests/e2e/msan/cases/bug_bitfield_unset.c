/* one bit-field set, its neighbour read */
#include <stdio.h>
struct F { unsigned a : 3, b : 5; };
__attribute__((noinline)) static void set_a(struct F *f) { f->a = 2; }
int main(void) {
  struct F f;
  set_a(&f);
  if (f.b == 4) puts("four");
  return f.a - 2;
}
