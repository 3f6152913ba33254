/* tests/kitcc/gdb/prog.c — what gdb must see in a kitcc -g program: locals
 * and parameters of every kind of C type, globals, statics, an inner scope.
 * gdb.sh breaks on the lines marked BREAK and checks the printed values;
 * peer.c is compiled by kitcc or by gcc. */
#include <stdio.h>
#include <string.h>

typedef unsigned long ulong_t;
enum color { RED, GREEN = 5, BLUE };
struct inner { short a; char tag[4]; };
struct S {
  int id;
  double ratio;
  struct inner in;
  unsigned flag : 1;
  unsigned mode : 3;
  int level : 5;
  struct S *next;
};
union U { int i; float f; unsigned char bytes[4]; };
typedef struct S S_t;

int global_count = 42;
static const char *global_name = "kit";
double table[3] = {1.5, 2.5, 3.5};
struct S global_s = {7, 0.25, {3, "ab"}, 1, 5, -3, NULL};

int peer_sum(const struct inner *in, int n);

static int walk(S_t *p, int depth, struct inner by_value) {
  static int calls = 0;
  calls++; /* BREAK start: gdb stops here on "break walk" */
  int sum = p->id + depth + by_value.a + peer_sum(&by_value, 2); /* BREAK call */
  return sum; /* BREAK walk */
}

int main(int argc, char **argv) {
  int i = -17;
  unsigned u = 4000000000u;
  long big = -1234567890123L;
  char c = 'x';
  float fl = 0.5f;
  double d = 3.25;
  ulong_t ul = 99;
  enum color col = BLUE;
  struct S s = {1, 2.5, {-4, "hi"}, 1, 6, -7, NULL};
  struct S *p = &s;
  union U un;
  un.i = 0x41424344;
  int arr[5] = {10, 20, 30, 40, 50};
  char name[8];
  strcpy(name, "gdb");
  const int ci = 8;
  volatile int vi = 9;
  S_t t = s;
  t.next = &s;
  const void *cv = &i;
  int (*fp)(const struct inner *, int) = peer_sum;
  _Bool yes = 1;
  long double ld = 1.25L;
  unsigned char uc = 200;
  {
    int inner_only = i * 2;
    printf("%d %d\n", inner_only, walk(&t, 3, s.in)); /* BREAK inner */
  }
  printf("%d %u %ld %c %g %g %lu %d %d %d %s %d %d %d %d %s %d %d %Lg %d\n", i, u, big, c, fl, d, ul, (int)col, s.id,
         p->id, name, arr[2], un.i, ci, vi, global_name, cv == &i, fp == peer_sum, ld, yes + uc);
  return argc > 5 ? (int)strlen(argv[0]) : 0;
}
