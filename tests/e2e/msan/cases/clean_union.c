/* a union written through one member, read through it */
#include <stdio.h>
union U { char c[8]; long l; double d; };
int main(void) {
  union U u, v;
  u.l = 0x1122334455667788;
  v = u;
  if (v.c[0] != (char)0x88) puts("wrong");
  u.d = 2.5;
  if (u.d != 2.5) puts("wrong");
  return 0;
}
