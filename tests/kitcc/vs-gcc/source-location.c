/* __builtin_LINE, __builtin_FILE and __builtin_FUNCTION: the call's own
 * line, file and function, as gcc and clang give them (logging macros use
 * them); __builtin___clear_cache evaluates its arguments and does nothing on
 * x86-64 */
#include <stdio.h>
#include <string.h>

#define WHERE() printf("%s:%d %s\n", strrchr(__builtin_FILE(), '/') + 1, __builtin_LINE(), __builtin_FUNCTION())

static void helper(void) { WHERE(); }

int main(void) {
  WHERE();
  helper();
  char code[16];
  int n = 0;
  __builtin___clear_cache(code + n++, code + 16);
  printf("line %d, args evaluated %d\n", __builtin_LINE(), n);
  return 0;
}
