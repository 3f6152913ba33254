#include <stdio.h>
int main(int argc, char **argv) {
  int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int *end = a + 8, s = 0;
  for (int *p = end - 1; p >= a + 1; p -= argc) s += *p;
  char *last = argv[0] + 0;
  volatile int n = 3;
  int vla[n];
  for (int i = 0; i < n; i++) vla[i] = i;
  printf("%d %c %d\n", s, *last ? 'y' : 'n', vla[2]);
  return 0;
}
