/* tests/e2e/asan/cases/stack_two_objects.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
int main(int argc, char **argv) {
  int x[4];
  long y[2];
  x[0] = 1;
  y[0] = 2;
  y[argc + 1] = 3; // BUG
  return x[0] + (int)y[0];
}
// CHECK: ERROR: AddressSanitizer: stack-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 8 at 0xADDR thread T0
// CHECK: #0 0xADDR in main stack_two_objects.c:13
// CHECK: is located in stack of thread T0 at offset 80 in frame
// CHECK: [64, 80) 'y' (line 10) <== Memory access at offset 80 overflows this variable
// CHECK: SUMMARY: AddressSanitizer: stack-buffer-overflow stack_two_objects.c:13 in main
// CHECK: This frame has 2 object(s):
// CHECK: [32, 48) 'x' (line 9)
