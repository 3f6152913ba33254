/* tests/e2e/asan/cases/global_static_in_func.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
static long counters[3];
static void bump(int i) { counters[i]++; } // BUG
int main(void) {
  bump(3);
  return 0;
}
// CHECK: ERROR: AddressSanitizer: global-buffer-overflow on address 0xADDR
// CHECK: READ of size 8 at 0xADDR thread T0
// CHECK: #0 0xADDR in bump global_static_in_func.c:9
// CHECK: is located 0 bytes after global variable 'counters' defined in 'global_static_in_func.c:8' (0xADDR) of size 24
// CHECK: SUMMARY: AddressSanitizer: global-buffer-overflow global_static_in_func.c:9 in bump
