#include <stdio.h>
static int sum(int n) {
  char buf[n];
  int s = 0;
  for (int i = 0; i < n; i++) s += buf[i] = (char)i;
  return s;
}
int main(void) {
  printf("%d\n", sum(4));
  printf("%d\n", sum(-3));
  return 0;
}
