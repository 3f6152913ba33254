/* a VLA and alloca filled then read */
#include <alloca.h>
#include <stdio.h>
__attribute__((noinline)) static int fill(int n) {
  int v[n];
  int *w = alloca(n * sizeof(int));
  for (int i = 0; i < n; i++) v[i] = w[i] = i;
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i] + w[i];
  return s;
}
int main(void) { return fill(10) != 90; }
