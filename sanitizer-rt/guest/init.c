/* init.c — the guest glue's start-up: ASAN_OPTIONS / LSAN_OPTIONS read from
 * kit-emu's environment (the guest's, which it inherits), report output
 * (stderr or log_path.PID), how a fatal report ends the process, and the core
 * wired to guest pages, the guest shadow call stack and the guest symbolizer. */
#include "guest.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int out_fd = 2;
static bool ready;
static KitGuestEnv genv;

static void out_write(const char *buf, size_t n) {
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
  fflush(NULL);
  if (abort_now) {
    signal(SIGABRT, SIG_DFL);
    abort();
  }
  _exit(code);
}

static char unknown[8][64];
static int nunknown;

static void warn_flag(const char *name, const char *tool) {
  if (!strcmp(tool, "LeakSanitizer") || nunknown >= 8)
    return;
  snprintf(unknown[nunknown++], sizeof unknown[0], "%s", name);
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

static uintptr_t pages_map(void *ctx, size_t size) { return genv.map(ctx, size); }
static void pages_unmap(void *ctx, uintptr_t a, size_t size) { genv.unmap(ctx, a, size); }

size_t kit_guest_unwind(void *ctx, uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max);

void kit_guest_init(const KitGuestEnv *env, uintptr_t shadow_host) {
  genv = *env;
  kit_san_options_defaults(&kit_san_opts);
  kit_san_options_parse(&kit_san_opts, getenv("ASAN_OPTIONS"), warn_flag, "AddressSanitizer");
  kit_san_options_parse(&kit_san_opts, getenv("LSAN_OPTIONS"), warn_flag, "LeakSanitizer");
  open_log();
  if (nunknown && kit_san_opts.verbosity >= 1) {
    char buf[128];
    int n = snprintf(buf, sizeof buf, "WARNING: found %d unrecognized flag(s):\n", nunknown);
    out_write(buf, (size_t)n);
    for (int i = 0; i < nunknown; i++) {
      n = snprintf(buf, sizeof buf, "    %s\n", unknown[i]);
      out_write(buf, (size_t)n);
    }
  }
  kit_san_shadow_base = shadow_host;
  __asan_shadow_memory_dynamic_address = shadow_host;
  static KitSanPageProvider pages;
  pages = (KitSanPageProvider){pages_map, pages_unmap, env->ctx, env->host_delta};
  static const KitSanPlatform plat = {out_write, get_pid, die, NULL};
  static const KitSanFrameSource frames = {kit_guest_unwind, NULL};
  static const KitSanSymbolizer sym = {kit_guest_symbolize, NULL};
  kit_san_core_init(&plat, &pages, &frames, &sym);
  ready = true;
}

bool kit_guest_ready(void) { return ready; }

/* for the string functions: is guest memory there (else the guest faults) */
bool kit_guest_accessible(uintptr_t addr, size_t n, bool write) {
  return !n || genv.accessible(genv.ctx, addr, n, write);
}
uintptr_t kit_guest_delta(void) { return genv.host_delta; }
