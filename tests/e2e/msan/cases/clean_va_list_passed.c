/* va_arg through a va_list handed to another function, on stack an earlier
 * frame left uninitialized (Lua's lua_pushfstring -> luaO_pushvfstring) */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
__attribute__((noinline)) static int dirty(int k) {
  volatile char junk[512];
  junk[k] = 1;
  return junk[k];
}
__attribute__((noinline)) static size_t vlen(int n, va_list ap) {
  size_t s = 0;
  for (int i = 0; i < n; i++) {
    const char *p = va_arg(ap, const char *);
    if (p == NULL) p = "(null)";
    s += strlen(p);
  }
  return s;
}
__attribute__((noinline)) static size_t len(int n, ...) {
  va_list ap;
  va_start(ap, n);
  size_t s = vlen(n, ap);
  va_end(ap);
  return s;
}
int main(void) {
  dirty(3);
  size_t s = len(9, "a", "bb", "ccc", "dddd", "e", "f", "g", "h", "i");
  if (s != 17) puts("wrong");
  return 0;
}
