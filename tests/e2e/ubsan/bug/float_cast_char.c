#include <stdio.h>
int main(void) {
  volatile double d = 300.0;
  signed char c = (signed char)d;
  printf("%d\n", c);
  return 0;
}
