#include <stdio.h>
struct __attribute__((packed)) P { char c; int x; };
struct Q { char c; int x; };
int main(void) {
  char buf[16] = {0};
  struct Q *q = (struct Q *)(buf + 1);
  q->x = 5;
  printf("%d\n", q->x);
  return 0;
}
