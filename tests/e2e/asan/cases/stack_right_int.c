/* tests/e2e/asan/cases/stack_right_int.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
int main(int argc, char **argv) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = i;
  a[argc + 7] = 0; // BUG
  return a[0];
}
// CHECK: ERROR: AddressSanitizer: stack-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main stack_right_int.c:11
// CHECK: is located in stack of thread T0 at offset 64 in frame
// CHECK: [32, 64) 'a' (line 9) <== Memory access at offset 64 overflows this variable
// CHECK: SUMMARY: AddressSanitizer: stack-buffer-overflow stack_right_int.c:11 in main
