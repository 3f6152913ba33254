#include <stdbool.h>
#include <stdio.h>
int main(void) {
  volatile bool t = true, f = false;
  bool x = t && !f;
  int n = 0;
  for (int i = 0; i < 5; i++) n += (t ? i : -i);
  printf("%d %d\n", x, n);
  return 0;
}
