/* tests/e2e/asan/cases/strncpy_heap.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(10);
  strncpy(p, "short", 12); // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 12 at 0xADDR thread T0
// CHECK: #0 0xADDR in __interceptor_strncpy
// CHECK: #1 0xADDR in main strncpy_heap.c:7
// CHECK: is located 0 bytes after 10-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow
