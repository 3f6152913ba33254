/* structs with padding returned and passed by value, directly and through a pointer */
#include <stdio.h>
struct R { char c; int i; };
struct Big { char c; long v[4]; };
__attribute__((noinline)) static struct R make(int k) {
  struct R r;
  r.c = (char)k;
  r.i = k * 2;
  return r;
}
__attribute__((noinline)) static struct Big big(int k) {
  struct Big b;
  b.c = 1;
  for (int i = 0; i < 4; i++) b.v[i] = k + i;
  return b;
}
__attribute__((noinline)) static int take(struct R r) { return r.c + r.i; }
int main(void) {
  struct R (*mk)(int) = make;
  int (*tk)(struct R) = take;
  struct R r = mk(3);
  struct Big b = big(1);
  if (tk(r) != 9 || take(make(1)) != 3 || b.v[3] != 4) puts("wrong");
  return 0;
}
