/* tests/e2e/asan/cases/heap_far_left_long.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  long *p = malloc(64);
  return (int)p[-2]; // BUG
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: READ of size 8 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_far_left_long.c:7
// CHECK: is located 16 bytes before 64-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_far_left_long.c:7 in main
