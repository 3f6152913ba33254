/* tests/e2e/asan/cases/bad_free_interior.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(16);
  free(p + 4); // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: attempting free on address which was not malloc()-ed: 0xADDR in thread T0
// CHECK: #1 0xADDR in main bad_free_interior.c:7
// CHECK: is located 4 bytes inside of 16-byte region
// CHECK: SUMMARY: AddressSanitizer: bad-free
