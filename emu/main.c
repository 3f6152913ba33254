/* emu/main.c — the kit-emu driver: option parsing, tool selection, running a
 * guest Linux program (an arch of include/kit/arch.h) and exiting with its
 * status. */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/emu.h"
#include "kit/passes.h"
#include "tools/asan/asan.h"
#include "tools/gdb/gdb_tool.h"
#include "tools/tools.h"
#include "tools/trace_tool/trace_tool.h"

extern char **environ;

/* the guest arches' names and default sysroots, for the help text */
static void arch_list(FILE *f, bool sysroots) {
  for (size_t i = 0; kit_arches[i]; i++) {
    const KitArch *a = kit_arches[i];
    if (sysroots) fprintf(f, "%s%s (%s)", i ? ", " : "", a->default_sysroot ? a->default_sysroot : "none", a->name);
    else fprintf(f, "%s%s", i ? ", " : "", a->name);
  }
}

static void usage(FILE *f) {
  fputs("usage: kit-emu [options] program [args...]\n"
        "  -L DIR             sysroot for the dynamic linker and libraries (default: $KIT_EMU_SYSROOT,\n"
        "                     else ", f);
  arch_list(f, true);
  fputs(")\n"
        "  -0 ARGV0           the guest's argv[0] (default: the program as given), as qemu's -0\n"
        "  -d LIST            debug output: in_asm,cg,exec,syscall,stats,perfmap\n"
        "  --tier=0|1|auto    0: CG interpreter; 1: LLVM JIT for every block; auto (default): hot blocks\n"
        "  --jit-threshold=N  executions before a block is compiled by LLVM (auto tier; when given,\n"
        "                     without the default's warm-up of 100000 blocks run first)\n"
        "  --single-step      one guest instruction per block\n"
        "  --chain            jitted blocks jump to each other (the default)\n"
        "  --no-chain         jitted blocks return to the dispatcher instead of jumping to each other\n"
        "  --serial-threads   guest threads take turns (as under Valgrind; tools always make them)\n"
        "  --no-tier2         no second compilation of the hottest blocks (traces, full register allocator)\n"
        "  --no-baseline      no baseline compiler: blocks wait in the interpreter for LLVM\n"
        "  --strace           print each system call to stderr\n"
        "  -g PORT|PATH       wait for gdb (target remote :PORT, or a Unix socket at PATH) before the\n"
        "                     first instruction, as qemu's -g; docs/gdb.md\n"
        "  --dbg              the built-in debugger (break, run, step, next, finish, bt, print, x, watch,\n"
        "                     info, list); commands from -ex CMD (repeatable), then stdin unless -batch\n"
        "  -ex CMD, -batch    --dbg's commands and batch mode, as gdb's\n"
        "  --tool=NAME[,ARGS] insncount, callgrind (its options after commas: docs/callgrind.md), or a\n"
        "                     path to a tool shared object (docs/tools.md) and its arguments; several\n"
        "                     --tool options run together, in their order\n"
        "  --tool-args=STR    the arguments of the last --tool (when it has none after a comma)\n"
        "  --trace=EVENTS     stream events to --trace-out (docs/trace-format.md): a comma list of insn,\n"
        "                     block, branch, mem, regs, syscall, mmap, signal, thread, translate, all\n"
        "  --trace-out=DEST   a file (%p: the process id), or shm:NAME (a shared-memory ring a reader attaches\n"
        "                     to); default kit.trace. A program the guest execs writes its own file: DEST\n"
        "                     with %p, else DEST.PID, never over an earlier one (docs/trace-format.md)\n"
        "  --trace-exec-out=DEST  that program's --trace-out, as an execve passes it on\n"
        "  --trace-drop       a full ring drops records (counted in the stream) instead of making the guest wait\n"
        "  --trace-ring=BYTES the ring's size, a power of two (default 16 MiB)\n"
        "  --probe=SPEC       count hits at FUNC, FUNC+0xOFF or FILE:LINE (docs/probe.md), printed at exit;\n"
        "                     repeatable, or several specs separated by ';'\n"
        "  --probe-list=FUNC  FUNC's instructions (offsets, disassembly, file:line) and the inlined calls in\n"
        "                     it with their address ranges; the guest does not run\n"
        "  --sanitize=LIST    address (AddressSanitizer on guest code and heap, ASAN_OPTIONS as usual),\n"
        "                     coverage (block counts of the program for kit-cov, written at exit to\n"
        "                     $KIT_COVERAGE_DIR or coverage_dir, default .); comma-separated\n"
        "                     memory (MemorySanitizer: uses of uninitialized bits, MSAN_OPTIONS as usual;\n"
        "                     not with address)\n"
        "  --sanitize-recover=address|memory  reports continue when ASAN_OPTIONS/MSAN_OPTIONS has\n"
        "                     halt_on_error=0\n"
        "  --sanitize-memory-track-origins[=0|1]  --sanitize=memory's reports name the heap\n"
        "                     allocation an uninitialized value came from (its guest stack)\n"
        "  --trace-children=yes|no  yes (the default): a guest program the guest execs runs under\n"
        "                     kit-emu with these options; no: under kit-emu without tools or sanitizers\n"
        "  --log-fd=N         kit-emu's messages, tools' output and reports to descriptor N (default 2),\n"
        "                     as Valgrind's; a program the guest execs logs there too\n"
        "  -h, --help         this text\n"
        "  --version          the version\n"
        "  --                 end of options: the program follows\n"
        "The guest's stack is RLIMIT_STACK (ulimit -s; 8 MiB when unlimited); its address space is\n"
        "what RLIMIT_AS (ulimit -v) leaves beside kit-emu's own needs, at most 256 GiB.\n",
        f);
}

static int parse_debug(const char *s, unsigned *out) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (!strcmp(tok, "in_asm")) *out |= KIT_EMU_DEBUG_IN_ASM;
    else if (!strcmp(tok, "cg")) *out |= KIT_EMU_DEBUG_CG;
    else if (!strcmp(tok, "exec")) *out |= KIT_EMU_DEBUG_EXEC;
    else if (!strcmp(tok, "syscall")) *out |= KIT_EMU_DEBUG_SYSCALL;
    else if (!strcmp(tok, "perfmap")) *out |= KIT_EMU_DEBUG_PERFMAP;
    else if (!strcmp(tok, "stats")) *out |= KIT_EMU_DEBUG_STATS;
    else {
      fprintf(stderr, "kit-emu: unknown -d item '%s' (in_asm, cg, exec, syscall, stats)\n", tok);
      return -1;
    }
  }
  return 0;
}

/* what the command line asks for */
#define MAX_TOOL_ARGS 16
typedef struct Args {
  KitEmuOptions opt;
  bool strace;
  const char *gdb; /* -g */
  bool dbg, batch;  /* --dbg, -batch */
  char *dbg_cmds[64]; /* -ex */
  int ndbg_cmds;
  struct {
    char name[512];
    const char *args;
  } tool[MAX_TOOL_ARGS];
  unsigned ntools;
  uint64_t sanitize, recover;
  int msan_origins;
  bool no_trace_children;
  const char *trace, *trace_out;
  bool trace_exec; /* --trace-exec-out: started by a traced program's execve */
  int log_fd;      /* --log-fd, -1 without */
  bool trace_drop;
  size_t trace_ring;
  const char *probe[MAX_TOOL_ARGS];
  unsigned nprobes;
  const char *probe_list;
} Args;

/* the options (a switch over their names): the index of the program, -1 on
 * a bad option (said on stderr), -2 after --help or --version */
static int parse_options(int argc, char **argv, Args *a) {
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "--")) {
      i++;
      break;
    } else if (!strcmp(arg, "-L") && i + 1 < argc) {
      a->opt.sysroot = argv[++i];
    } else if (!strcmp(arg, "-0") && i + 1 < argc) {
      a->opt.argv0 = argv[++i];
    } else if (!strcmp(arg, "-d") && i + 1 < argc) {
      if (parse_debug(argv[++i], &a->opt.debug) < 0) return -1;
    } else if (!strncmp(arg, "--tier=", 7)) {
      const char *t = arg + 7;
      if (!strcmp(t, "0")) a->opt.tier = KIT_EMU_TIER_INTERP;
      else if (!strcmp(t, "1")) a->opt.tier = KIT_EMU_TIER_JIT;
      else if (!strcmp(t, "auto")) a->opt.tier = KIT_EMU_TIER_AUTO;
      else {
        fprintf(stderr, "kit-emu: --tier takes 0, 1 or auto\n");
        return -1;
      }
    } else if (!strncmp(arg, "--jit-threshold=", 16)) {
      char *end;
      unsigned long v = strtoul(arg + 16, &end, 10);
      if (*end || !v || v > 1000000000ul) {
        fprintf(stderr, "kit-emu: --jit-threshold takes a positive number\n");
        return -1;
      }
      a->opt.jit_threshold = (uint32_t)v;
    } else if (!strcmp(arg, "--single-step")) {
      a->opt.single_step = true;
    } else if (!strcmp(arg, "--chain")) { /* the default; kept for scripts */
      a->opt.chain = true;
    } else if (!strcmp(arg, "--serial-threads")) {
      a->opt.serial_threads = true;
    } else if (!strcmp(arg, "--no-chain")) {
      a->opt.chain = false;
    } else if (!strcmp(arg, "--no-tier2")) {
      a->opt.no_tier2 = true;
    } else if (!strcmp(arg, "--no-baseline")) {
      a->opt.no_baseline = true;
    } else if (!strcmp(arg, "-g")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "kit-emu: -g takes a port number or a socket path\n");
        return -1;
      }
      a->gdb = argv[++i];
    } else if (!strcmp(arg, "--dbg")) {
      a->dbg = true;
    } else if (!strcmp(arg, "-batch")) {
      a->batch = true;
    } else if (!strcmp(arg, "-ex")) {
      if (i + 1 >= argc || a->ndbg_cmds == 64) {
        fprintf(stderr, "kit-emu: -ex takes a command (at most 64)\n");
        return -1;
      }
      a->dbg_cmds[a->ndbg_cmds++] = argv[++i];
    } else if (!strcmp(arg, "--strace")) {
      a->strace = true;
    } else if (!strncmp(arg, "--tool=", 7)) {
      if (a->ntools == MAX_TOOL_ARGS) {
        fprintf(stderr, "kit-emu: at most %d --tool options\n", MAX_TOOL_ARGS);
        return -1;
      }
      const char *comma = strchr(arg + 7, ',');
      size_t len = comma ? (size_t)(comma - (arg + 7)) : strlen(arg + 7);
      if (!len || len >= sizeof a->tool[0].name) {
        fprintf(stderr, "kit-emu: --tool takes a name or a path\n");
        return -1;
      }
      memcpy(a->tool[a->ntools].name, arg + 7, len);
      a->tool[a->ntools].name[len] = 0;
      a->tool[a->ntools++].args = comma ? comma + 1 : NULL;
    } else if (!strncmp(arg, "--sanitize=", 11)) {
      /* the one -fsanitize= list parser, shared with kitcc */
      char msg[256];
      uint64_t mask;
      if (kit_sanitize_parse_list(arg + 11, false, &mask, msg, sizeof msg) < 0) {
        fprintf(stderr, "kit-emu: %s\n", msg);
        return -1;
      }
      if (mask & ~(uint64_t)(KIT_SAN_ADDRESS | KIT_SAN_MEMORY | KIT_SAN_COVERAGE)) {
        fprintf(stderr, "kit-emu: --sanitize=%s: only address, memory and coverage work on guest code (UBSan "
                        "needs source types)\n", arg + 11);
        return -1;
      }
      a->sanitize |= mask;
      if ((a->sanitize & KIT_SAN_ADDRESS) && (a->sanitize & KIT_SAN_MEMORY)) { /* as clang refuses it */
        fprintf(stderr, "kit-emu: invalid argument '--sanitize=address' not allowed with '--sanitize=memory'\n");
        return -1;
      }
    } else if (!strcmp(arg, "--sanitize-memory-track-origins") || !strcmp(arg, "--sanitize-memory-track-origins=1") ||
               !strcmp(arg, "--sanitize-memory-track-origins=2")) {
      a->msan_origins = 1; /* binaries: allocation origins, no chains of stores */
    } else if (!strcmp(arg, "--sanitize-memory-track-origins=0")) {
      a->msan_origins = 0;
    } else if (!strncmp(arg, "--sanitize-recover=", 19)) {
      char msg[256];
      if (kit_sanitize_parse_list(arg + 19, false, &a->recover, msg, sizeof msg) < 0) {
        fprintf(stderr, "kit-emu: %s\n", msg);
        return -1;
      }
    } else if (!strncmp(arg, "--trace=", 8)) {
      a->trace = arg + 8;
    } else if (!strncmp(arg, "--trace-out=", 12) && arg[12]) {
      a->trace_out = arg + 12;
    } else if (!strncmp(arg, "--trace-exec-out=", 17) && arg[17]) {
      a->trace_out = arg + 17, a->trace_exec = true;
    } else if (!strncmp(arg, "--log-fd=", 9)) {
      char *end;
      long fd = strtol(arg + 9, &end, 10);
      if (!arg[9] || *end || fd < 0 || fd > INT_MAX || fcntl((int)fd, F_GETFD) < 0) {
        fprintf(stderr, "kit-emu: --log-fd=%s: not an open descriptor\n", arg + 9);
        return -1;
      }
      a->log_fd = (int)fd, a->opt.log_fd_given = true;
    } else if (!strcmp(arg, "--trace-drop")) {
      a->trace_drop = true;
    } else if (!strncmp(arg, "--trace-ring=", 13)) {
      char *end;
      unsigned long long v = strtoull(arg + 13, &end, 0);
      if (*end || v < (1u << 20) || v > (1ull << 34) || (v & (v - 1))) {
        fprintf(stderr, "kit-emu: --trace-ring takes a power of two from 1 MiB (1048576) to 16 GiB\n");
        return -1;
      }
      a->trace_ring = (size_t)v;
    } else if (!strncmp(arg, "--probe-list=", 13) || (!strcmp(arg, "--probe-list") && i + 1 < argc)) {
      a->probe_list = arg[12] == '=' ? arg + 13 : argv[++i];
    } else if (!strncmp(arg, "--probe=", 8) || (!strcmp(arg, "--probe") && i + 1 < argc)) {
      if (a->nprobes == MAX_TOOL_ARGS) {
        fprintf(stderr, "kit-emu: at most %d --probe options\n", MAX_TOOL_ARGS);
        return -1;
      }
      a->probe[a->nprobes++] = arg[7] == '=' ? arg + 8 : argv[++i];
    } else if (!strncmp(arg, "--tool-args=", 12)) {
      if (!a->ntools || a->tool[a->ntools - 1].args) {
        fprintf(stderr, "kit-emu: --tool-args follows the --tool it is for\n");
        return -1;
      }
      a->tool[a->ntools - 1].args = arg + 12;
    } else if (!strcmp(arg, "--trace-children=yes") || !strcmp(arg, "--trace-children=no")) {
      a->no_trace_children = !strcmp(arg + 17, "no");
    } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      usage(stdout);
      return -2;
    } else if (!strcmp(arg, "--version")) {
      printf("kit-emu (kit) " KIT_VERSION " — a ");
      arch_list(stdout, false);
      puts(" Linux user-mode emulator on CG and LLVM 16");
      return -2;
    } else {
      fprintf(stderr, "kit-emu: unknown option '%s'\n", arg);
      usage(stderr);
      return -1;
    }
  }
  return i;
}

/* insncount takes no arguments */
static int insncount_main(KitEmuTool *tool, const char *args, FILE *err) {
  if (args && *args) {
    fprintf(err, "kit-emu: insncount takes no arguments (got '%s')\n", args);
    return -1;
  }
  return kit_emu_tool_insncount_main(tool, err);
}

/* the built-in tools --tool names (each one file in tools/), with what
 * follows the comma */
static const struct {
  const char *name;
  int (*main)(KitEmuTool *tool, const char *args, FILE *err);
} builtin[] = {
    {"insncount", insncount_main},
    {"callgrind", kit_emu_tool_callgrind_main},
};

/* the tools the command line names, on emu, in its order (the sanitizers,
 * --strace and --probe first, --trace last); -1 (said on stderr) when one
 * cannot be installed */
static int install_tools(KitEmu *emu, const Args *a) {
  if ((a->sanitize & KIT_SAN_MEMORY) && kit_emu_msan_install(emu, (a->recover & KIT_SAN_MEMORY) != 0, a->msan_origins, stderr) < 0)
    return -1;
  if ((a->sanitize & ~(uint64_t)KIT_SAN_MEMORY) && kit_emu_san_install(emu, (a->sanitize & KIT_SAN_ADDRESS) != 0, (a->recover & KIT_SAN_ADDRESS) != 0,
                                         (a->sanitize & KIT_SAN_COVERAGE) != 0, stderr) < 0)
    return -1;
  if (a->strace) {
    KitEmuTool *t = kit_emu_tool_register(emu, "strace", KIT_EMU_TOOL_API_VERSION, stderr);
    if (!t || kit_emu_tool_strace_main(t, stderr) < 0) return -1;
  }
  if (a->nprobes) {
    KitEmuTool *t = kit_emu_tool_register(emu, "probe", KIT_EMU_TOOL_API_VERSION, stderr);
    if (!t || kit_emu_tool_probe_main(t, a->probe, a->nprobes, stderr) < 0) return -1;
  }
  for (unsigned i = 0; i < a->ntools; i++) {
    const char *name = a->tool[i].name;
    if (strchr(name, '/')) {
      if (kit_emu_tool_load(emu, name, a->tool[i].args, stderr) < 0) return -1;
      continue;
    }
    size_t k = 0;
    while (k < sizeof builtin / sizeof builtin[0] && strcmp(builtin[k].name, name)) k++;
    if (k == sizeof builtin / sizeof builtin[0]) {
      fprintf(stderr, "kit-emu: unknown tool '%s' (insncount, callgrind, or a path to a tool .so)\n", name);
      return -1;
    }
    KitEmuTool *t = kit_emu_tool_register(emu, name, KIT_EMU_TOOL_API_VERSION, stderr);
    if (!t || builtin[k].main(t, a->tool[i].args, stderr) < 0) return -1;
  }
  /* last: a command line refused before it leaves no stream behind */
  if (a->trace || a->trace_out || a->trace_drop || a->trace_ring) {
    if (!a->trace) {
      fprintf(stderr, "kit-emu: --trace-out, --trace-drop and --trace-ring go with --trace=EVENTS\n");
      return -1;
    }
    KitEmuTool *t = kit_emu_tool_register(emu, "trace", KIT_EMU_TOOL_API_VERSION, stderr);
    if (!t || kit_emu_tool_trace_main(t, a->trace, a->trace_out ? a->trace_out : "kit.trace", a->trace_drop,
                                      a->trace_ring, a->trace_exec, stderr) < 0)
      return -1;
  }
  if (a->dbg && a->gdb) {
    fprintf(stderr, "kit-emu: --dbg and -g exclude each other\n");
    return -1;
  }
  if (!a->dbg && (a->ndbg_cmds || a->batch)) {
    fprintf(stderr, "kit-emu: -ex and -batch go with --dbg\n");
    return -1;
  }
  if (a->gdb || a->dbg) { /* last: it sees what the others decided (an ASan report, a denied access) */
    KitEmuTool *t = kit_emu_tool_register(emu, "gdb", KIT_EMU_TOOL_API_VERSION, stderr);
    if (!t) return -1;
    if (a->dbg ? kit_emu_tool_dbg_main(t, a->dbg_cmds, a->ndbg_cmds, a->batch, stderr) < 0
               : kit_emu_tool_gdb_main(t, a->gdb, stderr) < 0)
      return -1;
  }
  return 0;
}

/* What an execve of a guest program runs (KitEmuOptions.exec_argv): this
 * kit-emu with its options, less -0 (each program has its own argv[0]), the
 * debugger's (-g, --dbg, -ex, -batch) and,
 * with --trace-children=no, less everything but the emulator's own
 * settings (no tool, no sanitizer). */
static bool prefixed(const char *o, const char *p) { return !strncmp(o, p, strlen(p)); }

static bool emulator_option(const char *o) {
  static const char *const keep[] = {"--tier=", "--jit-threshold=", "--single-step", "--chain", "--no-chain", "--serial-threads",
                                     "--no-tier2", "--no-baseline", "--trace-children="};
  for (size_t k = 0; k < sizeof keep / sizeof keep[0]; k++)
    if (prefixed(o, keep[k])) return true;
  return false;
}

static void exec_argv(int nopts, char **argv, Args *a) {
  static char *v[256];
  static char out[PATH_MAX + 32];
  int n = 0;
  v[n++] = argv[0];
  /* --trace's stream: each program its own file, named from the first's
   * destination made absolute (the guest may chdir); a ring carries one
   * program, so its options stay behind (the trace tool says so at execve).
   * --log-fd: the execve passes the descriptor (syscall_exec.c). */
  const char *dest = a->trace_out ? a->trace_out : "kit.trace";
  bool ring = prefixed(dest, "shm:"), trace = a->trace && !a->no_trace_children && !ring;
  if (trace) {
    char cwd[PATH_MAX];
    if (dest[0] != '/' && getcwd(cwd, sizeof cwd)) snprintf(out, sizeof out, "--trace-exec-out=%s/%s", cwd, dest);
    else snprintf(out, sizeof out, "--trace-exec-out=%s", dest);
  }
  for (int k = 1; k < nopts && n < 253; k++) {
    /* the debugger is the first program's: -g, --dbg and its commands stay behind */
    bool debugger = !strcmp(argv[k], "-g") || !strcmp(argv[k], "-ex");
    bool with_value = debugger || !strcmp(argv[k], "-L") || !strcmp(argv[k], "-d") || !strcmp(argv[k], "-0");
    if (!strcmp(argv[k], "--") || !strcmp(argv[k], "--dbg") || !strcmp(argv[k], "-batch")) continue;
    if (prefixed(argv[k], "--log-fd=") || prefixed(argv[k], "--trace-out=") || prefixed(argv[k], "--trace-exec-out="))
      continue;
    if (ring && (prefixed(argv[k], "--trace=") || prefixed(argv[k], "--trace-drop") || prefixed(argv[k], "--trace-ring=")))
      continue;
    if (with_value && k + 1 < nopts) {
      if (strcmp(argv[k], "-0") && !debugger) v[n++] = argv[k], v[n++] = argv[k + 1];
      k++;
      continue;
    }
    if (!a->no_trace_children || emulator_option(argv[k])) v[n++] = argv[k];
  }
  if (trace) v[n++] = out;
  a->opt.exec_argv = v;
  a->opt.exec_argc = n;
}

int main(int argc, char **argv) {
  Args a = {.opt = {.tier = KIT_EMU_TIER_AUTO, .chain = true}, .log_fd = -1};
  int i = parse_options(argc, argv, &a);
  if (i < 0) return i == -2 ? 0 : 1;
  kit_emu_keep_log(a.log_fd >= 0 ? a.log_fd : 2); /* tools' output and reports survive the guest closing fd 2 */
  if (i >= argc) {
    usage(stderr);
    return 1;
  }
  exec_argv(i, argv, &a);
  KitEmu *emu = kit_emu_new(&a.opt, argc - i, argv + i, environ, stderr);
  if (!emu) return 1;
  if (a.probe_list) return kit_emu_tool_probe_list(emu, a.probe_list, stdout, stderr) < 0 ? 1 : 0;
  if (install_tools(emu, &a) < 0) return 1;
  int st = kit_emu_run(emu);
  fflush(NULL);
  _exit(st); /* the guest window is large; let the kernel drop it */
}
