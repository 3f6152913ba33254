/* -Wformat-security and -Wformat through arrays: a const char array
 * initialized by a literal is a literal format to gcc (expat's
 * `const char ellipis[] = "[..]"; fprintf(stderr, ellipis);`), a non-const one
 * or a pointer is not */
#include <stdio.h>

const char global_fmt[] = "%d\n";
char writable[] = "w";

void f(int i, const char *p) {
  const char ellipsis[] = "[..]";
  static const char twice[] = "%d %d\n";
  char local[] = "l";
  fprintf(stderr, ellipsis);
  printf(twice, i);
  printf(global_fmt, "not an int");
  printf(writable);
  printf(local);
  printf(p);
}
