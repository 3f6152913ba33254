/* examples/tools/syscall.c — system calls by number: how often each was
 * made and how often it failed (a result in [-4095, -1]), from the entry
 * and return events; no translation-time work. Like QEMU's
 * contrib/plugins/syscall.c. Args: "out=FILE" (default stderr). Prints one
 * line per system call, most frequent first: "syscall: NAME CALLS ERRORS". */
#define _POSIX_C_SOURCE 200809L /* strdup under -std=c11 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

typedef struct Stat {
  uint64_t nr, calls, errors;
} Stat;

/* one per --tool=syscall.so (the same shared object can run twice) */
typedef struct Sys {
  Stat *stats;          /* in order of first call; a process makes few distinct calls */
  size_t n, cap;
  const char *out_path; /* NULL: stderr */
} Sys;

static Stat *stat_for(Sys *s, uint64_t nr) {
  for (size_t i = 0; i < s->n; i++)
    if (s->stats[i].nr == nr) return &s->stats[i];
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    Stat *stats = realloc(s->stats, cap * sizeof *stats);
    if (!stats) return NULL;
    s->stats = stats, s->cap = cap;
  }
  s->stats[s->n] = (Stat){nr, 0, 0};
  return &s->stats[s->n++];
}

static bool on_entry(KitEmu *emu, unsigned vcpu, KitEmuSyscall *sc, int64_t *ret, void *user) {
  (void)emu, (void)vcpu, (void)ret;
  Stat *st = stat_for(user, sc->nr);
  if (st) st->calls++;
  return false; /* the kernel (the emulator) answers it */
}

static void on_return(KitEmu *emu, unsigned vcpu, const KitEmuSyscall *sc, int64_t ret, void *user) {
  (void)emu, (void)vcpu;
  Stat *st = stat_for(user, sc->nr);
  if (st && ret < 0 && ret >= -4095) st->errors++;
}

static int by_calls(const void *x, const void *y) {
  const Stat *a = x, *b = y;
  if (a->calls != b->calls) return a->calls < b->calls ? 1 : -1;
  return a->nr < b->nr ? -1 : a->nr > b->nr;
}

static void on_exit_report(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status;
  Sys *s = user;
  FILE *f = s->out_path ? fopen(s->out_path, "w") : stderr;
  if (!f) {
    fprintf(stderr, "syscall: cannot write %s: %s\n", s->out_path, strerror(errno));
    f = stderr;
  }
  qsort(s->stats, s->n, sizeof *s->stats, by_calls);
  fprintf(f, "syscall: %-24s %10s %10s\n", "name", "calls", "errors");
  for (size_t i = 0; i < s->n; i++) {
    const char *name = kit_emu_syscall_name(s->stats[i].nr);
    char unknown[32];
    if (!name) snprintf(unknown, sizeof unknown, "syscall_%" PRIu64, s->stats[i].nr), name = unknown;
    fprintf(f, "syscall: %-24s %10" PRIu64 " %10" PRIu64 "\n", name, s->stats[i].calls, s->stats[i].errors);
  }
  if (f == stderr) fflush(f);
  else fclose(f);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  Sys *s = calloc(1, sizeof *s);
  if (!s) return 1;
  if (args && !strncmp(args, "out=", 4)) {
    s->out_path = strdup(args + 4);
  } else if (args && *args) {
    fprintf(stderr, "syscall: unknown argument '%s' (out=FILE)\n", args);
    return 1;
  }
  kit_emu_on_syscall(tool, on_entry, s);
  kit_emu_on_syscall_ret(tool, on_return, s);
  kit_emu_on_exit(tool, on_exit_report, s);
  return 0;
}
