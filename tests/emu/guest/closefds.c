/* closefds.c — a guest that closes every descriptor it has, as daemons and
 * test harnesses do, then keeps working: the emulator's own output (tools,
 * strace, sanitizer reports) must still arrive (docs/emu.md, "Descriptors").
 * Modes: "close" (close 0..limit one by one, fclose(stderr)), "range"
 * (close_range(0, ~0U)), "dup" (dup3 of a pipe end onto every number below
 * the limit, then close them). Then, with a second argument "overflow", a
 * heap overflow for ASan to report. Exit status 3 when every call it made
 * behaved as a program may expect (closing a number that is not its own fails
 * with EBADF, nothing else), so the caller knows the guest ran to the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "close";
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 10;
  long lim = rl.rlim_cur > 4096 ? 4096 : (long)rl.rlim_cur;
  printf("closing (%s)\n", mode);
  fflush(stdout);
  int bad = 0;
  if (!strcmp(mode, "close")) {
    fclose(stderr);
    for (long fd = 0; fd < lim; fd++)
      if (close((int)fd) != 0 && errno != EBADF) bad++;
  } else if (!strcmp(mode, "range")) {
    if (syscall(SYS_close_range, 0u, ~0u, 0u) != 0) bad++;
  } else if (!strcmp(mode, "dup")) {
    int p[2];
    if (pipe(p) != 0) return 11;
    for (long fd = 0; fd < lim; fd++) {
      if (fd == p[1]) continue;
      if (dup3(p[1], (int)fd, 0) < 0 && errno != EBADF) bad++;
    }
    for (long fd = 0; fd < lim; fd++) close((int)fd);
  } else {
    return 12;
  }
  /* the lowest free number is 0 again, as after closing everything */
  int n = open("/dev/null", O_WRONLY);
  if (n != 0) bad++;
  if (argc > 2 && !strcmp(argv[2], "overflow")) {
    volatile int at = 16; /* an index gcc cannot see past the end */
    volatile char *q = malloc(16);
    q[at] = 1; /* heap-buffer-overflow */
    free((void *)q);
  }
  return bad ? 4 : 3;
}
