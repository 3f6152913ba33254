/* tests/e2e/asan/cases/stack_use_after_scope_loop.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
int main(void) {
  char *saved = 0;
  for (int i = 0; i < 2; i++) {
    char tmp[12];
    memset(tmp, i, sizeof tmp);
    if (!saved) saved = tmp;
  }
  return saved[3]; // BUG
}
// CHECK: ERROR: AddressSanitizer: stack-use-after-scope on address 0xADDR
// CHECK: READ of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main stack_use_after_scope_loop.c:15
// CHECK: is located in stack of thread T0 at offset 35 in frame
// CHECK: [32, 44) 'tmp' (line 11) <== Memory access at offset 35 is inside this variable
// CHECK: SUMMARY: AddressSanitizer: stack-use-after-scope stack_use_after_scope_loop.c:15 in main
