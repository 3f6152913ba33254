/* tests/e2e/asan/cases/global_int_array.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
int table[10];
int main(int argc, char **argv) {
  return table[argc + 9]; // BUG
}
// CHECK: ERROR: AddressSanitizer: global-buffer-overflow on address 0xADDR
// CHECK: READ of size 4 at 0xADDR thread T0
// CHECK: #0 0xADDR in main global_int_array.c:10
// CHECK: is located 0 bytes after global variable 'table' defined in 'global_int_array.c:8' (0xADDR) of size 40
// CHECK: SUMMARY: AddressSanitizer: global-buffer-overflow global_int_array.c:10 in main
