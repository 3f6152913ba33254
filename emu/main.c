/* emu/main.c — the kit-emu driver: option parsing, tool selection, running a
 * guest Linux program (an arch of include/kit/arch.h) and exiting with its
 * status. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/emu.h"
#include "kit/passes.h"
#include "tools/asan/asan.h"
#include "tools/tools.h"

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
        "  --no-tier2         no second compilation of the hottest blocks (traces, full register allocator)\n"
        "  --no-baseline      no baseline compiler: blocks wait in the interpreter for LLVM\n"
        "  --strace           print each system call to stderr\n"
        "  --tool=NAME[,ARGS] insncount, or a path to a tool shared object (docs/tools.md) and its\n"
        "                     arguments; several --tool options run together, in their order\n"
        "  --tool-args=STR    the arguments of the last --tool (when it has none after a comma)\n"
        "  --sanitize=LIST    address (AddressSanitizer on guest code and heap, ASAN_OPTIONS as usual),\n"
        "                     coverage (block counts of the program for kit-cov, written at exit to\n"
        "                     $KIT_COVERAGE_DIR or coverage_dir, default .); comma-separated\n"
        "                     memory (MemorySanitizer: uses of uninitialized bits, MSAN_OPTIONS as usual;\n"
        "                     not with address)\n"
        "  --sanitize-recover=address|memory  reports continue when ASAN_OPTIONS/MSAN_OPTIONS has\n"
        "                     halt_on_error=0\n"
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
  struct {
    char name[512];
    const char *args;
  } tool[MAX_TOOL_ARGS];
  unsigned ntools;
  uint64_t sanitize, recover;
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
    } else if (!strcmp(arg, "--no-chain")) {
      a->opt.chain = false;
    } else if (!strcmp(arg, "--no-tier2")) {
      a->opt.no_tier2 = true;
    } else if (!strcmp(arg, "--no-baseline")) {
      a->opt.no_baseline = true;
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
    } else if (!strncmp(arg, "--sanitize-recover=", 19)) {
      char msg[256];
      if (kit_sanitize_parse_list(arg + 19, false, &a->recover, msg, sizeof msg) < 0) {
        fprintf(stderr, "kit-emu: %s\n", msg);
        return -1;
      }
    } else if (!strncmp(arg, "--tool-args=", 12)) {
      if (!a->ntools || a->tool[a->ntools - 1].args) {
        fprintf(stderr, "kit-emu: --tool-args follows the --tool it is for\n");
        return -1;
      }
      a->tool[a->ntools - 1].args = arg + 12;
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

/* the built-in tools --tool names (each one file in tools/) */
static const struct {
  const char *name;
  int (*main)(KitEmuTool *tool, FILE *out);
} builtin[] = {
    {"insncount", kit_emu_tool_insncount_main},
};

/* the tools the command line names, on emu, in its order (the sanitizers
 * and --strace first); -1 (said on stderr) when one cannot be installed */
static int install_tools(KitEmu *emu, const Args *a) {
  if ((a->sanitize & KIT_SAN_MEMORY) && kit_emu_msan_install(emu, (a->recover & KIT_SAN_MEMORY) != 0, stderr) < 0)
    return -1;
  if ((a->sanitize & ~(uint64_t)KIT_SAN_MEMORY) && kit_emu_san_install(emu, (a->sanitize & KIT_SAN_ADDRESS) != 0, (a->recover & KIT_SAN_ADDRESS) != 0,
                                         (a->sanitize & KIT_SAN_COVERAGE) != 0, stderr) < 0)
    return -1;
  if (a->strace) {
    KitEmuTool *t = kit_emu_tool_register(emu, "strace", KIT_EMU_TOOL_API_VERSION, stderr);
    if (!t || kit_emu_tool_strace_main(t, stderr) < 0) return -1;
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
      fprintf(stderr, "kit-emu: unknown tool '%s' (insncount, or a path to a tool .so)\n", name);
      return -1;
    }
    KitEmuTool *t = kit_emu_tool_register(emu, name, KIT_EMU_TOOL_API_VERSION, stderr);
    if (!t || builtin[k].main(t, stderr) < 0) return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  Args a = {.opt = {.tier = KIT_EMU_TIER_AUTO, .chain = true}};
  int i = parse_options(argc, argv, &a);
  if (i < 0) return i == -2 ? 0 : 1;
  if (i >= argc) {
    usage(stderr);
    return 1;
  }
  KitEmu *emu = kit_emu_new(&a.opt, argc - i, argv + i, environ, stderr);
  if (!emu) return 1;
  if (install_tools(emu, &a) < 0) return 1;
  int st = kit_emu_run(emu);
  fflush(NULL);
  _exit(st); /* the guest window is large; let the kernel drop it */
}
