#include <stdint.h>
#include <stdio.h>
/* the index times the element size overflows, though the wrapped result looks in order */
int main(void) {
  long buf[4];
  long *volatile base = buf;
  long i = INT64_MAX / 4;
  long *p = base + i;
  printf("%d\n", p == buf);
  return 0;
}
