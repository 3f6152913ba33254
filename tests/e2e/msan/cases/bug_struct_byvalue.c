/* a struct passed by value with a member unset, the member used by the callee */
#include <stdio.h>
struct Q { int a, b; };
__attribute__((noinline)) static void set_a(struct Q *q) { q->a = 1; }
__attribute__((noinline)) static int second(struct Q q) { return q.b ? 1 : 2; }
int main(void) {
  struct Q q;
  set_a(&q);
  printf("%d\n", second(q));
  return 0;
}
