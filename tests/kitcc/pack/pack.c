/* tests/kitcc/pack/pack.c — #pragma pack set, reset, push and pop between
 * struct definitions: each takes effect from where it is written (pack.sh
 * compares the layouts with gcc's). */
#include <stddef.h>
#include <stdio.h>

#define SHOW(T, m) printf("%-3s size %zu align %zu offset %zu\n", #T, sizeof(struct T), _Alignof(struct T), offsetof(struct T, m))

struct Before { char c; int i; };
#pragma pack(push, 1)
struct One { char c; int i; };
#pragma pack(push, 2)
struct Two { char c; long l; };
#pragma pack(pop)
struct OneAgain { char c; double d; };
#pragma pack(pop)
struct After { char c; int i; };
#pragma pack(4)
struct Four { char c; long l; };
#pragma pack()
struct Reset { char c; long l; };
#pragma pack(push)
#pragma pack(1)
struct PushedThenOne { short s; long l; };
#pragma pack(pop)
struct Popped { short s; long l; };

int main(void) {
  SHOW(Before, i);
  SHOW(One, i);
  SHOW(Two, l);
  SHOW(OneAgain, d);
  SHOW(After, i);
  SHOW(Four, l);
  SHOW(Reset, l);
  SHOW(PushedThenOne, l);
  SHOW(Popped, l);
  return 0;
}
