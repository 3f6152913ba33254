/* tests/e2e/asan/cases/clean_unaligned.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdint.h>
int main(void) {
  unsigned char *p = malloc(17);
  memset(p, 0, 17);
  for (int off = 0; off <= 9; off++) {
    uint64_t v;
    memcpy(&v, p + off, 8);
    *(uint32_t *)(p + 13) = 0x01020304u;
    *(uint16_t *)(p + 15) = 7;
    *(uint64_t *)(p + 9) = v + 1;
  }
  int r = p[16] == 0 ? 0 : 0;
  free(p);
  return r;
}
// CLEAN
