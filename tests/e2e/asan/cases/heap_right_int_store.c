/* tests/e2e/asan/cases/heap_right_int_store.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  int *p = malloc(10 * sizeof(int)); // ALLOC
  p[10] = 1; // BUG
  free(p);
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_right_int_store.c:7
// CHECK: is located 0 bytes after 40-byte region [0xADDR,0xADDR)
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_right_int_store.c:7 in main
// CHECK: allocated by thread T0 here:
// CHECK: #1 0xADDR in main heap_right_int_store.c:6
