/* tests/kitcc/multi/sse_a.c — the SSE intrinsics in two units of one kitcc
 * command: the builtins' vector types must belong to each unit (zstd's
 * datagen crashed kitcc in the second file) */
#include <xmmintrin.h>
float add_a(float x, float y) { return _mm_cvtss_f32(_mm_add_ss(_mm_set_ss(x), _mm_set_ss(y))); }
