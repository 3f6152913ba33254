/* memset initializes a local array and a heap block */
#include <stdlib.h>
#include <string.h>
int main(void) {
  char buf[64];
  memset(buf, 'x', sizeof buf);
  char *h = malloc(100);
  memset(h, 0, 100);
  int n = 0;
  for (int i = 0; i < 64; i++) n += buf[i] == 'x';
  for (int i = 0; i < 100; i++) n += h[i] != 0;
  free(h);
  return n != 64;
}
