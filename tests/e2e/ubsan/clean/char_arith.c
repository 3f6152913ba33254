#include <stdio.h>
int main(void) {
  volatile signed char c = 127;
  signed char d = c;
  d++;
  short s = 32767;
  s++;
  printf("%d %d\n", d, s);
  return 0;
}
