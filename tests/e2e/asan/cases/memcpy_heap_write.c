/* tests/e2e/asan/cases/memcpy_heap_write.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char src[32] = {0};
  char *p = malloc(24);
  memcpy(p, src, 25); // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 25 at 0xADDR thread T0
// CHECK: #0 0xADDR in __asan_memcpy
// CHECK: #1 0xADDR in main memcpy_heap_write.c:8
// CHECK: is located 0 bytes after 24-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow
