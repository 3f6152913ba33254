/* origins: a heap allocation's uninitialized field copied through a struct
 * returned in registers (its shadow and origin in __msan_retval_tls) */
#include <stdio.h>
#include <stdlib.h>
struct pair { long a, b; };
__attribute__((noinline)) static struct pair get(const struct pair *p) { return *p; }
int main(void) {
  struct pair *p = malloc(sizeof *p);
  p->a = 1;
  struct pair q = get(p);
  if (q.b) puts("b");
  free(p);
  return (int)q.a - 1;
}
