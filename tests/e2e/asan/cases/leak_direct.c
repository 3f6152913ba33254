/* tests/e2e/asan/cases/leak_direct.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
static void make(void) {
  char *p = malloc(48); // ALLOC
  p[0] = 1;
}
static void scrub(void) {
  volatile char junk[2048];
  for (int i = 0; i < 2048; i++) junk[i] = 0;
}
int main(void) {
  make();
  scrub();
  return 0;
}
// CHECK: ERROR: LeakSanitizer: detected memory leaks
// CHECK: Direct leak of 48 byte(s) in 1 object(s) allocated from:
// CHECK: #1 0xADDR in make leak_direct.c:6
// CHECK: SUMMARY: AddressSanitizer: 48 byte(s) leaked in 1 allocation(s).
