/* tests/e2e/asan/cases/heap_calloc_right.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  int *p = calloc(5, sizeof(int));
  return p[5]; // BUG
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: READ of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_calloc_right.c:7
// CHECK: is located 0 bytes after 20-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_calloc_right.c:7 in main
// CHECK: #0 0xADDR in __interceptor_calloc
