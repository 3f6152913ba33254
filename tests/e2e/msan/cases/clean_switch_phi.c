/* values merging through loops and switches */
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  int acc = 0, prev = 1;
  for (int i = 0; i < 20; i++) {
    int t;
    switch ((i + argc) % 3) {
    case 0: t = prev * 2; break;
    case 1: t = prev + 3; break;
    default: t = i; break;
    }
    acc += t;
    prev = t;
  }
  if (acc == 0) puts("zero");
  return 0;
}
