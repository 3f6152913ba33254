/* tests/e2e/asan/cases/heap_left_long_store.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  long *p = malloc(4 * sizeof(long));
  long *q = p - 1;
  *q = 7; // BUG
  free(p);
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 8 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_left_long_store.c:8
// CHECK: is located 8 bytes before 32-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_left_long_store.c:8 in main
