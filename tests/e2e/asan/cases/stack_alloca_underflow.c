/* tests/e2e/asan/cases/stack_alloca_underflow.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <alloca.h>
static int f(int n) {
  char *a = alloca(n);
  memset(a, 0, n);
  return a[-1]; // BUG
}
int main(void) { return f(10); }
// CHECK: ERROR: AddressSanitizer: dynamic-stack-buffer-overflow on address 0xADDR
// CHECK: READ of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in f stack_alloca_underflow.c:9
// CHECK: #1 0xADDR in main stack_alloca_underflow.c:11
// CHECK: Address 0xADDR is located in stack of thread T0
