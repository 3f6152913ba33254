/* tests/e2e/asan/cases/heap_partial_granule.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(100);
  memset(p, 1, 100);
  volatile char c = p[105]; // BUG
  return c;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: READ of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_partial_granule.c:8
// CHECK: is located 5 bytes after 100-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_partial_granule.c:8 in main
