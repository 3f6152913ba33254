#include <stdio.h>
#include <stdlib.h>
struct P {
  char c;
  long l;
};
int main(void) {
  struct P *p = malloc(sizeof *p * 2);
  p[1].l = 5;
  p[1].c = 'x';
  long *q = &p[1].l;
  printf("%ld %c\n", *q, p[1].c);
  free(p);
  return 0;
}
