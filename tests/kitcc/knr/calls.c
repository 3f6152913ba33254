/* tests/kitcc/knr/calls.c — calls to defs.c's K&R definitions through a
 * prototype and without one. */
#include <stddef.h>
#include <stdio.h>

void proto_first(size_t n, unsigned flags);
void proto_promoted(int c, double x, unsigned u);
void kr_narrow();
long long kr_wide();
void kr_then_proto(size_t n, double f);
void call_here(void);

int main(void) {
  proto_first(-1, 3);
  proto_first(0x123456789ull, 4);
  proto_promoted('A', 1.5f, -1);
  kr_narrow('z', 2.25f, (short)-300, 200, 1234567890123L);
  kr_narrow(-5, (float)0.1, 32767, 255, -1L);
  printf("%lld\n", kr_wide(1LL << 40, "str", 3.0f));
  kr_then_proto(-5, 0.25);
  call_here();
  return 0;
}
