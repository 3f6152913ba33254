/* tests/e2e/asan/cases/stack_vla_overflow.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int n = 8 + argc;
  int v[n];
  for (int i = 0; i < n; i++) v[i] = i;
  v[n] = 1; // BUG
  return v[0];
}
// CHECK: ERROR: AddressSanitizer: dynamic-stack-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main stack_vla_overflow.c:9
// CHECK: Address 0xADDR is located in stack of thread T0
// CHECK: SUMMARY: AddressSanitizer: dynamic-stack-buffer-overflow stack_vla_overflow.c:9 in main
