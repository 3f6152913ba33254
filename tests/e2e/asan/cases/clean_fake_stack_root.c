/* tests/e2e/asan/cases/clean_fake_stack_root.c — no bug: the only pointer to
 * a live block sits in a local whose address was taken, which
 * detect_stack_use_after_return (on by default) keeps on the fake stack; the
 * process exits from a callee, and LeakSanitizer must count that frame as a
 * root (gzip's add_envopt(&argc, &argv_copy) leaked under kitcc). */
#include <stdlib.h>
#include <string.h>
static void keep(char ***slot) { *slot = calloc(4, sizeof(char *)); }
static void scrub(void) {
  volatile char junk[4096];
  for (int i = 0; i < 4096; i++) junk[i] = 0;
}
__attribute__((noinline)) static void finish(int code) {
  scrub();
  exit(code);
}
int main(int argc, char **argv) {
  char **held = argv;
  char name[32];
  keep(&held);
  strcpy(name, "held");
  if (held && name[0]) finish(0);
  return argc;
}
// CLEAN
