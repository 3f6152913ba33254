/* tests/e2e/asan/cases/clean_struct_copy.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
struct Big { long a[9]; char c; };
static struct Big make(int k) { struct Big b; for (int i = 0; i < 9; i++) b.a[i] = k + i; b.c = 'z'; return b; }
static long take(struct Big b) { return b.a[8] + b.c; }
int main(void) {
  struct Big x = make(3), y;
  y = x;
  struct Big *h = malloc(sizeof *h);
  *h = y;
  long r = take(*h) + take(make(1));
  free(h);
  return r == 0;
}
// CLEAN
