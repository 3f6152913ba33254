/* tests/e2e/asan/cases/memset_heap.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(int argc, char **argv) {
  char *p = malloc(20);
  memset(p, 0, 20 + argc); // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 21 at 0xADDR thread T0
// CHECK: #0 0xADDR in __asan_memset
// CHECK: #1 0xADDR in main memset_heap.c:7
// CHECK: is located 0 bytes after 20-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow
