/* tests/e2e/asan/cases/leak_indirect.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
struct L { struct L *next; char data[24]; };
static void make(void) {
  struct L *a = malloc(sizeof *a);
  a->next = malloc(sizeof *a); // ALLOC
  a->next->next = 0;
}
static void scrub(int depth) {
  char junk[512];
  memset(junk, 0, sizeof junk);
  if (depth) scrub(depth - 1);
}
int main(void) {
  make();
  scrub(8);
  return 0;
}
// ASAN_OPTIONS: detect_stack_use_after_return=0
// CHECK: ERROR: LeakSanitizer: detected memory leaks
// CHECK: Direct leak of 32 byte(s) in 1 object(s) allocated from:
// CHECK: Indirect leak of 32 byte(s) in 1 object(s) allocated from:
// CHECK: #1 0xADDR in make leak_indirect.c:8
// CHECK: SUMMARY: AddressSanitizer: 64 byte(s) leaked in 2 allocation(s).
