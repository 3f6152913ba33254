/* tests/e2e/asan/cases/uaf_after_realloc.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  int *p = malloc(4 * sizeof(int));
  int *q = realloc(p, 400 * sizeof(int));
  q[0] = 1;
  p[2] = 1; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-use-after-free on address 0xADDR
// CHECK: WRITE of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main uaf_after_realloc.c:9
// CHECK: is located 8 bytes inside of 16-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-use-after-free uaf_after_realloc.c:9 in main
// CHECK: #0 0xADDR in __interceptor_realloc
