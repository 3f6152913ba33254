// FLAGS: -fsanitize=undefined,float-divide-by-zero
#include <stdio.h>
int main(void) {
  volatile double z = 0;
  double d = 1.0 / z;
  printf("%f\n", d);
  return 0;
}
