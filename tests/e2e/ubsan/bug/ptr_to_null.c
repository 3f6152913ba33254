#include <stdint.h>
#include <stdio.h>
/* a non-null pointer plus an offset that lands exactly on null */
int main(void) {
  char *volatile p = (char *)(uintptr_t)4096;
  long back = -4096;
  char *q = p + back;
  printf("%d\n", q == 0);
  return 0;
}
