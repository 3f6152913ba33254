/* tests/e2e/asan/cases/uaf_in_callee.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
static int get(const int *p) { return p[0]; } // BUG
int main(void) {
  int *p = malloc(sizeof(int));
  *p = 1;
  free(p);
  return get(p);
}
// CHECK: ERROR: AddressSanitizer: heap-use-after-free on address 0xADDR
// CHECK: READ of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in get uaf_in_callee.c:5
// CHECK: is located 0 bytes inside of 4-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-use-after-free uaf_in_callee.c:5 in get
// CHECK: #1 0xADDR in main uaf_in_callee.c:10
