/* tests/e2e/asan/cases/uaf_struct_ptr.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
struct Node { struct Node *next; int v; };
int main(void) {
  struct Node *n = malloc(sizeof *n);
  n->next = 0;
  free(n);
  return n->next != 0; // BUG
}
// CHECK: ERROR: AddressSanitizer: heap-use-after-free on address 0xADDR
// CHECK: READ of size 8 at 0xADDR thread T0
// CHECK: #0 0xADDR in main uaf_struct_ptr.c:10
// CHECK: is located 0 bytes inside of 16-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-use-after-free uaf_struct_ptr.c:10 in main
