#include <stdio.h>
int main(void) {
  volatile float f = -1.5f;
  unsigned x = (unsigned)f;
  printf("%u\n", x);
  return 0;
}
