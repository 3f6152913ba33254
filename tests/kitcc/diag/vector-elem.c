/* no vectors of structs */
struct S { int a; };
typedef struct S z __attribute__((vector_size(16)));
