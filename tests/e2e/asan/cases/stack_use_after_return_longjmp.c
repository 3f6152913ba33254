/* tests/e2e/asan/cases/stack_use_after_return_longjmp.c — one bug: 500 longjmps
 * out of frames with arrays leave their fake-stack slots (use-after-return is on
 * by default) behind; the runtime must take them back when the size class fills
 * up, or later frames of that class fall back to the real stack and the
 * use-after-return below goes unseen. */
#include <setjmp.h>
#include <string.h>
static jmp_buf jb;
static int sink;
__attribute__((noinline)) static char *launder(char *p) { return p; }
static void deep(int n) {
  char buf[48];
  memset(buf, n, sizeof buf);
  sink += buf[n % 48];
  if (n == 0) longjmp(jb, 1);
  deep(n - 1);
}
static char *leak(void) {
  char buf[48];
  memset(buf, 1, sizeof buf);
  return launder(buf);
}
int main(void) {
  for (int i = 0; i < 500; i++)
    if (!setjmp(jb)) deep(6);
  char *q = leak();
  return q[3] + sink; // BUG
}
// CHECK: ERROR: AddressSanitizer: stack-use-after-return on address 0xADDR
// CHECK: READ of size 1 at 0xADDR thread T0
// CHECK: #0 0xADDR in main stack_use_after_return_longjmp.c:27
// CHECK: 'buf' (line 19) <== Memory access at offset 35 is inside this variable
// CHECK: SUMMARY: AddressSanitizer: stack-use-after-return stack_use_after_return_longjmp.c:27 in main
