/* tests/e2e/asan/cases/stack_in_callee.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
static void put(char *p, int i) { p[i] = 1; } // BUG
int main(void) {
  char b[16];
  put(b, 16);
  return b[0];
}
// CHECK: ERROR: AddressSanitizer: stack-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in put stack_in_callee.c:8
// CHECK: #1 0xADDR in main stack_in_callee.c:11
// CHECK: is located in stack of thread T0 at offset 48 in frame
// CHECK: [32, 48) 'b' (line 10) <== Memory access at offset 48 overflows this variable
