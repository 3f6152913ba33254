/* fwrite of an array partly set */
#include <stdio.h>
int main(void) {
  int v[4];
  v[0] = v[1] = 7;
  FILE *f = fopen("/dev/null", "w");
  fwrite(v, sizeof v, 1, f);
  fclose(f);
  return 0;
}
