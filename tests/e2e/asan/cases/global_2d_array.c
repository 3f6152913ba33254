/* tests/e2e/asan/cases/global_2d_array.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
int grid[4][4];
int main(int argc, char **argv) {
  int *flat = &grid[0][0];
  flat[15 + argc] = 1; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: global-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main global_2d_array.c:11
// CHECK: is located 0 bytes after global variable 'grid' defined in 'global_2d_array.c:8' (0xADDR) of size 64
// CHECK: SUMMARY: AddressSanitizer: global-buffer-overflow global_2d_array.c:11 in main
