/* an uninitialized index decides the address */
#include <stdio.h>
int table[16];
__attribute__((noinline)) static int pick(int *idx) { return table[*idx & 15]; }
int main(void) {
  int i;
  printf("%d\n", pick(&i) + 1);
  return 0;
}
