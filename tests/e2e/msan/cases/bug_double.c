/* a double never set, compared */
#include <stdio.h>
__attribute__((noinline)) static int big(double *d) { return *d > 1.0; }
int main(void) {
  double d;
  if (big(&d)) puts("big");
  return 0;
}
