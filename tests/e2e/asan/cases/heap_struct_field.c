/* tests/e2e/asan/cases/heap_struct_field.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
struct S { int a; int b[3]; };
int main(int argc, char **argv) {
  struct S *s = malloc(sizeof *s);
  s->a = 0;
  s->b[argc + 2] = 9; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main heap_struct_field.c:9
// CHECK: is located 0 bytes after 16-byte region
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow heap_struct_field.c:9 in main
