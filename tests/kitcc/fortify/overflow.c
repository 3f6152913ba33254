/* tests/kitcc/fortify/overflow.c CASE — one buffer overflow that glibc's
 * _FORTIFY_SOURCE checks catch at run time ("*** buffer overflow detected
 * ***", SIGABRT); the size is only known at run time, so no compiler rejects
 * it. fortify.sh runs every case under gcc's and kitcc's build, a long line
 * on stdin. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  const char *c = argv[1];
  size_t big = 9 + (size_t)argc; /* > 8, not a constant */
  char buf[8];
  char *long_str = "this is longer than eight";
  volatile int sink = 0;
  if (!strcmp(c, "memcpy")) memcpy(buf, long_str, big);
  else if (!strcmp(c, "memmove")) memmove(buf, long_str, big);
  else if (!strcmp(c, "memset")) memset(buf, 0, big);
  else if (!strcmp(c, "strcpy")) strcpy(buf, argv[0][0] ? long_str : "");
  else if (!strcmp(c, "stpcpy")) sink = *stpcpy(buf, argv[0][0] ? long_str : "");
  else if (!strcmp(c, "strncpy")) strncpy(buf, long_str, big);
  else if (!strcmp(c, "stpncpy")) sink = *stpncpy(buf, long_str, big);
  else if (!strcmp(c, "strcat")) { strcpy(buf, "abc"); strcat(buf, argv[1]); strcat(buf, long_str); }
  else if (!strcmp(c, "strncat")) { strcpy(buf, "abc"); strncat(buf, long_str, big); }
  else if (!strcmp(c, "sprintf")) sprintf(buf, "%s", long_str);
  else if (!strcmp(c, "snprintf")) snprintf(buf, big, "%s", long_str);
  else if (!strcmp(c, "read")) { int fd = open("/dev/zero", O_RDONLY); sink = (int)read(fd, buf, big); }
  else if (!strcmp(c, "fgets")) sink = fgets(buf, (int)big, stdin) != NULL;
  else if (!strcmp(c, "wmemcpy")) { wchar_t w[4]; wmemcpy(w, L"0123456789abcdef", big); sink = w[0]; }
  else if (!strcmp(c, "heap")) { char *h = malloc(8); memcpy(h, long_str, big); sink = h[0]; free(h); }
  else return 2;
  printf("not caught: %s %d\n", buf, sink);
  return 0;
}
