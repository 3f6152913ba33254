/* tests/e2e/asan/cases/uaf_read_int.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  int *p = malloc(4 * sizeof(int));
  p[1] = 3;
  free(p); // FREE
  return p[1]; // BUG
}
// CHECK: ERROR: AddressSanitizer: heap-use-after-free on address 0xADDR
// CHECK: READ of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main uaf_read_int.c:9
// CHECK: is located 4 bytes inside of 16-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-use-after-free uaf_read_int.c:9 in main
// CHECK: freed by thread T0 here:
// CHECK: #1 0xADDR in main uaf_read_int.c:8
// CHECK: previously allocated by thread T0 here:
