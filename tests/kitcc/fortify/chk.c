/* tests/kitcc/fortify/chk.c CASE — the __builtin___X_chk family called
 * directly: "fits" calls each with an unknown (-1) or large enough object
 * size and prints the results; any other CASE names one X called with an
 * object size too small for what it writes, which glibc's __X_chk catches. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int vs(char *d, size_t os, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __builtin___vsprintf_chk(d, 0, os, fmt, ap);
  va_end(ap);
  return r;
}

static int vsn(char *d, size_t n, size_t os, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __builtin___vsnprintf_chk(d, n, 0, os, fmt, ap);
  va_end(ap);
  return r;
}

int main(int argc, char **argv) {
  char d[64];
  const char *c = argc > 1 ? argv[1] : "fits";
  size_t len = strlen(c) + 8; /* not a constant */
  size_t os = strcmp(c, "fits") ? 4 : sizeof d;
  if (!strcmp(c, "fits")) {
    __builtin___memset_chk(d, 'm', 10, (size_t)-1);
    __builtin___memcpy_chk(d, "cpy", 3, 3);
    char *e = __builtin___mempcpy_chk(d + 3, "pcpy", 4, sizeof d - 3);
    __builtin___memmove_chk(e, d, 2, (size_t)-1);
    d[9] = 0;
    printf("%s\n", d);
    __builtin___strcpy_chk(d, "str", sizeof d);
    __builtin___strcat_chk(d, "cat", (size_t)-1);
    __builtin___strncat_chk(d, "ncat", 2, sizeof d);
    e = __builtin___stpcpy_chk(d + strlen(d), "stp", (size_t)-1);
    printf("%s %td\n", d, e - d);
    __builtin___strncpy_chk(d, "n", 4, sizeof d);
    e = __builtin___stpncpy_chk(d + 1, "pn", 3, (size_t)-1);
    printf("%s %td\n", d, e - d);
    int n = __builtin___sprintf_chk(d, 0, (size_t)-1, "%d+%s", 7, "x");
    printf("%s %d\n", d, n);
    n = __builtin___snprintf_chk(d, 5, 0, sizeof d, "%s", "truncated");
    printf("%s %d\n", d, n);
    n = vs(d, (size_t)-1, "%x", 255);
    printf("%s %d\n", d, n);
    n = vsn(d, 3, sizeof d, "%s", "abcdef");
    printf("%s %d\n", d, n);
    return 0;
  }
  const char *src = "0123456789abcdefghij";
  if (!strcmp(c, "memcpy")) __builtin___memcpy_chk(d, src, len, os);
  else if (!strcmp(c, "mempcpy")) __builtin___mempcpy_chk(d, src, len, os);
  else if (!strcmp(c, "memmove")) __builtin___memmove_chk(d, src, len, os);
  else if (!strcmp(c, "memset")) __builtin___memset_chk(d, 0, len, os);
  else if (!strcmp(c, "strcpy")) __builtin___strcpy_chk(d, src, os);
  else if (!strcmp(c, "stpcpy")) __builtin___stpcpy_chk(d, src, os);
  else if (!strcmp(c, "strncpy")) __builtin___strncpy_chk(d, src, len, os);
  else if (!strcmp(c, "stpncpy")) __builtin___stpncpy_chk(d, src, len, os);
  else if (!strcmp(c, "strcat")) { d[0] = 0; __builtin___strcat_chk(d, src, os); }
  else if (!strcmp(c, "strncat")) { d[0] = 0; __builtin___strncat_chk(d, src, len, os); }
  else if (!strcmp(c, "sprintf")) __builtin___sprintf_chk(d, 0, os, "%s", src);
  else if (!strcmp(c, "snprintf")) __builtin___snprintf_chk(d, len, 0, os, "%s", src);
  else if (!strcmp(c, "vsprintf")) vs(d, os, "%s", src);
  else if (!strcmp(c, "vsnprintf")) vsn(d, len, os, "%s", src);
  else return 2;
  printf("not caught: %s\n", c);
  return 0;
}
