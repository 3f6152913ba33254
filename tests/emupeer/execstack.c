/* tests/emupeer/execstack.c — GNU C nested functions whose address escapes
 * need a trampoline on the stack, so the linker marks PT_GNU_STACK
 * executable and Linux maps the stack PROT_EXEC (kit-emu used to map it
 * non-executable: SIGSEGV at the trampoline; torture 20000822-1, 921215-1,
 * 931002-1). */
#include <stdio.h>

static int apply(int (*fn)(int), int v) { return fn(v); }

int main(void) {
  int base = 40, calls = 0;
  int add(int x) {
    calls++;
    return base + x;
  }
  int r = apply(add, 2);
  base = 100;
  r += apply(add, 5);
  printf("%d %d\n", r, calls);
  return r == 147 && calls == 2 ? 0 : 1;
}
