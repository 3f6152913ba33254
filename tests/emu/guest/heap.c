/* tests/emu/guest/heap.c — malloc-heavy code: many small blocks (brk),
 * large ones (mmap), realloc growth (mremap) and frees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  enum { N = 20000 };
  static char *p[N];
  unsigned long sum = 0;
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < N; i++) {
      size_t n = (size_t)(i * 7 + round) % 300 + 1;
      p[i] = malloc(n);
      memset(p[i], i & 0xff, n);
    }
    for (int i = 0; i < N; i += 2) free(p[i]), p[i] = NULL;
    for (int i = 1; i < N; i += 2) sum += (unsigned char)p[i][0], free(p[i]);
  }
  char *big = malloc(8 << 20);
  memset(big, 1, 8 << 20);
  for (int i = 0; i < (8 << 20); i += 4096) sum += big[i];
  big = realloc(big, 32 << 20);
  for (int i = 0; i < (8 << 20); i += 4096) sum += big[i];
  free(big);
  char *r = NULL;
  for (int i = 1; i <= 64; i++) {
    r = realloc(r, (size_t)i * 100000);
    r[(size_t)i * 100000 - 1] = (char)i;
    sum += (unsigned char)r[(size_t)i * 100000 - 1];
  }
  free(r);
  printf("sum=%lu\n", sum);
  return 0;
}
