/* clean_tls_pointer.c — clean: the only pointer to a heap block lives in a
 * thread-local variable at exit (static TLS: a module's PT_TLS natively, the
 * dynamic linker's block around tp under kit-emu), so LSan must not call it
 * leaked; the stack is scrubbed so no stale copy stands in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char *kept;

__attribute__((noinline)) static void keep(void) {
  kept = malloc(40);
  strcpy(kept, "kept in TLS only");
}

__attribute__((noinline)) static int scrub(int n) {
  volatile char buf[512];
  memset((char *)buf, 0, sizeof buf);
  return n ? scrub(n - 1) + buf[3] : 0;
}

int main(void) {
  keep();
  puts(kept);
  return scrub(8);
}
