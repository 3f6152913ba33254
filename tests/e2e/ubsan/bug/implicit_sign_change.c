// FLAGS: -fsanitize=implicit-integer-sign-change
/* implicit-integer-sign-change: same width, widening to unsigned, the usual
 * arithmetic conversions of a comparison, narrowing from unsigned to signed */
#include <stdint.h>
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  unsigned u = argc - 2;
  int32_t i32 = argc - 2;
  uint64_t w = i32;
  int back = u;
  int cmp = argc - 2 < 1u;
  signed char sc = 200u + (unsigned)argc;
  long ok = u;
  printf("%u %lu %d %d %d %ld\n", u, (unsigned long)w, back, cmp, sc, ok);
  return 0;
}
