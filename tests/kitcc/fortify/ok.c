/* tests/kitcc/fortify/ok.c — glibc's fortified functions used within bounds:
 * the program prints the same under gcc and kitcc at -D_FORTIFY_SOURCE=2/3. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

static int vformat(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return r;
}

static int vformat_unbounded(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsprintf(buf, fmt, ap);
  va_end(ap);
  return r;
}

int main(int argc, char **argv) {
  (void)argv;
  char a[16], b[16];
  memset(a, 'x', sizeof a);
  memcpy(b, "0123456789abcdef", sizeof b);
  memmove(b + 1, b, 8);
  printf("%.16s %.16s\n", a, b);
  strcpy(a, "hi");
  char *e;
  strcat(a, "-there");
  strncat(a, "!!!!!!!!", 3);
  printf("%s %zu\n", a, strlen(a));
  strcpy(b, "copy");
  e = stpcpy(b + 4, "+stp");
  printf("%s %td\n", b, e - b);
  strncpy(a, "abc", sizeof a);
  e = stpncpy(b, "xyz", 5);
  printf("%s %s %td\n", a, b, e - b);
  int n = sprintf(a, "%d-%s", argc, "s");
  printf("%s %d\n", a, n);
  n = snprintf(a, sizeof a, "%s", "a long string, cut");
  printf("%s %d\n", a, n);
  n = vformat(b, sizeof b, "%05d|%x", 42, 255);
  printf("%s %d\n", b, n);
  n = vformat_unbounded(b, "%c%c", 'o', 'k');
  printf("%s %d\n", b, n);
  fprintf(stdout, "%s %d\n", "fprintf", 3);
  char *sp = b;
  sprintf(sp++, "%d", 5); /* glibc's macro names sp twice: evaluated once */
  snprintf(sp++, 4, "%d", 6);
  printf("%td %s\n", sp - b, b);
  char *heap = malloc(8 + argc);
  memcpy(heap, "heap", 5);
  strcat(heap, "ok");
  printf("%s\n", heap);
  free(heap);
  int fd = open("/dev/zero", O_RDONLY);
  ssize_t got = read(fd, a, sizeof a);
  close(fd);
  printf("read %zd %d\n", got, a[3]);
  wchar_t w[8];
  wmemcpy(w, L"wide", 5);
  wcscat(w, L"!");
  printf("%ls %zu\n", w, wcslen(w));
  char cwd[4096];
  printf("getcwd %s\n", getcwd(cwd, sizeof cwd) ? "ok" : "failed");
  return 0;
}
