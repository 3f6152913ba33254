/* tools/kit-cg.c — the CG command-line tool: verify or print a textual CG
 * module, run it on the interpreter or the LLVM JIT, or emit an object,
 * assembly or LLVM IR for x86-64 / riscv64 Linux. */
#include "kit/cg_exec.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: kit-cg verify|print|run|jit|emit [-O0..3|-Os] [-g] [--target x86_64|riscv64] [-S] [--llvm] [--no-pic]\n"
    "              [--fast-codegen] [-o out] FILE.cg [args...]\n"
    "  verify  check the module          print  print it back in the textual form\n"
    "  run     call @main on the CG interpreter   jit  call @main through the LLVM JIT\n"
    "  emit    write an ELF object (-S: assembly, --llvm: LLVM IR text); PIC unless --no-pic\n"
    "  --fast-codegen  jit: the -O level's IR passes, then the fast code generator\n";

typedef struct Opts {
  const char *cmd, *file, *out;
  int opt_level;
  bool debug, asm_text, llvm_ir, pic, size_level, fast_cg;
  KitTarget target;
  int argc; /* program args: argv[0] = file */
  char **argv;
} Opts;

static int fail(const char *fmt, const char *arg) {
  fputs("kit-cg: ", stderr);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return 1;
}

static int parse_args(int argc, char **argv, Opts *o) {
  if (argc < 2) return fail("no command given\n%s", usage);
  o->cmd = argv[1];
  if (!strcmp(o->cmd, "-h") || !strcmp(o->cmd, "--help")) {
    fputs(usage, stdout);
    exit(0);
  }
  if (!strcmp(o->cmd, "--version")) {
    printf("kit-cg (kit) %s\n", KIT_VERSION);
    exit(0);
  }
  static const char *const cmds[] = {"verify", "print", "run", "jit", "emit"};
  bool known = false;
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) known |= strcmp(o->cmd, cmds[i]) == 0;
  if (!known) return fail("unknown command '%s' (verify, print, run, jit, emit)", o->cmd);
  int i = 2;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    const char *a = argv[i];
    if (a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) o->opt_level = a[2] - '0', o->size_level = false;
    else if (!strcmp(a, "-Os")) o->opt_level = 2, o->size_level = true;
    else if (!strcmp(a, "-g")) o->debug = true;
    else if (!strcmp(a, "-S")) o->asm_text = true;
    else if (!strcmp(a, "--llvm")) o->llvm_ir = true;
    else if (!strcmp(a, "--pic")) o->pic = true;
    else if (!strcmp(a, "--no-pic")) o->pic = false;
    else if (!strcmp(a, "--fast-codegen")) o->fast_cg = true;
    else if (!strcmp(a, "-o") || !strcmp(a, "--target")) {
      if (i + 1 >= argc) return fail("%s needs an argument", a);
      const char *v = argv[++i];
      if (a[1] == 'o') o->out = v;
      else if (!strcmp(v, "x86_64") || !strcmp(v, "x86-64")) o->target = KIT_TARGET_X86_64_LINUX;
      else if (!strcmp(v, "riscv64") || !strcmp(v, "rv64")) o->target = KIT_TARGET_RISCV64_LINUX;
      else return fail("unknown target '%s' (x86_64, riscv64)", v);
    } else return fail("unknown option '%s'", a);
  }
  if (i >= argc) return fail("no input file\n%s", usage);
  o->file = argv[i];
  o->argc = argc - i;
  o->argv = argv + i;
  return 0;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

static KitCgFunc *find_main(KitCgModule *m) {
  KitCgSym s = kit_cg_sym_find(m, "main");
  if (s == UINT32_MAX || m->syms[s].kind != KIT_CG_SYM_FUNC) {
    fail("%s", "no function @main in the module");
    return NULL;
  }
  KitCgFunc *f = kit_cg_func_of(m, s);
  if (kit_cg_func_is_decl(f)) {
    fail("%s", "@main is declared but has no body");
    return NULL;
  }
  if (f->nparams != 0 && f->nparams != 2) {
    fail("%s", "@main must take no parameters or (i32, ptr)");
    return NULL;
  }
  return f;
}

static int exit_status(const KitCgFunc *f, const KitCgScalar *r) {
  return kit_cg_type_is_int(f->ret[0]) ? (int)(int32_t)r->i : 0;
}

/* The executor whose destructors run at exit (see finish). */
static KitInterp *exit_ip;
static KitJit *exit_jit;

static void run_dtors_at_exit(void) {
  if (exit_ip) kit_interp_run_dtors(exit_ip);
  if (exit_jit) kit_jit_run_dtors(exit_jit, stderr);
}

/* The program's end, as a native one ends: exit() runs the atexit handlers
 * the program registered (newest first), then its destructors, which were
 * registered before its constructors ran, so they come last as .fini_array
 * does. The executor, the module and their code stay alive: handlers and
 * destructors still call into them. */
static _Noreturn void finish(int status) {
  fflush(stdout);
  exit(status);
}

static int cmd_run(KitCgModule *m, const Opts *o) {
  KitCgFunc *mainf = find_main(m);
  if (!mainf) return 1;
  KitInterp *ip = kit_interp_new(m, NULL, NULL, stderr);
  if (!ip) return 1;
  exit_ip = ip;
  atexit(run_dtors_at_exit);
  if (kit_interp_run_ctors(ip)) {
    fflush(stdout);
    fail("%s", "a constructor trapped");
    _exit(1);
  }
  KitCgScalar args[2] = {{.i = (uint64_t)o->argc}, {.i = (uint64_t)(uintptr_t)o->argv}}, r[2] = {{0}};
  if (kit_interp_call(ip, mainf, args, mainf->nparams, r)) {
    fflush(stdout);
    fail("%s", "execution trapped");
    _exit(1); /* no handlers or destructors after a trap */
  }
  finish(exit_status(mainf, r));
}

/* Jitted code that traps (TRAP is ud2) or faults ends the run the way the
 * interpreter's trap report does: what the program printed so far is
 * flushed, one line on stderr, exit status 1, no atexit handlers. Flushing
 * stdio in a signal handler is safe for a TRAP, which jitted code executes
 * outside libc; a fault inside libc (a bad printf argument) may find stdout
 * mid-update, and a second fault while flushing just ends the run. */
static void on_fault(int sig) {
  static volatile sig_atomic_t once;
  static const char msg[] = "kit-cg: jitted code trapped (signal ";
  if (once) _exit(1);
  once = 1;
  fflush(stdout);
  char num[8];
  int n = 0;
  for (int v = sig; v; v /= 10) num[n++] = (char)('0' + v % 10);
  if (write(2, msg, sizeof msg - 1) < 0) _exit(1);
  while (n) {
    if (write(2, &num[--n], 1) < 0) _exit(1);
  }
  if (write(2, ")\n", 2) < 0) _exit(1);
  _exit(1);
}

static void catch_faults(void) {
  static char altstack[1 << 16]; /* a stack overflow still gets its message */
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
  sigaltstack(&ss, NULL);
  struct sigaction sa = {.sa_handler = on_fault, .sa_flags = SA_ONSTACK | SA_NODEFER};
  sigemptyset(&sa.sa_mask);
  int sigs[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

static int cmd_jit(KitCgModule *m, const Opts *o) {
  KitCgFunc *mainf = find_main(m);
  if (!mainf) return 1;
  KitJit *j = kit_jit_new(o->opt_level | (o->fast_cg ? KIT_JIT_FAST_CODEGEN : 0), NULL, NULL, stderr);
  if (!j) return 1;
  if (kit_jit_add(j, m, stderr)) return 1;
  catch_faults();
  exit_jit = j;
  atexit(run_dtors_at_exit);
  if (kit_jit_run_ctors(j, stderr)) {
    fflush(stdout);
    _exit(1);
  }
  KitCgScalar args[2] = {{.i = (uint64_t)o->argc}, {.i = (uint64_t)(uintptr_t)o->argv}}, r[2] = {{0}};
  if (kit_jit_call(j, m, mainf, args, mainf->nparams, r)) _exit(1);
  finish(exit_status(mainf, r));
}

static char *default_out(const char *file, const char *ext) {
  const char *slash = strrchr(file, '/');
  const char *base = slash ? slash + 1 : file;
  const char *dot = strrchr(base, '.');
  size_t n = dot ? (size_t)(dot - base) : strlen(base);
  char *out = malloc(n + strlen(ext) + 1);
  memcpy(out, base, n);
  strcpy(out + n, ext);
  return out;
}

static int cmd_emit(KitCgModule *m, const Opts *o) {
  KitLlvmOptions lo = {.target = o->target, .opt_level = o->opt_level, .size_level = o->size_level,
                       .debug_info = o->debug, .pic = o->pic, .source_name = o->file};
  if (o->llvm_ir) {
    FILE *out = stdout;
    if (o->out && strcmp(o->out, "-") && !(out = fopen(o->out, "w")))
      return fail("cannot write %s", o->out);
    int rc = kit_llvm_print_ir(m, &lo, out, stderr);
    if (out != stdout) fclose(out);
    return rc ? 1 : 0;
  }
  char *path = o->out ? strdup(o->out) : default_out(o->file, o->asm_text ? ".s" : ".o");
  int rc = kit_llvm_emit(m, &lo, path, o->asm_text, stderr);
  free(path);
  return rc ? 1 : 0;
}

int main(int argc, char **argv) {
  Opts o = {.pic = true}; /* objects link into PIE executables, gcc's default */
  if (parse_args(argc, argv, &o)) return 1;
  size_t len = 0;
  char *text = read_file(o.file, &len);
  if (!text) {
    fprintf(stderr, "kit-cg: cannot read %s: %s\n", o.file, strerror(errno));
    return 1;
  }
  KitCgModule *m = kit_cg_parse(text, len, o.file, stderr);
  free(text);
  if (!m) return 1;
  if (kit_cg_verify(m, stderr)) {
    fprintf(stderr, "kit-cg: %s does not verify\n", o.file);
    return 1;
  }
  int rc = 0;
  if (!strcmp(o.cmd, "print")) kit_cg_print(m, stdout);
  else if (!strcmp(o.cmd, "run")) rc = cmd_run(m, &o);
  else if (!strcmp(o.cmd, "jit")) rc = cmd_jit(m, &o);
  else if (!strcmp(o.cmd, "emit")) rc = cmd_emit(m, &o);
  fflush(stdout);
  kit_cg_module_free(m);
  return rc;
}
