/* tests/e2e/asan/cases/global_const_table.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
static const unsigned char lut[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int main(int argc, char **argv) {
  unsigned s = 0;
  for (int i = 0; i < 8 + argc; i++) s += lut[i]; // BUG
  return (int)s;
}
// CHECK: ERROR: AddressSanitizer: global-buffer-overflow on address 0xADDR
// CHECK: READ of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main global_const_table.c:11
// CHECK: is located 0 bytes after global variable 'lut' defined in 'global_const_table.c:8' (0xADDR) of size 8
// CHECK: SUMMARY: AddressSanitizer: global-buffer-overflow global_const_table.c:11 in main
