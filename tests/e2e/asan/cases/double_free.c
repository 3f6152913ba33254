/* tests/e2e/asan/cases/double_free.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(16);
  free(p);
  free(p); // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: attempting double-free on 0xADDR in thread T0:
// CHECK: #0 0xADDR in free
// CHECK: #1 0xADDR in main double_free.c:8
// CHECK: is located 0 bytes inside of 16-byte region
// CHECK: SUMMARY: AddressSanitizer: double-free
