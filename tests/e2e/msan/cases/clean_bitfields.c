/* bit-fields set one by one, each read */
#include <stdio.h>
struct F { unsigned a : 3, b : 5, c : 7; int d : 4; };
int main(void) {
  struct F f;
  f.a = 5;
  f.b = 17;
  f.c = 100;
  f.d = -3;
  if (f.a != 5 || f.b != 17 || f.c != 100 || f.d != -3) puts("wrong");
  return 0;
}
