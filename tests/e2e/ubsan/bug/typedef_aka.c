#include <stdint.h>
#include <stdio.h>
typedef int myint;
int main(void) {
  volatile int64_t a = INT64_MAX;
  int64_t b = a + 1;
  myint c = 2147483647;
  c = c + (myint)1;
  const int k = 2147483647;
  int d = k + 1;
  printf("%ld %d %d\n", b, c, d);
  return 0;
}
