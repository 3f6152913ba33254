#include <stdint.h>
#include <stdio.h>
/* array indexing with an unsigned index, and += / ++ on a pointer */
// FLAGS: -fsanitize=pointer-overflow -fsanitize-recover=pointer-overflow
int main(void) {
  char data[16];
  char *volatile base = data;
  unsigned long i = -4ul;
  printf("%d\n", &base[i] == data);
  char *p = base;
  p += i;
  printf("%d\n", p == data);
  char *volatile top = (char *)UINTPTR_MAX;
  char *t = top;
  t++;
  printf("%d\n", t == 0);
  return 0;
}
