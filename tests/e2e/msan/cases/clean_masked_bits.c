/* bits an initialized operand decides: x & 0, x | ~0, and equality on known bits */
#include <stdio.h>
__attribute__((noinline)) static int decide(int *p) {
  int x = *p;
  int zero = x & 0;
  int ones = x | -1;
  int odd = (x & ~1) | 1;
  return (zero == 0) + (ones == -1) + (odd != 0) + (odd == 2);
}
int main(void) {
  int x;
  if (decide(&x) != 3) puts("wrong");
  return 0;
}
