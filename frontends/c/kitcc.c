/* frontends/c/kitcc.c — the kitcc driver: gcc-compatible options, then for
 * each C input preprocess -> parse -> lower to CG -> passes -> LLVM object,
 * and finally link everything through the system gcc driver. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cc.h"
#include "kit/cg_exec.h"
#include "kit/passes.h"

typedef struct StrVec {
  const char **v;
  size_t n, cap;
} StrVec;

static void push(StrVec *s, const char *x) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 16;
    s->v = realloc(s->v, s->cap * sizeof *s->v);
    if (!s->v) abort();
  }
  s->v[s->n++] = x;
}

typedef struct Options {
  StrVec inputs;         /* files in order (.c, .o, .a, .so, -l) for the link */
  StrVec c_inputs;
  StrVec includes, quotes, isystem, defines, undefs, forced;
  StrVec link_args;      /* -L, -l, -Wl, -static, -shared, -pthread, ... in order */
  const char *output;
  bool compile_only, asm_only, preprocess_only, emit_cg, emit_llvm;
  bool debug, pic, no_warnings, werror, nostdinc, verbose, time_report;
  int opt_level;
  int omit_fp;           /* -f[no-]omit-frame-pointer: 1, 0; -1 = at -O1 and up without sanitizers */
  int gnu89_inline;      /* -f[no-]gnu89-inline: 1, 0; -1 = as the -std= (gnu89 semantics before C99) */
  bool wrapv, instrument_functions; /* -fwrapv, -finstrument-functions */
  int bracket_depth;     /* -fbracket-depth=N; 0 = the parser's default */
  long std_version;
  bool gnu;
  const char *lang;      /* -x c */
  /* dependency files */
  bool md, mmd, mp, m_only, mm_only;
  const char *mf, *mt;
  KitPassOptions san;    /* -fsanitize= family (passes/pipeline.c) */
} Options;

static void usage(void) {
  puts("usage: kitcc [options] file...\n"
       "  -c -S -E -o FILE -O0..3 -Os -g -I DIR -D NAME[=V] -U NAME -include FILE\n"
       "  -std=c99|c11|c17|gnu99|gnu11|gnu17 -fPIC -shared -static -l LIB -L DIR -Wl,...\n"
       "  -MD -MMD -MF FILE -MT TARGET -MP -emit-cg -emit-llvm -ftime-report\n"
       "  -fsanitize=address[,...] -fsanitize-recover=address (UBSan and coverage names are parsed)");
}

static bool has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

static const char *arg_value(int argc, char **argv, int *i, const char *flag) {
  size_t n = strlen(flag);
  if (argv[*i][n]) return argv[*i] + n;
  if (*i + 1 >= argc) {
    fprintf(stderr, "kitcc: error: missing argument to '%s'\n", flag);
    exit(1);
  }
  return argv[++*i];
}

static void parse_args(int argc, char **argv, Options *o) {
  o->std_version = 201710;
  o->gnu = true;
  o->pic = true; /* Debian's gcc builds PIE by default; kitcc's objects must link the same way */
  o->omit_fp = -1;
  o->gnu89_inline = -1;
  kit_pass_options_init(&o->san);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || !strcmp(a, "-")) {
      if (!strcmp(a, "-") || has_suffix(a, ".c") || (o->lang && !strcmp(o->lang, "c")) || has_suffix(a, ".i")) {
        push(&o->c_inputs, a);
        push(&o->inputs, a);
      } else {
        push(&o->inputs, a);
      }
      continue;
    }
    if (!strcmp(a, "-c")) o->compile_only = true;
    else if (!strcmp(a, "-S")) o->asm_only = true;
    else if (!strcmp(a, "-E")) o->preprocess_only = true;
    else if (!strcmp(a, "-emit-cg")) o->emit_cg = true;
    else if (!strcmp(a, "-emit-llvm")) o->emit_llvm = true;
    else if (!strncmp(a, "-o", 2)) o->output = arg_value(argc, argv, &i, "-o");
    else if (!strncmp(a, "-O", 2)) o->opt_level = a[2] == 's' || a[2] == 'z' ? 2 : a[2] ? (a[2] >= '0' && a[2] <= '3' ? a[2] - '0' : 3) : 1;
    else if (!strncmp(a, "-g", 2)) o->debug = strcmp(a, "-g0") != 0;
    else if (!strncmp(a, "-I", 2)) push(&o->includes, arg_value(argc, argv, &i, "-I"));
    else if (!strcmp(a, "-iquote")) push(&o->quotes, arg_value(argc, argv, &i, "-iquote"));
    else if (!strcmp(a, "-isystem")) push(&o->isystem, arg_value(argc, argv, &i, "-isystem"));
    else if (!strncmp(a, "-D", 2)) push(&o->defines, arg_value(argc, argv, &i, "-D"));
    else if (!strncmp(a, "-U", 2)) push(&o->undefs, arg_value(argc, argv, &i, "-U"));
    else if (!strcmp(a, "-include")) push(&o->forced, arg_value(argc, argv, &i, "-include"));
    else if (!strcmp(a, "-nostdinc")) o->nostdinc = true;
    else if (!strncmp(a, "-std=", 5)) {
      const char *s = a + 5;
      o->gnu = !strncmp(s, "gnu", 3);
      const char *v = s + (o->gnu ? 3 : (s[0] == 'c' ? 1 : 0));
      if (!strncmp(s, "iso9899:", 8)) v = strchr(s, ':') + 1;
      o->std_version = !strcmp(v, "89") || !strcmp(v, "90") || !strcmp(v, "1990") ? 199409
                       : !strcmp(v, "99") || !strcmp(v, "9x") || !strcmp(v, "1999") ? 199901
                       : !strcmp(v, "11") || !strcmp(v, "1x") || !strcmp(v, "2011") ? 201112
                       : 201710;
    } else if (!strcmp(a, "-ansi")) {
      o->gnu = false;
      o->std_version = 199409;
    } else if (!strcmp(a, "-x")) o->lang = arg_value(argc, argv, &i, "-x");
    else if (!strcmp(a, "-w")) o->no_warnings = true;
    else if (!strcmp(a, "-Werror")) o->werror = true;
    else if (!strncmp(a, "-W", 2) && strncmp(a, "-Wl,", 4) && strncmp(a, "-Wp,", 4)) { /* warnings: accepted */ }
    else if (!strcmp(a, "-fPIC") || !strcmp(a, "-fpic") || !strcmp(a, "-fPIE") || !strcmp(a, "-fpie")) o->pic = true;
    else if (!strcmp(a, "-fno-PIC") || !strcmp(a, "-fno-pic") || !strcmp(a, "-fno-PIE") || !strcmp(a, "-fno-pie")) o->pic = false;
    else if (!strcmp(a, "-MD")) o->md = true;
    else if (!strcmp(a, "-MMD")) o->mmd = true;
    else if (!strcmp(a, "-MP")) o->mp = true;
    else if (!strcmp(a, "-M")) o->m_only = true;
    else if (!strcmp(a, "-MM")) o->mm_only = true;
    else if (!strcmp(a, "-MF")) o->mf = arg_value(argc, argv, &i, "-MF");
    else if (!strcmp(a, "-MT") || !strcmp(a, "-MQ")) o->mt = arg_value(argc, argv, &i, a);
    else if (!strcmp(a, "-v")) o->verbose = true;
    else if (!strcmp(a, "-ftime-report")) o->time_report = true;
    else if (!strcmp(a, "-fomit-frame-pointer")) o->omit_fp = 1;
    else if (!strcmp(a, "-fno-omit-frame-pointer")) o->omit_fp = 0;
    else if (!strcmp(a, "-fwrapv") || !strcmp(a, "-fno-strict-overflow")) o->wrapv = true;
    else if (!strcmp(a, "-fno-wrapv") || !strcmp(a, "-fstrict-overflow")) o->wrapv = false;
    else if (!strcmp(a, "-fgnu89-inline")) o->gnu89_inline = 1;
    else if (!strcmp(a, "-fno-gnu89-inline")) o->gnu89_inline = 0;
    else if (!strcmp(a, "-finstrument-functions")) o->instrument_functions = true;
    else if (!strncmp(a, "-fbracket-depth=", 16)) {
      char *end;
      long n = strtol(a + 16, &end, 10);
      if (*end || end == a + 16 || n <= 0 || n > 1000000) {
        fprintf(stderr, "kitcc: error: invalid value '%s' in '%s'\n", a + 16, a);
        exit(1);
      }
      o->bracket_depth = (int)n;
    }
    else if (!strcmp(a, "--help")) {
      usage();
      exit(0);
    } else if (!strcmp(a, "--version")) {
      puts("kitcc (kit) 0.1 — a C11 compiler on CG and LLVM 16");
      exit(0);
    } else if (!strncmp(a, "-l", 2) || !strncmp(a, "-L", 2)) {
      if (!a[2] && i + 1 < argc) {
        char *j = malloc(strlen(argv[i + 1]) + 3);
        sprintf(j, "%s%s", a, argv[++i]);
        push(&o->inputs, j);
      } else {
        push(&o->inputs, a);
      }
    } else if (!strncmp(a, "-Wl,", 4) || !strcmp(a, "-static") || !strcmp(a, "-shared") || !strcmp(a, "-pthread") ||
               !strcmp(a, "-rdynamic") || !strcmp(a, "-pie") || !strcmp(a, "-no-pie") || !strcmp(a, "-nostdlib") ||
               !strcmp(a, "-nostartfiles") || !strncmp(a, "-Xlinker", 8) || !strncmp(a, "-fuse-ld=", 9)) {
      push(&o->link_args, a);
      if (!strcmp(a, "-Xlinker") && i + 1 < argc) push(&o->link_args, argv[++i]);
      if (!strcmp(a, "-pthread")) push(&o->defines, "_REENTRANT");
    } else if (!strncmp(a, "-fsanitize", 10) || !strncmp(a, "-fno-sanitize", 13)) {
      char err[256];
      if (kit_sanitize_parse_arg(&o->san, a, err, sizeof err) < 0) {
        fprintf(stderr, "kitcc: error: %s\n", err);
        exit(1);
      }
    } else if (!strncmp(a, "-f", 2) || !strncmp(a, "-m", 2) || !strcmp(a, "-pipe") || !strcmp(a, "-pedantic") ||
               !strncmp(a, "-pedantic", 9) || !strcmp(a, "-s")) {
      /* code generation and target flags build systems pass: accepted */
    } else {
      fprintf(stderr, "kitcc: warning: unknown option '%s' ignored\n", a);
    }
  }
}

static int run(const char **argv, bool verbose) {
  if (verbose) {
    for (const char **a = argv; *a; a++) fprintf(stderr, "%s%s", a == argv ? "" : " ", *a);
    fputc('\n', stderr);
  }
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    execvp(argv[0], (char *const *)argv);
    fprintf(stderr, "kitcc: error: cannot run '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int st;
  if (waitpid(pid, &st, 0) < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static char *replace_ext(const char *path, const char *ext) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  size_t n = dot ? (size_t)(dot - base) : strlen(base);
  char *r = malloc(n + strlen(ext) + 1);
  memcpy(r, base, n);
  strcpy(r + n, ext);
  return r;
}

/* gcc's inline semantics: gnu89 under -std=c89/gnu89 unless -f[no-]gnu89-inline says */
static bool gnu89_inline(const Options *o) {
  return o->gnu89_inline >= 0 ? o->gnu89_inline : o->std_version < 199901;
}

static CPP *make_cpp(const Options *o, FILE *err) {
  CPPOptions po = {0};
  po.include_dirs = o->includes.v;
  po.ninclude_dirs = o->includes.n;
  po.quote_dirs = o->quotes.v;
  po.nquote_dirs = o->quotes.n;
  po.system_dirs = o->isystem.v;
  po.nsystem_dirs = o->isystem.n;
  po.no_std_inc = o->nostdinc;
  po.defines = o->defines.v;
  po.ndefines = o->defines.n;
  po.undefines = o->undefs.v;
  po.nundefines = o->undefs.n;
  po.forced_includes = o->forced.v;
  po.nforced_includes = o->forced.n;
  po.std_version = o->std_version;
  po.gnu = o->gnu;
  po.opt_level = o->opt_level;
  po.pic = o->pic;
  po.gnu89_inline = gnu89_inline(o);
  po.san_address = o->san.sanitize & KIT_SAN_ADDRESS;
  po.san_undefined = o->san.sanitize & KIT_SAN_UNDEFINED;
  po.san_coverage = o->san.coverage != 0;
  po.err = err;
  return cpp_new(&po);
}

static void write_deps(const Options *o, CPP *pp, const char *src, const char *obj) {
  const char **deps;
  size_t n = cpp_deps(pp, &deps);
  const char *path = o->mf;
  char *made = NULL;
  if (!path) {
    if (o->output && (o->md || o->mmd) && o->compile_only) {
      made = replace_ext(o->output, ".d");
      /* -MD writes next to the object */
      const char *slash = strrchr(o->output, '/');
      if (slash) {
        char *full = malloc(strlen(o->output) + 4);
        sprintf(full, "%.*s/%s", (int)(slash - o->output), o->output, made);
        free(made);
        made = full;
      }
    } else {
      made = replace_ext(src, ".d");
    }
    path = made;
  }
  FILE *f = (o->m_only || o->mm_only) && !o->mf ? stdout : fopen(path, "w");
  if (!f) {
    fprintf(stderr, "kitcc: error: cannot write '%s': %s\n", path, strerror(errno));
    free(made);
    return;
  }
  bool user_only = o->mmd || o->mm_only;
  fprintf(f, "%s:", o->mt ? o->mt : obj);
  for (size_t i = 0; i < n; i++) {
    if (user_only && !strncmp(deps[i], "/usr/", 5)) continue;
    fprintf(f, " \\\n %s", deps[i]);
  }
  fputc('\n', f);
  if (o->mp)
    for (size_t i = 1; i < n; i++) {
      if (user_only && !strncmp(deps[i], "/usr/", 5)) continue;
      fprintf(f, "\n%s:\n", deps[i]);
    }
  if (f != stdout) fclose(f);
  free(made);
}

/* -ftime-report: the CPU and wall seconds of each phase of a compile, on
 * stderr (the backend reports its phases through KitLlvmOptions.phase_done) */
typedef struct PhaseClock {
  bool on;
  double cpu, wall;
} PhaseClock;

static void clock_read(double *cpu, double *wall) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  *cpu = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  *wall = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void phase_done(void *ctx, const char *phase) {
  PhaseClock *c = ctx;
  if (!c->on) return;
  double cpu, wall;
  clock_read(&cpu, &wall);
  if (phase) fprintf(stderr, "kitcc: time: %-18s %8.3f s cpu %8.3f s wall\n", phase, cpu - c->cpu, wall - c->wall);
  c->cpu = cpu;
  c->wall = wall;
}

/* compile one C file to `out` (an object, assembly, CG or LLVM text) */
static int compile(const Options *o, const char *src, const char *out) {
  PhaseClock clk = {.on = o->time_report};
  phase_done(&clk, NULL);
  CPP *pp = make_cpp(o, stderr);
  if (!pp) return 1;
  if (o->preprocess_only) cpp_set_preprocess_only(pp, true);
  if (cpp_open_file(pp, src) != 0) {
    cpp_free(pp);
    return 1;
  }
  phase_done(&clk, "lex (main file)");
  if (o->preprocess_only || o->m_only || o->mm_only) {
    FILE *f = stdout;
    if (o->output && o->preprocess_only && !(f = fopen(o->output, "w"))) {
      fprintf(stderr, "kitcc: error: cannot write '%s': %s\n", o->output, strerror(errno));
      return 1;
    }
    int rc = 0;
    if (o->preprocess_only) {
      rc = cpp_write_preprocessed(pp, f);
    } else {
      while (cpp_next(pp)->kind != CT_EOF) {
      }
      char *obj = replace_ext(src, ".o");
      write_deps(o, pp, src, obj);
      free(obj);
    }
    if (f != stdout) fclose(f);
    rc = rc || cpp_errors(pp);
    cpp_free(pp);
    return rc ? 1 : 0;
  }
  CDiag diag = {.pp = pp, .out = stderr, .werror = o->werror, .no_warnings = o->no_warnings};
  CParseOptions popt = {.std_version = o->std_version, .gnu = o->gnu, .gnu89_inline = gnu89_inline(o),
                        .bracket_depth = o->bracket_depth};
  CUnit *u = c_parse(pp, &diag, &popt);
  phase_done(&clk, "preprocess+parse");
  int rc = 0;
  if (cpp_errors(pp) || diag.errors) {
    rc = 1;
    goto done;
  }
  CLowerOptions lopt = {.debug_info = o->debug, .opt_level = o->opt_level, .pic = o->pic,
                        .wrapv = o->wrapv, .instrument_functions = o->instrument_functions};
  KitCgModule *m = c_lower(u, &diag, &lopt);
  phase_done(&clk, "lower to CG");
  if (!m) {
    rc = 1;
    goto done;
  }
  if (o->san.sanitize || o->san.coverage) {
    kit_passes_run(m, &o->san);
    phase_done(&clk, "CG passes");
  }
  if (o->emit_cg) {
    /* printed before verification so that broken CG can be looked at */
    FILE *f = out && strcmp(out, "-") ? fopen(out, "w") : stdout;
    if (!f) {
      fprintf(stderr, "kitcc: error: cannot write '%s': %s\n", out, strerror(errno));
      rc = 1;
    } else {
      kit_cg_print(m, f);
      if (f != stdout) fclose(f);
    }
  }
  int bad = kit_cg_verify(m, stderr);
  phase_done(&clk, "CG verify");
  if (bad) {
    fprintf(stderr, "kitcc: internal error: the CG of '%s' does not verify (see above)\n", src);
    rc = 1;
  } else if (o->emit_cg) {
  } else {
    KitLlvmOptions lo = {.target = KIT_TARGET_X86_64_LINUX, .opt_level = o->opt_level, .debug_info = o->debug,
                         .pic = o->pic, .source_name = src, .phase_done = phase_done, .phase_ctx = &clk};
    /* as clang: frame pointers at -O0; the sanitizer runtimes unwind by them */
    lo.omit_frame_pointer = o->omit_fp >= 0 ? o->omit_fp == 1
                                            : o->opt_level > 0 && !o->san.sanitize && !o->san.coverage;
    if (o->emit_llvm) {
      FILE *f = out && strcmp(out, "-") ? fopen(out, "w") : stdout;
      rc = f ? kit_llvm_print_ir(m, &lo, f, stderr) : 1;
      if (f && f != stdout) fclose(f);
    } else {
      rc = kit_llvm_emit(m, &lo, out, o->asm_only, stderr) ? 1 : 0;
    }
  }
  if (!rc && (o->md || o->mmd)) write_deps(o, pp, src, out);
  kit_cg_module_free(m);
done:
  cpp_free(pp);
  c_arena_free_all();
  phase_done(&clk, "free");
  return rc;
}

/* -fsanitize=undefined (checks that call the runtime, not trap) or
 * -fsanitize-coverage= in an executable's link: libkit_ubsan.a or libkit_cov.a
 * from bin/../lib, as for ASan's */
/* a runtime library next to kitcc: bin/../lib/NAME, in the build tree and in an install */
static char *runtime_lib_path(const char *name) {
  char lib[4096];
  ssize_t n = readlink("/proc/self/exe", lib, sizeof lib - 64);
  if (n <= 0) n = 0;
  lib[n] = 0;
  for (int k = 0; k < 2; k++) {
    char *slash = strrchr(lib, '/');
    if (slash) *slash = 0;
  }
  size_t len = strlen(lib) + strlen(name) + 6;
  char *path = malloc(len);
  if (!path) abort();
  snprintf(path, len, "%s/lib/%s", lib, name);
  return path;
}

static void push_runtime_lib(StrVec *link, const char *name, const char *exported) {
  char *lib = runtime_lib_path(name);
  /* whole: instrumented shared libraries find the entry points in the
   * executable even when the executable itself calls none of them */
  push(link, "-Wl,--whole-archive");
  push(link, lib);
  push(link, "-Wl,--no-whole-archive");
  push(link, exported);
  push(link, "-ldl");
  push(link, "-lpthread");
}

/* -fsanitize=address in an executable's link: the runtime (build tree: bin/../lib,
 * install: bin/../lib) whole, so its malloc and constructors win, its libraries,
 * and its entry points exported for instrumented shared libraries */
static void push_asan_runtime(StrVec *link) {
  const char *lib = runtime_lib_path("libkit_asan.a");
  static const char *const args[] = {"-Wl,--whole-archive", NULL, "-Wl,--no-whole-archive",
                                     "-Wl,--export-dynamic-symbol=__asan_*", "-Wl,--export-dynamic-symbol=__lsan_*",
                                     "-Wl,--export-dynamic-symbol=__sanitizer_*", "-ldwarf", "-lelf", "-lz",
                                     "-lunwind", "-ldl", "-lpthread"};
  for (size_t i = 0; i < sizeof args / sizeof *args; i++) push(link, args[i] ? args[i] : lib);
}

int main(int argc, char **argv) {
  Options o = {0};
  parse_args(argc, argv, &o);
  if (!o.inputs.n) {
    fprintf(stderr, "kitcc: fatal error: no input files\n");
    return 1;
  }
  uint64_t unimpl = kit_passes_unimplemented(&o.san);
  if (unimpl && !o.no_warnings) {
    fprintf(stderr, "kitcc: warning: -fsanitize: not instrumented yet:");
    for (int b = 0; b < 64; b++)
      if (unimpl & (1ull << b)) fprintf(stderr, " %s", kit_sanitize_name(1ull << b));
    fprintf(stderr, "\n");
  }
  bool stop_early = o.compile_only || o.asm_only || o.preprocess_only || o.emit_cg || o.emit_llvm || o.m_only || o.mm_only;
  if (stop_early && o.output && o.c_inputs.n > 1) {
    fprintf(stderr, "kitcc: fatal error: cannot specify '-o' with '-c', '-S' or '-E' with multiple files\n");
    return 1;
  }
  StrVec link = {0};
  push(&link, "gcc");
  StrVec temps = {0};
  int rc = 0;
  for (size_t i = 0; i < o.inputs.n; i++) {
    const char *in = o.inputs.v[i];
    bool is_c = false;
    for (size_t k = 0; k < o.c_inputs.n; k++)
      if (o.c_inputs.v[k] == in) is_c = true;
    if (!is_c) {
      push(&link, in);
      continue;
    }
    char *out;
    if (stop_early) {
      const char *ext = o.asm_only ? ".s" : o.emit_cg ? ".cg" : o.emit_llvm ? ".ll" : ".o";
      out = o.output ? strdup(o.output) : (o.preprocess_only || o.emit_cg || o.emit_llvm) ? strdup("-") : replace_ext(in, ext);
    } else {
      char tmpl[] = "/tmp/kitcc-XXXXXX.o";
      int fd = mkstemps(tmpl, 2);
      if (fd < 0) {
        fprintf(stderr, "kitcc: error: cannot create a temporary file: %s\n", strerror(errno));
        return 1;
      }
      close(fd);
      out = strdup(tmpl);
      push(&temps, out);
    }
    if (compile(&o, in, out) != 0) rc = 1;
    if (!stop_early) push(&link, out);
  }
  if (!rc && !stop_early) {
    for (size_t i = 0; i < o.link_args.n; i++) push(&link, o.link_args.v[i]);
    bool shared = false;
    for (size_t i = 0; i < o.link_args.n; i++) shared |= !strcmp(o.link_args.v[i], "-shared");
    if ((o.san.sanitize & KIT_SAN_ADDRESS) && !shared) push_asan_runtime(&link);
    if ((o.san.sanitize & KIT_SAN_UB_ALL & ~o.san.trap) && !shared) push_runtime_lib(&link, "libkit_ubsan.a", "-Wl,--export-dynamic-symbol=__kit_ubsan_*");
    /* the default coverage callbacks (weak: the program's own win) and the .sancov writer */
    if (o.san.coverage && !shared) push_runtime_lib(&link, "libkit_cov.a", "-Wl,--export-dynamic-symbol=__sanitizer_cov_*");
    if (o.output) {
      push(&link, "-o");
      push(&link, o.output);
    }
    push(&link, "-lm");
    push(&link, NULL);
    rc = run(link.v, o.verbose) ? 1 : 0;
  }
  for (size_t i = 0; i < temps.n; i++) unlink(temps.v[i]);
  return rc;
}
