/* tests/e2e/asan/cases/heap_right_int128.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  __int128 *w = malloc(2 * sizeof(__int128));
  w[2] = 5; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 16 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_right_int128.c:7
// CHECK: is located 0 bytes after 32-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_right_int128.c:7 in main
