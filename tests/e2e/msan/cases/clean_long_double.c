/* long double values through memory, arithmetic and calls */
#include <stdio.h>
__attribute__((noinline)) static long double half(long double *x) { return *x / 2; }
int main(void) {
  long double a = 3.0L, arr[3];
  for (int i = 0; i < 3; i++) arr[i] = a * i;
  if (half(&arr[2]) != 3.0L) puts("wrong");
  return 0;
}
