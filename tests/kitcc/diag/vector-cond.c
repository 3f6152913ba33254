/* a condition cannot be a vector (gcc C) */
typedef int v4si __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
int f(v4si a) { if (a) return 1; return 0; }
