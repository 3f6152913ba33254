/* tests/e2e/asan/cases/memcpy_heap_read.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char dst[64];
  char *p = malloc(40);
  memset(p, 0, 40);
  memcpy(dst, p, 41); // BUG
  return dst[0];
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: READ of size 41 at 0xADDR thread T0
// CHECK: #0 0xADDR in __asan_memcpy
// CHECK: #1 0xADDR in main memcpy_heap_read.c:9
// CHECK: is located 0 bytes after 40-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow
