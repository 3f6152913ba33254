/* tests/e2e/vector/unsupported.c — a __builtin_ia32_* kitcc does not map
 * (SSSE3's pshufb) must be a clean error naming it; unused ones in the
 * headers are not (run.sh builds it with and without -DUSE_IT) */
#include <tmmintrin.h>

int main(void) {
  __m128i x = _mm_set1_epi8(3);
#ifdef USE_IT
  x = (__m128i)__builtin_ia32_pshufb128((__v16qi)x, (__v16qi)x);
#endif
  return _mm_cvtsi128_si32(x) == 0x03030303 ? 0 : 1;
}
