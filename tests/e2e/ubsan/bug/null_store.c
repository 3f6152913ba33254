#include <stdio.h>
static long *volatile gp;
int main(void) {
  printf("before\n");
  fflush(stdout);
  *gp = 5;
  printf("after\n");
  return 0;
}
