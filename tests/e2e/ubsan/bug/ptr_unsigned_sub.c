#include <stdint.h>
#include <stdio.h>
/* p - n with an unsigned n that takes the result above the base */
int main(void) {
  char data[16];
  size_t n = SIZE_MAX - 7;
  char *volatile base = data;
  char *q = base - n;
  printf("%d\n", q == data);
  return 0;
}
