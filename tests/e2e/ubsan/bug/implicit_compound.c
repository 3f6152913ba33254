// FLAGS: -fsanitize=implicit-conversion
/* the conversion back to a narrow type after a compound assignment, ++ and
 * --: reported at the operator */
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  unsigned char k = 250;
  k += argc * 10;
  unsigned char m = 255;
  m++;
  short sh = -32768;
  --sh;
  signed char sc = 100;
  sc *= argc + 1;
  printf("%d %d %d %d\n", k, m, sh, sc);
  return 0;
}
