/* gcc's aligned attribute on a typedef: it raises or lowers the alignment of
 * the type it names (not its size), and every use of the name sees it: members,
 * objects, qualified and re-typedef'd forms, arrays of structs holding it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct { char c[8]; } V __attribute__((aligned(8)));
typedef int I16 __attribute__((aligned(16)));
typedef long L2 __attribute__((aligned(2)));
typedef struct { char c[3]; } __attribute__((aligned(4))) W;
typedef const V CV;
typedef V V2;
struct Later;
typedef struct Later LaterA __attribute__((aligned(32)));
struct Later { int x; };

struct S { char a; I16 b; char c; V d; L2 e; char f; CV g; V2 h; LaterA i; };
V v; char pad1; V2 v2; char pad2; I16 i16;

int main(void) {
  printf("align %zu %zu %zu %zu %zu %zu %zu\n", _Alignof(V), _Alignof(I16), _Alignof(L2), _Alignof(W),
         _Alignof(CV), _Alignof(V2), _Alignof(LaterA));
  printf("size %zu %zu %zu %zu\n", sizeof(V), sizeof(I16), sizeof(L2), sizeof(LaterA));
  printf("struct %zu %zu: %zu %zu %zu %zu %zu %zu %zu %zu\n", sizeof(struct S), _Alignof(struct S),
         offsetof(struct S, b), offsetof(struct S, c), offsetof(struct S, d), offsetof(struct S, e),
         offsetof(struct S, f), offsetof(struct S, g), offsetof(struct S, h), offsetof(struct S, i));
  printf("globals %d %d %d\n", (int)((uintptr_t)&v % 8), (int)((uintptr_t)&v2 % 8), (int)((uintptr_t)&i16 % 16));
  V local1; char c; I16 local2;
  (void)c;
  printf("locals %d %d\n", (int)((uintptr_t)&local1 % 8), (int)((uintptr_t)&local2 % 16));
  return 0;
}
