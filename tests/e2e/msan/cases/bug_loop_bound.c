/* a loop bound never set */
#include <stdio.h>
__attribute__((noinline)) static int sum(int *n) {
  int s = 0;
  for (int i = 0; i < *n; i++) s += i;
  return s;
}
int main(void) {
  int n;
  printf("%d\n", sum(&n) > 0);
  return 0;
}
