/* a byte of malloc's memory never written */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static void set_first(char *p) { p[0] = 1; }
int main(void) {
  char *p = malloc(8);
  set_first(p);
  if (p[3]) puts("nonzero");
  free(p);
  return 0;
}
