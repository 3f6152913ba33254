/* tests/e2e/asan/cases/memmove_heap.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(16);
  memset(p, 0, 16);
  memmove(p + 4, p, 13); // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 13 at 0xADDR thread T0
// CHECK: #0 0xADDR in __asan_memmove
// CHECK: #1 0xADDR in main memmove_heap.c:8
// CHECK: is located 0 bytes after 16-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow
