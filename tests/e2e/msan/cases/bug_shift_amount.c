/* an uninitialized shift amount poisons the whole result */
#include <stdio.h>
__attribute__((noinline)) static unsigned bit(unsigned *k) { return 1u << (*k & 31); }
int main(void) {
  unsigned k;
  if (bit(&k) & 1) puts("low");
  return 0;
}
