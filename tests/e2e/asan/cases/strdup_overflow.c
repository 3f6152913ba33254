/* tests/e2e/asan/cases/strdup_overflow.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *d = strdup("hello");
  d[6] = '!'; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main strdup_overflow.c:7
// CHECK: is located 0 bytes after 6-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow strdup_overflow.c:7 in main
// CHECK: #0 0xADDR in strdup
