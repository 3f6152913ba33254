/* tests/e2e/asan/cases/stack_memcpy.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
int main(int argc, char **argv) {
  char src[40] = {0};
  char dst[32];
  memcpy(dst, src, 32 + argc); // BUG
  return dst[0];
}
// CHECK: ERROR: AddressSanitizer: stack-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 33 at 0xADDR thread T0
// CHECK: #0 0xADDR in __asan_memcpy
// CHECK: #1 0xADDR in main stack_memcpy.c:11
// CHECK: [112, 144) 'dst' (line 10) <== Memory access at offset 144 overflows this variable
// CHECK: [32, 72) 'src'
// CHECK: This frame has 2 object(s):
