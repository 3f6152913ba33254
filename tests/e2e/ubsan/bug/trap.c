// FLAGS: -fsanitize=signed-integer-overflow -fsanitize-trap=signed-integer-overflow
// STATUS: 132
#include <stdio.h>
int main(void) {
  volatile int a = 2147483647;
  int x = a + 1;
  printf("not reached %d\n", x);
  return 0;
}
