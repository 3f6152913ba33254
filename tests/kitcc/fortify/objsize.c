/* tests/kitcc/fortify/objsize.c — __builtin_object_size and
 * __builtin_dynamic_object_size where gcc's and LLVM's answers agree: whole
 * objects, offsets into them, malloc'd blocks, and unknown pointers. */
#include <stdio.h>
#include <stdlib.h>

static char global[40];

__attribute__((noinline)) static size_t unknown(char *p, int type) {
  switch (type) {
  case 0: return __builtin_object_size(p, 0);
  case 1: return __builtin_object_size(p, 1);
  case 2: return __builtin_object_size(p, 2);
  default: return __builtin_object_size(p, 3);
  }
}

static inline __attribute__((always_inline)) size_t seen_through_inlining(char *p) {
  return __builtin_object_size(p, 0);
}

int main(int argc, char **argv) {
  (void)argv;
  char local[24];
  int ints[5];
  printf("local %zu %zu %zu %zu\n", __builtin_object_size(local, 0), __builtin_object_size(local, 1),
         __builtin_object_size(local, 2), __builtin_object_size(local, 3));
  printf("offset %zu %zu\n", __builtin_object_size(local + 10, 0), __builtin_object_size(&local[20], 2));
  printf("ints %zu %zu\n", __builtin_object_size(ints, 0), __builtin_object_size(&ints[1], 0));
  printf("global %zu %zu\n", __builtin_object_size(global, 0), __builtin_object_size(global + 39, 1));
  char *m = malloc(17);
  printf("malloc %zu %zu\n", __builtin_object_size(m, 0), __builtin_dynamic_object_size(m, 0));
  char *d = malloc(10 + (size_t)argc);
  printf("dynamic %zu\n", __builtin_dynamic_object_size(d, 0));
  printf("unknown %zu %zu %zu %zu\n", unknown(local, 0), unknown(local, 1), unknown(local, 2), unknown(local, 3));
  printf("inlined %zu\n", seen_through_inlining(local + 4));
  printf("const %d\n", __builtin_object_size(local, 0) == sizeof local);
  char *q = local;
  size_t se0 = __builtin_object_size(q++, 0), se2 = __builtin_object_size(q++, 2);
  printf("side effects %zu %zu %td\n", se0, se2, q - local); /* not evaluated */
  free(m);
  free(d);
  return 0;
}
