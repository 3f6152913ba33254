/* tests/e2e/asan/cases/heap_right_double.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  double *d = calloc(4, sizeof(double));
  double sum = 0;
  for (int i = 0; i <= 4; i++) sum += d[i]; // BUG
  return (int)sum;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: READ of size 8 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_right_double.c:8
// CHECK: is located 0 bytes after 32-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_right_double.c:8 in main
