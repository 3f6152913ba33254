/* strcpy sets the bytes it copies, no more */
#include <stdio.h>
#include <string.h>
int main(void) {
  char a[8];
  strcpy(a, "hi");
  volatile char *v = a;
  if (v[5] == 'x') puts("x");
  return 0;
}
