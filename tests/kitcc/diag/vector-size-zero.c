/* a vector size must be positive */
typedef int z __attribute__((vector_size(0)));
