/* emu/syscall_exec.c — execve (docs/emu.md, "execve"): a program of the
 * guest's arch, or a script whose #! interpreter is one, goes on under
 * kit-emu again with the options it was started with (the embedder's
 * KitEmuOptions.exec_argv: Valgrind's --trace-children); a host program, or
 * a script with a host interpreter, is the host's execve, as under
 * qemu-user without binfmt_misc. */
#include "instrument.h"
#include "syscall.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_STRINGS 65536 /* argv and envp entries, as a sanity bound */

typedef struct Strings {
  char **v;
  size_t n;
} Strings;

static void strings_free(Strings *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
  s->v = NULL, s->n = 0;
}

static int strings_push(Strings *s, const char *str) {
  char **nv = realloc(s->v, (s->n + 2) * sizeof *nv);
  if (!nv) return -ENOMEM;
  s->v = nv;
  if (!(s->v[s->n] = strdup(str))) return -ENOMEM;
  s->v[++s->n] = NULL;
  return 0;
}

/* a guest string of at most max bytes with its NUL into a host copy; longer:
 * toolong (Linux: ENAMETOOLONG for the path, E2BIG for an argument) */
static int guest_string(KitEmu *emu, uint64_t va, size_t max, int toolong, char **out) {
  for (size_t cap = 256;; cap *= 4) {
    if (cap > max) cap = max;
    char *b = malloc(cap);
    if (!b) return -ENOMEM;
    int64_t n = kit_aspace_strncpy(&emu->as, va, b, cap);
    if (n >= 0) {
      *out = b;
      return 0;
    }
    free(b);
    if (n != -ENAMETOOLONG) return (int)n;
    if (cap == max) return -toolong;
  }
}
#define MAX_ARG_STRLEN (32 * 4096) /* Linux's bound on one argument or environment string */

/* a guest NULL-terminated array of strings (argv, envp) */
static int guest_strings(KitEmu *emu, uint64_t va, Strings *s) {
  if (!va) return 0; /* Linux takes NULL as an empty array */
  for (size_t i = 0; i < MAX_STRINGS; i++) {
    uint64_t p;
    if (kit_aspace_read(&emu->as, va + 8 * i, &p, 8) < 0) return -EFAULT;
    if (!p) return 0;
    char *str;
    int r = guest_string(emu, p, MAX_ARG_STRLEN, E2BIG, &str);
    if (r < 0) return r;
    r = strings_push(s, str);
    free(str);
    if (r < 0) return r;
  }
  return -E2BIG;
}

/* where the guest's path is on the host: under the sysroot first for an
 * absolute one (as the other path calls do), /proc/self/exe the program */
static void host_path(KitEmu *emu, const char *p, char *out, size_t size) {
  if (!strcmp(p, "/proc/self/exe") || !strcmp(p, "/proc/thread-self/exe")) {
    snprintf(out, size, "%s", emu->exe_path);
    return;
  }
  if (p[0] == '/' && emu->sysroot[0] && strncmp(p, "/proc", 5) && strncmp(p, "/dev", 4)) {
    snprintf(out, size, "%s%s", emu->sysroot, p);
    if (access(out, F_OK) == 0) return;
  }
  snprintf(out, size, "%s", p);
}

enum { KIND_GUEST_ELF, KIND_HOST, KIND_SCRIPT };

/* what the file at path is; a script's interpreter and its one argument */
static int classify(KitEmu *emu, const char *path, char *interp, size_t isize, char *iarg, size_t asize) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  unsigned char h[256];
  ssize_t n = read(fd, h, sizeof h - 1);
  close(fd);
  if (n < 0) return -errno;
  if (n >= 20 && !memcmp(h, "\177ELF", 4)) {
    unsigned machine = h[5] == 2 ? (unsigned)h[18] << 8 | h[19] : (unsigned)h[18] | (unsigned)h[19] << 8;
    return machine == emu->arch->elf_machine ? KIND_GUEST_ELF : KIND_HOST;
  }
  if (n >= 2 && h[0] == '#' && h[1] == '!') {
    h[n] = 0;
    char *line = (char *)h + 2, *nl = strchr(line, '\n');
    if (!nl) return KIND_HOST; /* longer than Linux reads: the host says */
    *nl = 0;
    while (*line == ' ' || *line == '\t') line++;
    char *end = line + strcspn(line, " \t");
    char *arg = end;
    if (*arg) *arg++ = 0;
    while (*arg == ' ' || *arg == '\t') arg++;
    size_t al = strlen(arg);
    while (al && (arg[al - 1] == ' ' || arg[al - 1] == '\t')) arg[--al] = 0;
    if (!*line) return KIND_HOST;
    snprintf(interp, isize, "%s", line);
    snprintf(iarg, asize, "%s", arg);
    return KIND_SCRIPT;
  }
  return KIND_HOST;
}

/* the host's execve with the guest's signal mask; returns only on failure */
static int64_t host_execve(KitEmu *emu, const char *path, char **argv, char **envp) {
  sigset_t set, old;
  sigemptyset(&set);
  uint64_t m = kit_thr(emu)->sigmask;
  for (int s = 1; s < 64; s++)
    if ((m >> (s - 1)) & 1) sigaddset(&set, s);
  fflush(NULL);
  pthread_sigmask(SIG_SETMASK, &set, &old);
  execve(path, argv, envp);
  int e = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return -e;
}

int64_t kit_emu_sys_execve(KitEmu *emu, uint64_t path_va, uint64_t argv_va, uint64_t envp_va) {
  char *gpath;
  int64_t r = guest_string(emu, path_va, PATH_MAX, ENAMETOOLONG, &gpath);
  if (r < 0) return r;
  Strings argv = {0}, envp = {0}, run = {0};
  char path[PATH_MAX], interp[PATH_MAX], iarg[PATH_MAX], ipath[PATH_MAX];
  host_path(emu, gpath, path, sizeof path);
  if ((r = guest_strings(emu, argv_va, &argv)) < 0 || (r = guest_strings(emu, envp_va, &envp)) < 0) goto out;
  if (access(path, X_OK) < 0) {
    r = -errno;
    goto out;
  }
  int kind = (int)(r = classify(emu, path, interp, sizeof interp, iarg, sizeof iarg));
  if (r < 0) goto out;
  const char *prog = path, *argv0 = argv.n ? argv.v[0] : gpath;
  if (kind == KIND_SCRIPT) { /* the interpreter under kit-emu when it is the guest's */
    host_path(emu, interp, ipath, sizeof ipath);
    char dummy[2];
    if (classify(emu, ipath, dummy, sizeof dummy, dummy, sizeof dummy) != KIND_GUEST_ELF) kind = KIND_HOST;
    prog = ipath, argv0 = interp;
  }
  if (kind == KIND_HOST) {
    kit_emu_ev_execve(emu, gpath);
    r = host_execve(emu, path, argv.v ? argv.v : (char *[]){gpath, NULL}, envp.v ? envp.v : (char *[]){NULL});
    goto out;
  }
  if (!emu->opt.exec_argv || emu->opt.exec_argc < 1) {
    r = -ENOEXEC; /* no way to run it: what Linux says without binfmt_misc */
    goto out;
  }
  for (int i = 0; i < emu->opt.exec_argc && r >= 0; i++) r = strings_push(&run, emu->opt.exec_argv[i]);
  /* the new kit-emu's messages and reports: to the guest's fd 2 as it is then
   * (an instrumented program's own stderr), unless the guest closed it or
   * --log-fd said otherwise: then to this one's (docs/emu.md, "Descriptors") */
  int logfd = emu->log ? fileno(emu->log) : -1;
  bool pass_log = logfd > 2 && (emu->opt.log_fd_given || fcntl(2, F_GETFD) < 0);
  char logopt[32];
  snprintf(logopt, sizeof logopt, "--log-fd=%d", logfd);
  if (r >= 0 && pass_log) r = strings_push(&run, logopt);
  if (r >= 0) r = strings_push(&run, "-0");
  if (r >= 0) r = strings_push(&run, argv0);
  if (r >= 0) r = strings_push(&run, "--");
  if (r >= 0) r = strings_push(&run, prog);
  if (kind == KIND_SCRIPT) {
    if (r >= 0 && iarg[0]) r = strings_push(&run, iarg);
    if (r >= 0) r = strings_push(&run, gpath);
  }
  for (size_t i = 1; i < argv.n && r >= 0; i++) r = strings_push(&run, argv.v[i]);
  if (r >= 0) {
    if (pass_log) fcntl(logfd, F_SETFD, 0); /* the one descriptor of kit-emu's the new one keeps */
    kit_emu_ev_execve(emu, gpath);
    r = host_execve(emu, "/proc/self/exe", run.v, envp.v ? envp.v : (char *[]){NULL});
    if (pass_log) fcntl(logfd, F_SETFD, FD_CLOEXEC);
  }
out:
  strings_free(&argv);
  strings_free(&envp);
  strings_free(&run);
  free(gpath);
  return r;
}
