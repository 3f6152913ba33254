/* tests/e2e/asan/cases/global_memset.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
struct Cfg { int a, b; char tag[4]; } cfg;
int main(int argc, char **argv) {
  memset(&cfg, 0, sizeof cfg + argc); // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: global-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 13 at 0xADDR thread T0
// CHECK: #0 0xADDR in __asan_memset
// CHECK: #1 0xADDR in main global_memset.c:10
// CHECK: is located 0 bytes after global variable 'cfg' defined in 'global_memset.c:8' (0xADDR) of size 12
