/* vector operands must have one shape */
typedef int v4si __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
int f(v4si a, v8hi h) { return (a == h)[0]; }
