#include <stdint.h>
#include <stdio.h>
/* an unsigned offset so large that the result comes out below the base */
int main(void) {
  char data[16];
  size_t len = SIZE_MAX - 15;
  char *volatile base = data;
  char *end = base + len;
  printf("%d\n", end == data);
  return 0;
}
