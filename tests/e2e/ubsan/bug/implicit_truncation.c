// FLAGS: -fsanitize=implicit-conversion
/* implicit-integer-truncation: initialization, assignment, argument and
 * return conversions to narrower types, signed and unsigned, typedef names */
#include <stdint.h>
#include <stdio.h>
static unsigned char narrow(int x) { return x; }
static void take(short s) { printf("%d\n", s); }
int main(int argc, char **argv) {
  (void)argv;
  int v = argc + 255;
  unsigned char c = v;
  signed char s = v + 100;
  long l = 1L << 40 | (long)argc;
  int32_t t = l;
  uint64_t big = (uint64_t)argc << 33;
  uint16_t w = big;
  take(v * 200);
  printf("%d %d %d %u %d\n", c, s, t, w, narrow(v));
  return 0;
}
