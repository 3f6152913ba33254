/* tests/e2e/asan/cases/heap_realloc_shrunk.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(32);
  p = realloc(p, 16);
  p[16] = 1; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_realloc_shrunk.c:8
// CHECK: is located 0 bytes after 16-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_realloc_shrunk.c:8 in main
// CHECK: #0 0xADDR in __interceptor_realloc
