/* tests/e2e/asan/cases/heap_left_char.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(int argc, char **argv) {
  char *p = malloc(10);
  memset(p, 0, 10);
  return p[argc - 2]; // BUG
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: READ of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_left_char.c:8
// CHECK: is located 1 bytes before 10-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_left_char.c:8 in main
