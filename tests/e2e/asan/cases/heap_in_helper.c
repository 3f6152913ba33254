/* tests/e2e/asan/cases/heap_in_helper.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
static void fill(int *a, int n) {
  for (int i = 0; i <= n; i++) a[i] = i; // BUG
}
int main(void) {
  int *a = malloc(8 * sizeof(int));
  fill(a, 8);
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in fill heap_in_helper.c:6
// CHECK: is located 0 bytes after 32-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_in_helper.c:6 in fill
// CHECK: #1 0xADDR in main heap_in_helper.c:9
