/* an ia32 builtin with the wrong number of arguments */
typedef int v4si __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
int f(v4si a) { return __builtin_ia32_pmovmskb128(); }
