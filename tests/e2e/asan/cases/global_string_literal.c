/* tests/e2e/asan/cases/global_string_literal.c — one bug; the expected report lines (normalised by run.sh: addresses 0xADDR, paths to basenames, no columns) follow the program. */
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int printf(const char *, ...);
int main(int argc, char **argv) {
  const char *s = "hey";
  return s[argc + 3]; // BUG
}
// CHECK: ERROR: AddressSanitizer: global-buffer-overflow on address 0xADDR
// CHECK: READ of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main global_string_literal.c:10
// CHECK: is located 0 bytes after global variable '.str' defined in 'global_string_literal.c:9'
// CHECK:   '.str' is ascii string 'hey'
// CHECK: SUMMARY: AddressSanitizer: global-buffer-overflow global_string_literal.c:10 in main
