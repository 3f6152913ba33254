/* tests/e2e/asan/cases/stack_use_after_return.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
static int *leak_local(void) {
  int local[4] = {1, 2, 3, 4};
  int *volatile p = local;
  return p;
}
int main(void) {
  int *p = leak_local();
  return p[1]; // BUG
}
// ASAN_OPTIONS: detect_stack_use_after_return=1
// CHECK: ERROR: AddressSanitizer: stack-use-after-return on address 0xADDR
// CHECK: READ of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main stack_use_after_return.c:15
// CHECK: is located in stack of thread T0 at offset 36 in frame
// CHECK: 'local' (line 9) <== Memory access at offset 36 is inside this variable
// CHECK: SUMMARY: AddressSanitizer: stack-use-after-return stack_use_after_return.c:15 in main
