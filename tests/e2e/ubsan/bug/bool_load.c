#include <stdio.h>
#include <string.h>
int main(void) {
  _Bool b;
  unsigned char v = 5;
  memcpy(&b, &v, 1);
  volatile _Bool *pb = &b;
  if (*pb) printf("true\n");
  return 0;
}
