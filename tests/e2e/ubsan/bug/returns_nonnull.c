/* returns_nonnull: the return statement that returns null is reported */
#include <stdio.h>
static int cell;
__attribute__((returns_nonnull)) static int *get(int argc) {
  if (argc > 5) return &cell;
  return argc > 6 ? &cell : NULL;
}
int main(int argc, char **argv) {
  (void)argv;
  int *p = get(argc);
  printf("%d\n", p == &cell);
  return 0;
}
