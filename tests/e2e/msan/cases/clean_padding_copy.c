/* copying a struct with uninitialized padding, never reading the padding */
#include <stdio.h>
#include <string.h>
struct S { char c; int i; short h; };
__attribute__((noinline)) static int use(struct S s) { return s.c + s.i + s.h; }
int main(void) {
  struct S a, b, c;
  a.c = 1;
  a.i = 2;
  a.h = 3;
  b = a;
  memcpy(&c, &b, sizeof c);
  if (use(c) != 6) puts("wrong");
  return use(b) - 6;
}
