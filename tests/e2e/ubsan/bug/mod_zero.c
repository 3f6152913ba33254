#include <stdio.h>
int main(void) {
  volatile unsigned z = 0;
  unsigned x = 10u % z;
  printf("%u\n", x);
  return 0;
}
