/* tests/e2e/asan/cases/stack_strcpy.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char name[8];
  strcpy(name, "too long!"); // BUG
  return name[0];
}
// CHECK: ERROR: AddressSanitizer: stack-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 10 at 0xADDR thread T0
// CHECK: #0 0xADDR in strcpy
// CHECK: #1 0xADDR in main stack_strcpy.c:7
// CHECK: [32, 40) 'name'
// CHECK: Memory access at offset 40 overflows this variable
