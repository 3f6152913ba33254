/* lanes must be a power of two */
typedef int z __attribute__((vector_size(12)));
