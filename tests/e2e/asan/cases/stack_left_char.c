/* tests/e2e/asan/cases/stack_left_char.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
int main(int argc, char **argv) {
  char buf[10];
  memset(buf, 0, sizeof buf);
  return buf[argc - 2]; // BUG
}
// CHECK: ERROR: AddressSanitizer: stack-buffer-underflow on address 0xADDR
// CHECK: READ of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main stack_left_char.c:11
// CHECK: is located in stack of thread T0 at offset 31 in frame
// CHECK: [32, 42) 'buf' (line 9) <== Memory access at offset 31 underflows this variable
// CHECK: SUMMARY: AddressSanitizer: stack-buffer-underflow stack_left_char.c:11 in main
