#include <stdio.h>
struct S {
  short v[5];
  int n;
};
int main(int argc, char **argv) {
  (void)argv;
  struct S s = {0};
  s.v[argc + 5] = 3;
  printf("%d\n", s.n);
  return 0;
}
