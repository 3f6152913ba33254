/* a partly initialized array, only the initialized part used */
#include <stdio.h>
int main(void) {
  int v[16];
  for (int i = 0; i < 8; i++) v[i] = i;
  int s = 0;
  for (int i = 0; i < 8; i++) s += v[i];
  int copy[16];
  for (int i = 0; i < 16; i++) copy[i] = v[i];
  return s != 28 || copy[3] != 3;
}
