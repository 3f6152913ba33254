/* startup.c — the start-up both glues share: options (the program's defaults,
 * then ASAN_OPTIONS, then LSAN_OPTIONS), the report output (stderr, stdout or
 * log_path.PID), the unrecognized-flag warning, and the platform the core
 * writes, names the process and ends it through. */
#include "san_core.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int out_fd = 2;
static bool flush_stdio;
static char unknown[8][64];
static int nunknown;

void kit_san_out_default(int fd) { out_fd = fd; }

void kit_san_out_write(const char *buf, size_t n) {
  while (n) {
    ssize_t k = write(out_fd, buf, n);
    if (k <= 0)
      return;
    buf += k;
    n -= (size_t)k;
  }
}

static int get_pid(void) { return (int)getpid(); }

static __attribute__((noreturn)) void die(int code, bool abort_now) {
  if (flush_stdio)
    fflush(NULL);
  if (abort_now) {
    signal(SIGABRT, SIG_DFL);
    abort();
  }
  _exit(code);
}

/* Like the reference, unknown flags are only listed at verbosity >= 1. */
static void warn_flag(const char *name, const char *tool) {
  if (!strcmp(tool, "LeakSanitizer") || nunknown >= 8)
    return;
  snprintf(unknown[nunknown++], sizeof unknown[0], "%s", name);
}

static void print_unknown(void) {
  if (!nunknown || kit_san_opts.verbosity < 1)
    return;
  char buf[128];
  int n = snprintf(buf, sizeof buf, "WARNING: found %d unrecognized flag(s):\n", nunknown);
  kit_san_out_write(buf, (size_t)n);
  for (int i = 0; i < nunknown; i++) {
    n = snprintf(buf, sizeof buf, "    %s\n", unknown[i]);
    kit_san_out_write(buf, (size_t)n);
  }
}

static void open_log(void) {
  const char *p = kit_san_opts.log_path;
  if (!p[0] || !strcmp(p, "stderr"))
    return;
  if (!strcmp(p, "stdout")) {
    out_fd = 1;
    return;
  }
  char path[600];
  snprintf(path, sizeof path, "%s.%d", p, (int)getpid());
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0)
    out_fd = fd;
}

const KitSanPlatform *kit_san_startup(const char *default_options, int (*tid)(void),
                                      bool flush_on_die) {
  static KitSanPlatform plat;
  flush_stdio = flush_on_die;
  kit_san_options_defaults(&kit_san_opts);
  kit_san_options_parse(&kit_san_opts, default_options, warn_flag, "AddressSanitizer");
  kit_san_options_parse(&kit_san_opts, getenv("ASAN_OPTIONS"), warn_flag, "AddressSanitizer");
  kit_san_options_parse(&kit_san_opts, getenv("LSAN_OPTIONS"), warn_flag, "LeakSanitizer");
  open_log();
  print_unknown();
  plat = (KitSanPlatform){kit_san_out_write, get_pid, die, tid};
  return &plat;
}
