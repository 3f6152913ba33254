/* tests/kitcc/multi/sse_b.c — see sse_a.c */
#include <stdio.h>
#include <xmmintrin.h>
float add_a(float, float);
int main(void) {
  float b = _mm_cvtss_f32(_mm_mul_ss(_mm_set_ss(3.0f), _mm_set_ss(4.0f)));
  printf("%g %g\n", add_a(1.5f, 2.0f), b);
  return 0;
}
