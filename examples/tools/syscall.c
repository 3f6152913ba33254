/* examples/tools/syscall.c — system calls by number: how often each was
 * made and how often it failed (a result in [-4095, -1]), from the entry
 * and return events; no translation-time work. Like QEMU's
 * contrib/plugins/syscall.c. Args: "out=FILE" (default stderr). Prints one
 * line per system call, most frequent first: "syscall: NAME CALLS ERRORS". */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r under -std=c11 */
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

static Stat *stats; /* in order of first call; a process makes few distinct calls */
static size_t n_stats, cap_stats;
static char *out_path;

static Stat *stat_for(uint64_t nr) {
  for (size_t i = 0; i < n_stats; i++)
    if (stats[i].nr == nr) return &stats[i];
  if (n_stats == cap_stats) {
    size_t cap = cap_stats ? cap_stats * 2 : 64;
    Stat *s = realloc(stats, cap * sizeof *s);
    if (!s) return NULL;
    stats = s, cap_stats = cap;
  }
  stats[n_stats] = (Stat){nr, 0, 0};
  return &stats[n_stats++];
}

static bool on_entry(KitEmu *emu, unsigned vcpu, KitEmuSyscall *sc, int64_t *ret, void *user) {
  (void)emu, (void)vcpu, (void)ret, (void)user;
  Stat *s = stat_for(sc->nr);
  if (s) s->calls++;
  return false; /* the kernel (the emulator) answers it */
}

static void on_return(KitEmu *emu, unsigned vcpu, const KitEmuSyscall *sc, int64_t ret, void *user) {
  (void)emu, (void)vcpu, (void)user;
  Stat *s = stat_for(sc->nr);
  if (s && ret < 0 && ret >= -4095) s->errors++;
}

static int by_calls(const void *x, const void *y) {
  const Stat *a = x, *b = y;
  if (a->calls != b->calls) return a->calls < b->calls ? 1 : -1;
  return a->nr < b->nr ? -1 : a->nr > b->nr;
}

static void on_exit_report(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status, (void)user;
  FILE *f = out_path ? fopen(out_path, "w") : stderr;
  if (!f) {
    fprintf(stderr, "syscall: cannot write %s: %s\n", out_path, strerror(errno));
    f = stderr;
  }
  qsort(stats, n_stats, sizeof *stats, by_calls);
  fprintf(f, "syscall: %-24s %10s %10s\n", "name", "calls", "errors");
  for (size_t i = 0; i < n_stats; i++) {
    const char *name = kit_emu_syscall_name(stats[i].nr);
    char unknown[32];
    if (!name) snprintf(unknown, sizeof unknown, "syscall_%" PRIu64, stats[i].nr), name = unknown;
    fprintf(f, "syscall: %-24s %10" PRIu64 " %10" PRIu64 "\n", name, stats[i].calls, stats[i].errors);
  }
  if (f == stderr) fflush(f);
  else fclose(f);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  if (args && !strncmp(args, "out=", 4)) {
    out_path = strdup(args + 4);
  } else if (args && *args) {
    fprintf(stderr, "syscall: unknown argument '%s' (out=FILE)\n", args);
    return 1;
  }
  kit_emu_on_syscall(tool, on_entry, NULL);
  kit_emu_on_syscall_ret(tool, on_return, NULL);
  kit_emu_on_exit(tool, on_exit_report, NULL);
  return 0;
}
