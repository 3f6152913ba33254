/* origins: an uninitialized value through a parameter and a return value
 * (clang's lazy mode, -fno-sanitize-memory-param-retval, passes their origins
 * in __msan_param_origin_tls and __msan_retval_origin_tls); the report names
 * the local's allocation */
#include <stdio.h>
__attribute__((noinline)) static void maybe_set(int *p, int c) { if (c) *p = 1; }
__attribute__((noinline)) static int twice(int v) { return v * 2; }
int main(int argc, char **argv) {
  (void)argv;
  int x;
  maybe_set(&x, argc > 5);
  if (twice(x) > 3) puts("big");
  return 0;
}
