/* tests/e2e/asan/cases/stack_use_after_scope.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
int main(void) {
  int *p;
  {
    int x = 5;
    p = &x;
  }
  *p = 7; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: stack-use-after-scope on address 0xADDR
// CHECK: WRITE of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main stack_use_after_scope.c:14
// CHECK: is located in stack of thread T0 at offset 32 in frame
// CHECK: [32, 36) 'x' (line 11) <== Memory access at offset 32 is inside this variable
// CHECK: SUMMARY: AddressSanitizer: stack-use-after-scope stack_use_after_scope.c:14 in main
