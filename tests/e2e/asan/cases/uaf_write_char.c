/* tests/e2e/asan/cases/uaf_write_char.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(10);
  free(p);
  p[9] = 'x'; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-use-after-free on address 0xADDR
// CHECK: WRITE of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main uaf_write_char.c:8
// CHECK: is located 9 bytes inside of 10-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-use-after-free uaf_write_char.c:8 in main
