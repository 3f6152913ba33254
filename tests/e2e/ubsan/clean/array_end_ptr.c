#include <stdio.h>
int main(void) {
  int a[10];
  int *end = &a[10];
  int n = 0;
  for (int *p = a; p != end; p++) *p = n++;
  printf("%d\n", a[9]);
  return 0;
}
