/* the padding byte after a char member, read */
#include <stdio.h>
struct S { char c; int i; };
int main(void) {
  struct S s;
  s.c = 1;
  s.i = 2;
  volatile unsigned char *b = (unsigned char *)&s;
  if (b[1]) puts("padding set");
  return s.i - 2;
}
