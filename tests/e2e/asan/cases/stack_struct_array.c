/* tests/e2e/asan/cases/stack_struct_array.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
struct P { int n; char tag[6]; };
int main(int argc, char **argv) {
  struct P p;
  p.n = 0;
  memset(p.tag, 'x', 6 + argc * 3); // BUG
  return p.n;
}
// CHECK: ERROR: AddressSanitizer: stack-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 9 at 0xADDR thread T0
// CHECK: #0 0xADDR in __asan_memset
// CHECK: #1 0xADDR in main stack_struct_array.c:12
// CHECK: [32, 44) 'p' (line 10) <== Memory access at offset 44 overflows this variable
