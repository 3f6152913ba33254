/* zlib's slide_hash: a ternary on an uninitialized value only picks a value.
 * clang -O2 has made it a select before MemorySanitizer runs (no report, the
 * result poisoned); at -O0 it is a branch (a report) */
#include <stdlib.h>
__attribute__((noinline)) static void slide(unsigned short *p, unsigned n, unsigned w) {
  do {
    unsigned m = *--p;
    *p = (unsigned short)(m >= w ? m - w : 0);
  } while (--n);
}
int main(void) {
  unsigned short *prev = malloc(64 * sizeof *prev);
  slide(prev + 64, 64, 32);
  free(prev);
  return 0;
}
