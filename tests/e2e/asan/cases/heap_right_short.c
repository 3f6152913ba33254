/* tests/e2e/asan/cases/heap_right_short.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  short *s = malloc(3 * sizeof(short));
  s[0] = s[1] = s[2] = 1;
  int v = s[3]; // BUG
  return v;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: READ of size 2 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_right_short.c:8
// CHECK: is located 0 bytes after 6-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_right_short.c:8 in main
