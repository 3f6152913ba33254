/* tests/e2e/asan/cases/heap_right_char_load.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(int argc, char **argv) {
  char *p = malloc(13); // ALLOC
  memset(p, 'a', 13);
  int i = 12 + argc;
  return p[i]; // BUG
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: READ of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_right_char_load.c:9
// CHECK: is located 0 bytes after 13-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_right_char_load.c:9 in main
// CHECK: #1 0xADDR in main heap_right_char_load.c:6
