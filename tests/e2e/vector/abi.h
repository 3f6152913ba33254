/* tests/e2e/vector/abi.h — the vector types and functions abi_a.c defines
 * and abi_b.c calls (run.sh builds each side with kitcc or gcc) */
typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef short v4hi __attribute__((vector_size(8)));
typedef long long v1di __attribute__((vector_size(8)));
typedef float v2sf __attribute__((vector_size(8)));
typedef char v4qi __attribute__((vector_size(4)));
typedef short v2hi __attribute__((vector_size(4)));
typedef int v8si __attribute__((vector_size(32)));
typedef double v4df __attribute__((vector_size(32)));
struct sv { v4si v; };                 /* one XMM register (SSE + SSEUP) */
struct sv2 { v2sf a; int b; };         /* XMM + general register */
struct sv3 { v4hi a; v1di b; };        /* two XMM registers */
struct sbig { v4si a; int b; };        /* memory */

v4si a_add4(v4si x, v4si y);
v4sf a_mulf(v4sf x, v4sf y, float k);
v2df a_mix(int i, v2df x, double d, v2df y, long l);
v4hi a_hi(v4hi x, v1di y, v2sf *out, v2sf f);
v4qi a_qi(v4qi x, v2hi y, int k);
v8si a_big(v8si x, int k, v8si y);
v4df a_bigd(v4df x, double k);
v4si a_many(v4si a, v4si b, v4si c, v4si d, v4si e, v4si f, v4si g, v4si h, v4si i, v4si j, int k);
struct sv a_sv(struct sv x, struct sv y);
struct sv2 a_sv2(struct sv2 x);
struct sv3 a_sv3(struct sv3 x, struct sv3 y);
struct sbig a_sbig(struct sbig x, int k);
v4si a_callback(v4si (*f)(v4si, v2df), v4si x);
v4si b_cb(v4si x, v2df d);
v4si a_va(int n, ...);
v4si a_late(v4si a, v4si b, v4si c, v4si d, v4si e, v4si f, v4si g, struct sv s, v2sf t, struct sv u);
