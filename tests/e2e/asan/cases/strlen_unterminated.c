/* tests/e2e/asan/cases/strlen_unterminated.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char *p = malloc(6);
  memcpy(p, "abcdef", 6);
  return (int)strlen(p); // BUG
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: READ of size 7 at 0xADDR thread T0
// CHECK: #0 0xADDR in strlen
// CHECK: #1 0xADDR in main strlen_unterminated.c:8
// CHECK: is located 0 bytes after 6-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow
