/* emu/tools/strace.c — --strace: one strace(1)-style line per guest system
 * call, written when the call returns (kit_emu_on_syscall_ret) with nothing
 * else of the tool API: decoded flags,
 * quoted strings and buffers, errors as "-1 ENOENT (No such file or directory)". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#include "tools.h"

static FILE *out;
/* once a thread was made, lines name their thread, as strace -f's do (its
 * first clone line, begun before the child existed, does not) */
static bool threaded;

typedef struct Flag {
  uint64_t bit;
  const char *name;
} Flag;

/* argument kinds: f fd, d int, u unsigned, x hex, s string, w buffer the call
 * reads (length in the next argument), r buffer the call fills (length = the
 * result), o open flags, m octal mode, p pointer, P prot, M mmap flags, S signal, W whence */
static const struct {
  const char *name, *args;
} specs[] = {
    {"openat", "fsom"},        {"read", "fru"},        {"write", "fwu"},           {"close", "f"},
    {"pread64", "fruu"},       {"pwrite64", "fwuu"},   {"lseek", "fdW"},           {"newfstatat", "fspx"},
    {"fstat", "fp"},           {"faccessat", "fsm"},   {"faccessat2", "fsmx"},     {"readlinkat", "fsru"},
    {"unlinkat", "fsx"},       {"mkdirat", "fsm"},     {"chdir", "s"},             {"getcwd", "pu"},
    {"brk", "p"},              {"mmap", "puPMfx"},     {"munmap", "pu"},           {"mprotect", "puP"},
    {"mremap", "puuxp"},       {"madvise", "pud"},     {"exit_group", "d"},        {"exit", "d"},
    {"rt_sigaction", "Sppu"},  {"rt_sigprocmask", "dppu"}, {"ioctl", "fxp"},       {"dup", "f"},
    {"dup3", "ffx"},           {"fcntl", "fdx"},       {"pipe2", "px"},            {"getdents64", "fpu"},
    {"set_tid_address", "p"},  {"set_robust_list", "pu"}, {"prlimit64", "ddpp"},   {"uname", "p"},
    {"getrandom", "pux"},      {"clock_gettime", "dp"}, {"kill", "dS"},            {"tgkill", "ddS"},
    {"wait4", "dpxp"},         {"clone", "xpppp"},     {"futex", "pddp"},          {"statx", "fsxxp"},
    {"writev", "fpd"},         {"readv", "fpd"},       {"renameat2", "fsfsx"},     {"ftruncate", "fd"},
    {"getpid", ""},            {"gettid", ""},         {"getppid", ""},            {"getuid", ""},
    {"geteuid", ""},           {"getgid", ""},         {"getegid", ""},            {"sched_yield", ""},
    {"rseq", "pudx"},          {"sigaltstack", "pp"},  {"nanosleep", "pp"},        {"gettimeofday", "pp"},
    {"execve", "spp"},         {"sysinfo", "p"},       {"rt_sigreturn", ""},       {"setsid", ""},
};

static void put_str(KitEmu *emu, uint64_t va, uint64_t maxlen, bool nul_term) {
  if (!va && nul_term) {
    fputs("NULL", out);
    return;
  }
  unsigned char buf[32];
  uint64_t n = 0;
  while (n < sizeof buf && n < maxlen && kit_emu_read_mem(emu, va + n, &buf[n], 1) == 0) {
    if (nul_term && !buf[n]) break;
    n++;
  }
  if (n == 0 && maxlen && kit_emu_read_mem(emu, va, buf, 1) < 0) {
    fprintf(out, "0x%" PRIx64, va);
    return;
  }
  bool more = false;
  if (n == sizeof buf) {
    unsigned char c;
    more = nul_term ? kit_emu_read_mem(emu, va + n, &c, 1) == 0 && c : maxlen > n;
  }
  fputc('"', out);
  for (uint64_t i = 0; i < n; i++) {
    unsigned char c = buf[i];
    switch (c) {
    case '\n': fputs("\\n", out); break;
    case '\t': fputs("\\t", out); break;
    case '\r': fputs("\\r", out); break;
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    default:
      if (c >= 32 && c < 127) fputc(c, out);
      else fprintf(out, "\\%o", c);
    }
  }
  fputc('"', out);
  if (more) fputs("...", out);
}

static void put_flags(uint64_t v, const Flag *t, size_t n, const char *zero) {
  bool first = true;
  for (size_t i = 0; i < n; i++)
    if (t[i].bit && (v & t[i].bit) == t[i].bit) {
      fprintf(out, "%s%s", first ? "" : "|", t[i].name);
      v &= ~t[i].bit;
      first = false;
    }
  if (v || first) {
    if (first && !v && zero) fputs(zero, out);
    else fprintf(out, "%s%#" PRIx64, first ? "" : "|", v);
  }
}

#define FL(x) {x, #x}
static void put_open_flags(uint64_t v) {
  static const char *acc[] = {"O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE"};
  fputs(acc[v & 3], out);
  v &= ~3ull;
  static const Flag t[] = {
      FL(O_CREAT), FL(O_EXCL), FL(O_NOCTTY), FL(O_TRUNC), FL(O_APPEND), FL(O_NONBLOCK), FL(O_DSYNC),
      FL(O_DIRECTORY), FL(O_NOFOLLOW), FL(O_CLOEXEC), FL(O_PATH), FL(O_LARGEFILE)};
  if (v) {
    fputc('|', out);
    put_flags(v, t, sizeof t / sizeof t[0], NULL);
  }
}

static void put_arg(KitEmu *emu, char kind, const uint64_t *a, int i, int64_t ret) {
  uint64_t v = a[i];
  switch (kind) {
  case 'f':
    if ((int32_t)v == -100) fputs("AT_FDCWD", out);
    else fprintf(out, "%d", (int32_t)v);
    break;
  case 'd': fprintf(out, "%" PRId64, (int64_t)v); break;
  case 'u': fprintf(out, "%" PRIu64, v); break;
  case 'x': fprintf(out, "%#" PRIx64, v); break;
  case 'm': fprintf(out, "%#" PRIo64, v); break;
  case 'p':
    if (v) fprintf(out, "0x%" PRIx64, v);
    else fputs("NULL", out);
    break;
  case 's': put_str(emu, v, 4096, true); break;
  case 'w': put_str(emu, v, a[i + 1], false); break;
  case 'r':
    if (ret >= 0) put_str(emu, v, (uint64_t)ret, false);
    else fprintf(out, "0x%" PRIx64, v);
    break;
  case 'o': put_open_flags(v); break;
  case 'P': {
    static const Flag t[] = {FL(PROT_READ), FL(PROT_WRITE), FL(PROT_EXEC)};
    put_flags(v, t, 3, "PROT_NONE");
    break;
  }
  case 'M': {
    static const Flag t[] = {
        FL(MAP_SHARED), FL(MAP_PRIVATE), FL(MAP_FIXED), FL(MAP_ANONYMOUS), FL(MAP_NORESERVE),
        FL(MAP_STACK), FL(MAP_FIXED_NOREPLACE), FL(MAP_DENYWRITE), FL(MAP_POPULATE)};
    put_flags(v, t, sizeof t / sizeof t[0], "0");
    break;
  }
  case 'S':
    if (v > 0 && v < 65 && sigabbrev_np((int)v)) fprintf(out, "SIG%s", sigabbrev_np((int)v));
    else fprintf(out, "%" PRIu64, v);
    break;
  case 'W': {
    static const char *w[] = {"SEEK_SET", "SEEK_CUR", "SEEK_END"};
    if (v < 3) fputs(w[v], out);
    else fprintf(out, "%" PRIu64, v);
    break;
  }
  }
}

static void print_call(KitEmu *emu, const KitEmuSyscall *req, int64_t ret) {
  const char *name = kit_emu_syscall_name(req->nr);
  char prefix[32] = "";
  if (threaded) snprintf(prefix, sizeof prefix, "[pid %5d] ", kit_emu_thread_id(emu));
  fputs(prefix, out);
  const char *args = "xxx";
  if (name) {
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
      if (!strcmp(specs[i].name, name)) args = specs[i].args;
    /* like strace: the mode only when the call can create */
    if (!strcmp(name, "openat") && !(req->args[2] & (O_CREAT | O_TMPFILE))) args = "fso";
    fprintf(out, "%s(", name);
  } else {
    fprintf(out, "syscall_%" PRIu64 "(", req->nr);
  }
  for (int i = 0; args[i]; i++) {
    if (i) fputs(", ", out);
    put_arg(emu, args[i], req->args, i, ret);
  }
  bool is_exit = name && (!strcmp(name, "exit_group") || !strcmp(name, "exit"));
  if (is_exit) {
    fprintf(out, ") = ?\n%s+++ exited with %d +++\n", prefix, (int)(req->args[0] & 0xff));
  } else if (ret < 0 && ret > -4096) {
    int e = (int)-ret;
    const char *en = strerrorname_np(e);
    fprintf(out, ") = -1 %s (%s)\n", en ? en : "E?", strerror(e));
  } else if (name && (!strcmp(name, "mmap") || !strcmp(name, "brk") || !strcmp(name, "mremap"))) {
    fprintf(out, ") = %#" PRIx64 "\n", (uint64_t)ret);
  } else {
    fprintf(out, ") = %" PRId64 "\n", ret);
  }
  fflush(out);
  if (name && !strcmp(name, "clone") && (req->args[0] & 0x10000 /* CLONE_THREAD */) && ret > 0) threaded = true;
}

/* the call in progress on this thread (an execve that succeeds never returns) */
static _Thread_local KitEmuSyscall current;

static bool on_syscall(KitEmu *emu, unsigned vcpu, KitEmuSyscall *req, int64_t *ret, void *user) {
  (void)emu, (void)vcpu, (void)ret, (void)user;
  current = *req;
  return false;
}

static void on_syscall_ret(KitEmu *emu, unsigned vcpu, const KitEmuSyscall *req, int64_t ret, void *user) {
  (void)vcpu, (void)user;
  print_call(emu, req, ret);
}

/* strace prints a successful execve's line once the new program runs; this is
 * just before (the new kit-emu prints its calls after it) */
static void on_execve(KitEmu *emu, unsigned vcpu, const char *path, void *user) {
  (void)vcpu, (void)path, (void)user;
  print_call(emu, &current, 0);
}

int kit_emu_tool_strace_main(KitEmuTool *tool, FILE *o) {
  out = o;
  kit_emu_on_syscall(tool, on_syscall, NULL);
  kit_emu_on_syscall_ret(tool, on_syscall_ret, NULL);
  kit_emu_on_execve(tool, on_execve, NULL);
  return 0;
}
