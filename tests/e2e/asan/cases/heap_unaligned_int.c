/* tests/e2e/asan/cases/heap_unaligned_int.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(12);
  int *q = (int *)(p + 10);
  *q = 1; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_unaligned_int.c:8
// CHECK: is located 0 bytes after 12-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_unaligned_int.c:8 in main
