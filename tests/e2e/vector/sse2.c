/* tests/e2e/vector/sse2.c — common SSE2 intrinsics of <emmintrin.h> (gcc's header,
 * whose __builtin_ia32_* kitcc maps), printed: run.sh compares kitcc's output
 * with gcc's and clang-16's. */
#include <emmintrin.h>
#include <stdio.h>
#include <string.h>
static void pi(const char *n, __m128i v) { int a[4]; _mm_storeu_si128((__m128i *)a, v); printf("%s: %d %d %d %d\n", n, a[0], a[1], a[2], a[3]); }
static void pb(const char *n, __m128i v) { unsigned char a[16]; _mm_storeu_si128((__m128i *)a, v); printf("%s:", n); for (int i = 0; i < 16; i++) printf(" %02x", a[i]); printf("\n"); }
int main(void) {
  char buf[40];
  for (int i = 0; i < 40; i++) buf[i] = (char)(i * 7);
  __m128i x = _mm_loadu_si128((const __m128i *)(buf + 1));
  __m128i y = _mm_set_epi32(1, -2, 3, 0x7fffffff);
  pi("set", y); pb("load", x);
  pi("add", _mm_add_epi32(x, y)); pi("sub", _mm_sub_epi32(x, y));
  pb("cmpeq8", _mm_cmpeq_epi8(x, _mm_set1_epi8(14)));
  printf("movemask: %x\n", _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(14))));
  printf("movemask2: %x\n", _mm_movemask_epi8(x));
  pi("and", _mm_and_si128(x, y)); pi("or", _mm_or_si128(x, y)); pi("andnot", _mm_andnot_si128(x, y));
  pi("shuf", _mm_shuffle_epi32(y, _MM_SHUFFLE(0, 1, 2, 3)));
  pb("unpacklo8", _mm_unpacklo_epi8(x, y)); pb("unpackhi16", _mm_unpackhi_epi16(x, y));
  pi("slli", _mm_slli_epi32(y, 3)); pi("srai", _mm_srai_epi32(y, 4)); pi("srli", _mm_srli_epi32(y, 4));
  pb("slli_si128", _mm_slli_si128(x, 3)); pb("srli_si128", _mm_srli_si128(x, 5));
  pb("adds_epu8", _mm_adds_epu8(x, x)); pb("subs_epi8", _mm_subs_epi8(x, y));
  pb("max_epu8", _mm_max_epu8(x, y)); pi("mullo16", _mm_mullo_epi16(x, y)); pi("mulhi16", _mm_mulhi_epi16(x, y));
  pi("madd", _mm_madd_epi16(x, y)); pi("sad", _mm_sad_epu8(x, y)); pb("packs", _mm_packs_epi16(x, y));
  pb("packus", _mm_packus_epi16(x, y)); pi("mul_epu32", _mm_mul_epu32(x, y)); pb("avg", _mm_avg_epu8(x, y));
  pi("cmpgt32", _mm_cmpgt_epi32(x, y)); pi("cmplt32", _mm_cmplt_epi32(x, y));
  printf("cvtsi: %d %d\n", _mm_cvtsi128_si32(y), _mm_extract_epi16(y, 5));
  pi("insert", _mm_insert_epi16(y, 77, 2));
  __m128 a = _mm_set_ps(1.5f, -2.0f, 3.0f, 4.25f), b = _mm_set1_ps(2.0f);
  float f[4]; _mm_storeu_ps(f, _mm_add_ps(a, b)); printf("add_ps: %g %g %g %g\n", f[0], f[1], f[2], f[3]);
  _mm_storeu_ps(f, _mm_mul_ps(a, b)); printf("mul_ps: %g %g %g %g\n", f[0], f[1], f[2], f[3]);
  _mm_storeu_ps(f, _mm_shuffle_ps(a, b, 0x1b)); printf("shuffle_ps: %g %g %g %g\n", f[0], f[1], f[2], f[3]);
  _mm_storeu_ps(f, _mm_min_ps(a, b)); printf("min_ps: %g %g %g %g\n", f[0], f[1], f[2], f[3]);
  _mm_storeu_ps(f, _mm_sqrt_ps(b)); printf("sqrt_ps: %g\n", f[0]);
  printf("movemask_ps: %d cmplt %d\n", _mm_movemask_ps(a), _mm_movemask_ps(_mm_cmplt_ps(a, b)));
  pi("cvtps", _mm_cvtps_epi32(a)); pi("cvttps", _mm_cvttps_epi32(a));
  _mm_storeu_ps(f, _mm_cvtepi32_ps(y)); printf("cvtepi32_ps: %g %g\n", f[0], f[1]);
  __m128d c = _mm_set_pd(1.25, -3.5), d = _mm_set1_pd(0.5);
  double g[2]; _mm_storeu_pd(g, _mm_add_pd(c, d)); printf("add_pd: %g %g\n", g[0], g[1]);
  _mm_storeu_pd(g, _mm_mul_pd(c, d)); printf("mul_pd: %g %g\n", g[0], g[1]);
  _mm_storeu_pd(g, _mm_add_sd(c, d)); printf("add_sd: %g %g\n", g[0], g[1]);
  printf("cvtsd: %d %g\n", _mm_cvtsd_si32(c), _mm_cvtsd_f64(c));
  pi("zero", _mm_setzero_si128()); pi("set1", _mm_set1_epi32(-9));
  __m128i z = _mm_set_epi64x(0x1122334455667788LL, 0x99aabbccddeeff00LL);
  pb("epi64", z); pb("unpacklo64", _mm_unpacklo_epi64(z, x));
  _mm_storel_epi64((__m128i *)buf, z); printf("storel: %d\n", buf[0]);
  return 0;
}
