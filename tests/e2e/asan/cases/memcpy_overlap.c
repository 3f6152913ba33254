/* tests/e2e/asan/cases/memcpy_overlap.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(32);
  memset(p, 'a', 32);
  memcpy(p + 4, p, 16); // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: memcpy-param-overlap: memory ranges [0xADDR,0xADDR) and [0xADDR, 0xADDR) overlap
// CHECK: #0 0xADDR in __asan_memcpy
// CHECK: #1 0xADDR in main memcpy_overlap.c:8
// CHECK: SUMMARY: AddressSanitizer: memcpy-param-overlap
