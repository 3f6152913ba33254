/* tests/e2e/asan/cases/strcpy_heap.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(8);
  strcpy(p, "12345678"); // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 9 at 0xADDR thread T0
// CHECK: #0 0xADDR in strcpy
// CHECK: #1 0xADDR in main strcpy_heap.c:7
// CHECK: is located 0 bytes after 8-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow
