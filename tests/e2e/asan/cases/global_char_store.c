/* tests/e2e/asan/cases/global_char_store.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
char name[5] = "abcd";
int main(int argc, char **argv) {
  name[argc + 4] = 'x'; // BUG
  return 0;
}
// CHECK: ERROR: AddressSanitizer: global-buffer-overflow on address 0xADDR
// CHECK: WRITE of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main global_char_store.c:10
// CHECK: is located 0 bytes after global variable 'name' defined in 'global_char_store.c:8' (0xADDR) of size 5
// CHECK: SUMMARY: AddressSanitizer: global-buffer-overflow global_char_store.c:10 in main
