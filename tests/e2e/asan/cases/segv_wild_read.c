/* tests/e2e/asan/cases/segv_wild_read.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  long *volatile p = (long *)0x7e0000001000UL;
  return (int)*p; // BUG
}
// CHECK: ERROR: AddressSanitizer: SEGV on unknown address 0xADDR (pc 0xADDR bp 0xADDR sp 0xADDR T0)
// CHECK: The signal is caused by a READ memory access.
// CHECK: #0 0xADDR in main segv_wild_read.c:7
// CHECK: SUMMARY: AddressSanitizer: SEGV segv_wild_read.c:7 in main
