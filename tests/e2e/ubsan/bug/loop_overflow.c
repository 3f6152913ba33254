#include <stdio.h>
static int fact(int n) {
  int r = 1;
  for (int i = 2; i <= n; i++) r *= i;
  return r;
}
int main(void) {
  printf("%d\n", fact(13));
  printf("%d\n", fact(14));
  return 0;
}
