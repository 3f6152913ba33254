/* tests/e2e/asan/cases/segv_null_write.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int *volatile p = 0;
  p[argc + 7] = 1; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: SEGV on unknown address 0xADDR (pc 0xADDR bp 0xADDR sp 0xADDR T0)
// CHECK: The signal is caused by a WRITE memory access.
// CHECK: Hint: address points to the zero page.
// CHECK: #0 0xADDR in main segv_null_write.c:7
// CHECK: AddressSanitizer can not provide additional info.
// CHECK: SUMMARY: AddressSanitizer: SEGV segv_null_write.c:7 in main
