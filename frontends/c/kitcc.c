/* frontends/c/kitcc.c — the kitcc driver: gcc-compatible options, then for
 * each C input preprocess -> parse -> lower to CG -> passes -> LLVM object,
 * and finally link everything through the system gcc driver. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cc.h"
#include "kitcc_args.h"
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
  StrVec asm_inputs;     /* .s, .S: assembled by gcc */
  StrVec unknown_warnings; /* -Wname kitcc does not know: a warning, as clang gives */
  StrVec cc_args;        /* the options of each file's compile, for -v and -### */
  StrVec includes, quotes, isystem, macros, forced; /* macros: -D, -U as in CppOptions */
  StrVec link_args;      /* -L, -l, -Wl, -static, -shared, -pthread, ... in order */
  const char *output;
  bool compile_only, asm_only, preprocess_only, emit_cg, emit_llvm;
  bool debug, pic, nostdinc, verbose, time_report;
  bool dry_run;          /* -###: print the commands, run none */
  bool version;          /* --version */
  bool syntax_only;      /* -fsyntax-only */
  bool wrapv;            /* -fwrapv: signed overflow wraps */
  bool no_line_markers;  /* -P */
  const char *query;     /* -dumpversion, -print-*: answered instead of compiling */
  CWarnFlags warn;
  int opt_level;
  int omit_fp;           /* -f[no-]omit-frame-pointer: 1, 0; -1 = at -O1 and up without sanitizers */
  int gnu89_inline;      /* -f[no-]gnu89-inline: 1, 0; -1 = as the -std= (gnu89 semantics before C99) */
  bool instrument_functions; /* -finstrument-functions */
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
       "  -MD -MMD -MF FILE -MT TARGET -MP -emit-cg -emit-llvm -ftime-report -fsyntax-only -fwrapv\n"
       "  -Wall -Wextra -Wname -Wno-name -Werror[=name] -w -v -### @FILE\n"
       "  -dumpversion -dumpmachine -print-file-name=X -print-prog-name=X --print-sanitizer-link-flags\n"
       "  -fsanitize=address[,...] -fsanitize=memory -fsanitize-recover=address (UBSan and coverage names are parsed)");
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

/* "-NAME", the preprocessor's entry for -UNAME among the -D's */
static const char *undefine_entry(const char *name) {
  char *e = malloc(strlen(name) + 2);
  if (!e) abort();
  e[0] = '-';
  strcpy(e + 1, name);
  return e;
}

static void bad_option(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void bad_option(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "kitcc: error: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static void parse_std(Options *o, const char *a) {
  const char *s = a + 5;
  static const struct {
    const char *name;
    long version;
    bool gnu;
  } stds[] = {
    {"c89", 199409, false}, {"c90", 199409, false}, {"iso9899:1990", 199409, false},
    {"iso9899:199409", 199409, false}, {"gnu89", 199409, true}, {"gnu90", 199409, true},
    {"c99", 199901, false}, {"c9x", 199901, false}, {"iso9899:1999", 199901, false},
    {"iso9899:199x", 199901, false}, {"gnu99", 199901, true}, {"gnu9x", 199901, true},
    {"c11", 201112, false}, {"c1x", 201112, false}, {"iso9899:2011", 201112, false},
    {"gnu11", 201112, true}, {"gnu1x", 201112, true}, {"c17", 201710, false}, {"c18", 201710, false},
    {"iso9899:2017", 201710, false}, {"iso9899:2018", 201710, false}, {"gnu17", 201710, true},
    {"gnu18", 201710, true},
  };
  for (size_t i = 0; i < sizeof stds / sizeof *stds; i++)
    if (!strcmp(s, stds[i].name)) {
      o->std_version = stds[i].version;
      o->gnu = stds[i].gnu;
      return;
    }
  if (!strncmp(s, "c++", 3) || !strncmp(s, "gnu++", 5)) bad_option("invalid argument '%s' not allowed with 'C'", a);
  if (!strcmp(s, "c2x") || !strcmp(s, "gnu2x") || !strcmp(s, "c23") || !strcmp(s, "gnu23"))
    bad_option("'%s': kitcc implements C89 to C17, not C23", a);
  bad_option("invalid value in '%s' (kitcc takes c89, c99, c11, c17 and their gnu variants)", a);
}

static void parse_lang(Options *o, const char *x) {
  if (!strcmp(x, "c") || !strcmp(x, "none") || !strcmp(x, "assembler") || !strcmp(x, "assembler-with-cpp"))
    o->lang = !strcmp(x, "none") ? NULL : x;
  else
    bad_option("language not recognized: '%s'", x);
}

static void parse_machine(Options *o, const char *a) {
  (void)o;
  if (!strcmp(a, "-m32") || !strcmp(a, "-mx32") || !strcmp(a, "-m16"))
    bad_option("'%s': kitcc targets x86_64 (LP64) only", a);
  if (!strncmp(a, "-march=", 7) && !kitcc_known_cpu(a + 7)) bad_option("unknown target CPU '%s'", a + 7);
  if (!strncmp(a, "-march=", 7) || kitcc_ignored_option(a)) return;
  bad_option("unknown argument: '%s'", a);
}

/* the queries build systems ask (-dumpversion, -print-*): answered before any input is needed */
static bool parse_query(Options *o, const char *a) {
  if (!strcmp(a, "-dumpversion") || !strcmp(a, "-dumpfullversion") || !strcmp(a, "-dumpmachine") ||
      !strcmp(a, "--print-sanitizer-link-flags") || !strncmp(a, "-print-", 7) || !strncmp(a, "--print-", 8)) {
    if (!o->query) o->query = a;
    return true;
  }
  return false;
}

/* link-time options, kept in order for gcc */
static bool parse_link_option(Options *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  static const char *const alone[] = {"-static", "-shared", "-pthread", "-rdynamic", "-pie", "-no-pie",
                                      "-nostdlib", "-nostartfiles", "-nodefaultlibs", "-nolibc",
                                      "-static-pie", "-symbolic"};
  static const char *const with_arg[] = {"-Xlinker", "-z", "-u", "-T", "-e"};
  bool known = !strncmp(a, "-Wl,", 4) || !strncmp(a, "-fuse-ld=", 9) || !strncmp(a, "-B", 2);
  for (size_t k = 0; k < sizeof alone / sizeof *alone; k++) known |= !strcmp(a, alone[k]);
  bool takes = false;
  for (size_t k = 0; k < sizeof with_arg / sizeof *with_arg; k++) takes |= !strcmp(a, with_arg[k]);
  if (!known && !takes) return false;
  /* -Wl,... stays among the files: -Wl,--whole-archive LIB.a
   * -Wl,--no-whole-archive (libtool's) means what it says only in that order */
  StrVec *to = !strncmp(a, "-Wl,", 4) ? &o->inputs : &o->link_args;
  push(to, a);
  if (takes) push(to, arg_value(argc, argv, i, a));
  if (!strcmp(a, "-B") && !a[2]) push(&o->link_args, arg_value(argc, argv, i, a));
  if (!strcmp(a, "-pthread")) push(&o->macros, "_REENTRANT");
  return true;
}

static bool parse_preprocessor_option(Options *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (!strncmp(a, "-I", 2)) push(&o->includes, arg_value(argc, argv, i, "-I"));
  else if (!strcmp(a, "-iquote")) push(&o->quotes, arg_value(argc, argv, i, "-iquote"));
  else if (!strcmp(a, "-isystem") || !strcmp(a, "-idirafter")) push(&o->isystem, arg_value(argc, argv, i, a));
  else if (!strncmp(a, "-D", 2)) push(&o->macros, arg_value(argc, argv, i, "-D"));
  else if (!strncmp(a, "-U", 2)) push(&o->macros, undefine_entry(arg_value(argc, argv, i, "-U")));
  else if (!strcmp(a, "-include") || !strcmp(a, "-imacros")) push(&o->forced, arg_value(argc, argv, i, a));
  else if (!strcmp(a, "-nostdinc")) o->nostdinc = true;
  else if (!strcmp(a, "-P")) o->no_line_markers = true;
  else if (!strcmp(a, "-MD")) o->md = true;
  else if (!strcmp(a, "-MMD")) o->mmd = true;
  else if (!strcmp(a, "-MP")) o->mp = true;
  else if (!strcmp(a, "-M")) o->m_only = true;
  else if (!strcmp(a, "-MM")) o->mm_only = true;
  else if (!strcmp(a, "-MF")) o->mf = arg_value(argc, argv, i, "-MF");
  else if (!strcmp(a, "-MT") || !strcmp(a, "-MQ")) o->mt = arg_value(argc, argv, i, a);
  else return false;
  return true;
}

static void parse_input(Options *o, const char *a) {
  bool c = !strcmp(a, "-") || has_suffix(a, ".c") || has_suffix(a, ".i") || (o->lang && !strcmp(o->lang, "c"));
  bool as = !c && (has_suffix(a, ".s") || has_suffix(a, ".S") || (o->lang && strncmp(o->lang, "c", 1)));
  if (c) push(&o->c_inputs, a);
  if (as) push(&o->asm_inputs, a);
  push(&o->inputs, a);
}

static void parse_arg(Options *o, int argc, char **argv, int *ip);

/* -Wp,A,B: preprocessor options, split at the commas */
static void parse_wp(Options *o, const char *a) {
  char *copy = strdup(a + 4);
  char *words[64];
  int n = 1;
  words[0] = "kitcc";
  for (char *w = strtok(copy, ","); w && n < 63; w = strtok(NULL, ",")) words[n++] = w;
  words[n] = NULL;
  for (int k = 1; k < n; k++) parse_arg(o, n, words, &k);
}

static void parse_arg(Options *o, int argc, char **argv, int *ip) {
  int i = *ip;
  const char *a = argv[i];
  if (a[0] != '-' || !strcmp(a, "-")) parse_input(o, a);
  else if (!strcmp(a, "-c")) o->compile_only = true;
  else if (!strcmp(a, "-S")) o->asm_only = true;
  else if (!strcmp(a, "-E")) o->preprocess_only = true;
  else if (!strcmp(a, "-fsyntax-only")) o->syntax_only = true;
  else if (!strcmp(a, "-emit-cg")) o->emit_cg = true;
  else if (!strcmp(a, "-emit-llvm")) o->emit_llvm = true;
  else if (!strncmp(a, "-o", 2)) o->output = arg_value(argc, argv, &i, "-o");
  else if (!strncmp(a, "-O", 2)) o->opt_level = a[2] == 's' || a[2] == 'z' ? 2 : a[2] == 'g' ? 1 : a[2] ? (a[2] >= '0' && a[2] <= '3' ? a[2] - '0' : 3) : 1;
  else if (!strncmp(a, "-g", 2)) o->debug = strcmp(a, "-g0") != 0;
  else if (parse_preprocessor_option(o, argc, argv, &i)) {
  } else if (!strncmp(a, "-std=", 5)) parse_std(o, a);
  else if (!strcmp(a, "-ansi")) {
    o->gnu = false;
    o->std_version = 199409;
  } else if (!strncmp(a, "-x", 2)) parse_lang(o, arg_value(argc, argv, &i, "-x"));
  else if (!strncmp(a, "-Wp,", 4)) parse_wp(o, a);
  else if (!strcmp(a, "-w") || !strncmp(a, "-pedantic", 9) || (!strncmp(a, "-W", 2) && strncmp(a, "-Wl,", 4) && strncmp(a, "-Wa,", 4))) {
    if (!c_warn_option(&o->warn, a)) push(&o->unknown_warnings, a);
  } else if (!strcmp(a, "-fPIC") || !strcmp(a, "-fpic") || !strcmp(a, "-fPIE") || !strcmp(a, "-fpie")) o->pic = true;
  else if (!strcmp(a, "-fno-PIC") || !strcmp(a, "-fno-pic") || !strcmp(a, "-fno-PIE") || !strcmp(a, "-fno-pie")) o->pic = false;
  else if (!strcmp(a, "-v")) o->verbose = true;
  else if (!strcmp(a, "-###")) o->dry_run = o->verbose = true;
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
  } else if (!strcmp(a, "--help")) {
    usage();
    exit(0);
  } else if (!strcmp(a, "--version")) o->version = true;
  else if (parse_query(o, a)) {
  } else if (!strncmp(a, "-l", 2) || !strncmp(a, "-L", 2)) {
    if (!a[2] && i + 1 < argc) {
      char *j = malloc(strlen(argv[i + 1]) + 3);
      sprintf(j, "%s%s", a, argv[++i]);
      push(&o->inputs, j);
    } else {
      push(&o->inputs, a);
    }
  } else if (parse_link_option(o, argc, argv, &i)) {
  } else if (!strncmp(a, "-fsanitize", 10) || !strncmp(a, "-fno-sanitize", 13)) {
    char err[256];
    if (kit_sanitize_parse_arg(&o->san, a, err, sizeof err) < 0) {
      fprintf(stderr, "kitcc: error: %s\n", err);
      exit(1);
    }
  } else if (!strncmp(a, "-m", 2)) parse_machine(o, a);
  else if (!kitcc_ignored_option(a)) bad_option("unknown argument: '%s'", a);
  *ip = i;
}

/* an option that the compile of each file takes (-v and -### print them) */
static bool compile_option(const char *a) {
  static const char *const driver[] = {"-c", "-S", "-E", "-v", "-###", "-emit-cg", "-emit-llvm", "-fsyntax-only"};
  for (size_t k = 0; k < sizeof driver / sizeof *driver; k++)
    if (!strcmp(a, driver[k])) return false;
  return strncmp(a, "-o", 2) && strncmp(a, "-x", 2) && strncmp(a, "-M", 2);
}

static void parse_args(int argc, char **argv, Options *o) {
  o->std_version = 201710;
  o->gnu = true;
  o->pic = true; /* Debian's gcc builds PIE by default; kitcc's objects must link the same way */
  o->omit_fp = -1;
  o->gnu89_inline = -1;
  kit_pass_options_init(&o->san);
  c_warn_flags_init(&o->warn);
  for (int i = 1; i < argc; i++) {
    int first = i;
    size_t inputs = o->inputs.n, links = o->link_args.n;
    parse_arg(o, argc, argv, &i);
    if (o->inputs.n != inputs || o->link_args.n != links || !compile_option(argv[first])) continue;
    for (int k = first; k <= i; k++) push(&o->cc_args, argv[k]);
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
  po.macros = o->macros.v;
  po.nmacros = o->macros.n;
  po.forced_includes = o->forced.v;
  po.nforced_includes = o->forced.n;
  po.std_version = o->std_version;
  po.gnu = o->gnu;
  po.opt_level = o->opt_level;
  po.pic = o->pic;
  po.gnu89_inline = gnu89_inline(o);
  po.san_address = o->san.sanitize & KIT_SAN_ADDRESS;
  po.san_memory = o->san.sanitize & KIT_SAN_MEMORY;
  po.san_undefined = o->san.sanitize & KIT_SAN_UNDEFINED;
  po.san_coverage = o->san.coverage != 0;
  po.err = err;
  po.warn = &o->warn;
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
  if (o->no_line_markers) cpp_set_line_markers(pp, false);
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
  CDiag diag = {.pp = pp, .out = stderr, .flags = &o->warn};
  CParseOptions popt = {.std_version = o->std_version, .gnu = o->gnu, .gnu89_inline = gnu89_inline(o),
                        .bracket_depth = o->bracket_depth};
  CUnit *u = c_parse(pp, &diag, &popt);
  phase_done(&clk, "preprocess+parse");
  int rc = 0;
  /* warnings made errors still let the lowering give its own (-Wreturn-type) */
  if (cpp_errors(pp) || diag.errors > diag.warn_errors) {
    rc = 1;
    goto done;
  }
  if (o->syntax_only) goto done;
  CLowerOptions lopt = {.debug_info = o->debug, .opt_level = o->opt_level, .pic = o->pic,
                        .wrapv = o->wrapv, .instrument_functions = o->instrument_functions};
  KitCgModule *m = c_lower(u, &diag, &lopt);
  phase_done(&clk, "lower to CG");
  if (!m || diag.errors) {
    rc = 1;
    if (m) kit_cg_module_free(m);
    goto done;
  }
  if (o->san.sanitize || o->san.coverage) {
    KitPassOptions so = o->san;
    so.opt_level = o->opt_level;
    kit_passes_run(m, &so);
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

/* -fsanitize=memory: libkit_msan.a whole (its malloc family and interceptors
 * win), the symbolizer's libraries, the entry points exported */
static void push_msan_runtime(StrVec *link) {
  const char *lib = runtime_lib_path("libkit_msan.a");
  static const char *const args[] = {"-Wl,--whole-archive", NULL, "-Wl,--no-whole-archive",
                                     "-Wl,--export-dynamic-symbol=__msan_*",
                                     "-Wl,--export-dynamic-symbol=__sanitizer_*", "-ldwarf", "-lelf", "-lz",
                                     "-lunwind", "-ldl", "-lpthread"};
  for (size_t i = 0; i < sizeof args / sizeof *args; i++) push(link, args[i] ? args[i] : lib);
}

/* the runtimes an executable's link needs for the -fsanitize= options given */
static void push_sanitizer_runtimes(const Options *o, StrVec *link) {
  if (o->san.sanitize & KIT_SAN_ADDRESS) push_asan_runtime(link);
  if (o->san.sanitize & KIT_SAN_MEMORY) push_msan_runtime(link);
  if (o->san.sanitize & KIT_SAN_UB_ALL & ~o->san.trap)
    push_runtime_lib(link, "libkit_ubsan.a", "-Wl,--export-dynamic-symbol=__kit_ubsan_*");
  /* the default coverage callbacks (weak: the program's own win) and the .sancov writer */
  if (o->san.coverage) push_runtime_lib(link, "libkit_cov.a", "-Wl,--export-dynamic-symbol=__sanitizer_cov_*");
}

#define KITCC_GNU_VERSION "8.1.0"

static void print_banner(FILE *f) {
  fprintf(f, "kitcc version 0.1 (kit; GNU C " KITCC_GNU_VERSION " compatible; LLVM 16)\n"
             "Target: x86_64-linux-gnu\nThread model: posix\n");
}

static bool is_kit_runtime(const char *name) {
  return !strcmp(name, "libkit_asan.a") || !strcmp(name, "libkit_msan.a") || !strcmp(name, "libkit_ubsan.a") ||
         !strcmp(name, "libkit_cov.a");
}

/* -dumpversion etc.: kitcc's own answers, the link-side ones from gcc (which links) */
static int answer_query(const Options *o) {
  const char *q = o->query;
  if (!strcmp(q, "-dumpversion")) puts("8");
  else if (!strcmp(q, "-dumpfullversion")) puts(KITCC_GNU_VERSION);
  else if (!strcmp(q, "-dumpmachine")) puts("x86_64-linux-gnu");
  else if (!strcmp(q, "--print-sanitizer-link-flags")) {
    StrVec link = {0};
    push_sanitizer_runtimes(o, &link);
    for (size_t i = 0; i < link.n; i++) printf("%s%s", i ? " " : "", link.v[i]);
    putchar('\n');
  } else if (!strncmp(q, "-print-file-name=", 17) && is_kit_runtime(q + 17)) {
    puts(runtime_lib_path(q + 17));
  } else {
    const char *argv[] = {"gcc", q, NULL};
    return run(argv, false) ? 1 : 0;
  }
  return 0;
}

/* -v on a compile: the search list as gcc prints it (CMake reads it for the
 * implicit include directories) */
static void print_search_list(const Options *o) {
  fprintf(stderr, "#include \"...\" search starts here:\n");
  for (size_t i = 0; i < o->quotes.n; i++) fprintf(stderr, " %s\n", o->quotes.v[i]);
  fprintf(stderr, "#include <...> search starts here:\n");
  for (size_t i = 0; i < o->includes.n; i++) fprintf(stderr, " %s\n", o->includes.v[i]);
  for (size_t i = 0; i < o->isystem.n; i++) fprintf(stderr, " %s\n", o->isystem.v[i]);
  size_t n = 0;
  const char *const *dirs = o->nostdinc ? NULL : cpp_default_system_dirs(&n);
  for (size_t i = 0; i < n; i++) fprintf(stderr, " %s\n", dirs[i]);
  fprintf(stderr, "End of search list.\n");
}

/* -v / -###: the compile of one file as the kitcc command that repeats it */
static void print_compile(const Options *o, const char *in, const char *out) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = 0;
  const char *q = o->dry_run ? "\"" : "";
  fprintf(stderr, " %s%s%s", q, n > 0 ? self : "kitcc", q);
  for (size_t i = 0; i < o->cc_args.n; i++) fprintf(stderr, " %s%s%s", q, o->cc_args.v[i], q);
  fprintf(stderr, " %s-c%s %s%s%s %s-o%s %s%s%s\n", q, q, q, in, q, q, q, q, out, q);
}

static bool check_inputs(const Options *o) {
  for (size_t i = 0; i < o->inputs.n; i++) {
    const char *in = o->inputs.v[i];
    if (in[0] == '-' || access(in, F_OK) == 0) continue;
    fprintf(stderr, "kitcc: error: %s: No such file or directory\n", in);
    return false;
  }
  return true;
}

static bool in_vec(const StrVec *v, const char *s) {
  for (size_t k = 0; k < v->n; k++)
    if (v->v[k] == s) return true;
  return false;
}

/* .s/.S with -c or -S-less compiles: gcc assembles them */
static int assemble(const Options *o, const char *in, const char *out) {
  StrVec as = {0};
  push(&as, "gcc");
  for (size_t i = 0; i < o->cc_args.n; i++) push(&as, o->cc_args.v[i]);
  push(&as, "-c");
  push(&as, in);
  push(&as, "-o");
  push(&as, out);
  push(&as, NULL);
  if (o->dry_run) {
    for (size_t i = 0; as.v[i]; i++) fprintf(stderr, " \"%s\"", as.v[i]);
    fputc('\n', stderr);
    return 0;
  }
  return run(as.v, o->verbose) ? 1 : 0;
}

static int link_all(const Options *o, StrVec *link) {
  for (size_t i = 0; i < o->link_args.n; i++) push(link, o->link_args.v[i]);
  bool shared = false;
  for (size_t i = 0; i < o->link_args.n; i++) shared |= !strcmp(o->link_args.v[i], "-shared");
  if (!shared) push_sanitizer_runtimes(o, link);
  if (o->output) {
    push(link, "-o");
    push(link, o->output);
  }
  push(link, "-lm");
  /* gcc shows its own steps (collect2: CMake reads the implicit link directories there) */
  if (o->verbose) push(link, o->dry_run ? "-###" : "-v");
  push(link, NULL);
  if (o->dry_run) {
    for (size_t i = 0; link->v[i]; i++) fprintf(stderr, " \"%s\"", link->v[i]);
    fputc('\n', stderr);
  }
  return run(link->v, o->verbose && !o->dry_run) ? 1 : 0;
}

int main(int argc, char **argv) {
  Options o = {0};
  argv = kitcc_expand_response_files(&argc, argv);
  parse_args(argc, argv, &o);
  for (size_t i = 0; i < o.unknown_warnings.n; i++)
    if (c_warn_state(&o.warn, W_UNKNOWN_WARNING_OPTION) != WS_OFF)
      fprintf(stderr, "kitcc: warning: unknown warning option '%s' [-Wunknown-warning-option]\n", o.unknown_warnings.v[i]);
  if (o.version) {
    print_banner(stdout);
    return 0;
  }
  if (o.query) return answer_query(&o);
  if (o.verbose) print_banner(stderr);
  size_t files = 0;
  for (size_t i = 0; i < o.inputs.n; i++) files += strncmp(o.inputs.v[i], "-Wl,", 4) != 0;
  if (!files) {
    if (o.verbose) return 0; /* `kitcc -v`: the version, as gcc */
    fprintf(stderr, "kitcc: fatal error: no input files\ncompilation terminated.\n");
    return 1;
  }
  if (!check_inputs(&o)) return 1;
  if ((o.san.sanitize & KIT_SAN_MEMORY) && (o.san.sanitize & KIT_SAN_ADDRESS)) {
    /* clang's words: the two shadows cannot share an address space */
    fprintf(stderr, "kitcc: error: invalid argument '-fsanitize=address' not allowed with '-fsanitize=memory'\n");
    return 1;
  }
  uint64_t unimpl = kit_passes_unimplemented(&o.san);
  if (unimpl && !o.warn.none) {
    fprintf(stderr, "kitcc: warning: -fsanitize: not instrumented yet:");
    for (int b = 0; b < 64; b++)
      if (unimpl & (1ull << b)) fprintf(stderr, " %s", kit_sanitize_name(1ull << b));
    fprintf(stderr, "\n");
  }
  bool stop_early = o.compile_only || o.asm_only || o.preprocess_only || o.emit_cg || o.emit_llvm || o.m_only ||
                    o.mm_only || o.syntax_only;
  if (stop_early && o.output && o.c_inputs.n + o.asm_inputs.n > 1) {
    fprintf(stderr, "kitcc: fatal error: cannot specify '-o' with '-c', '-S' or '-E' with multiple files\n");
    return 1;
  }
  StrVec link = {0};
  push(&link, "gcc");
  StrVec temps = {0};
  int rc = 0;
  for (size_t i = 0; i < o.inputs.n; i++) {
    const char *in = o.inputs.v[i];
    bool is_c = in_vec(&o.c_inputs, in), is_asm = in_vec(&o.asm_inputs, in);
    if (!is_c && !(is_asm && stop_early)) {
      if (!stop_early) push(&link, in);
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
    if (is_asm) {
      if (o.compile_only && assemble(&o, in, out) != 0) rc = 1;
      continue;
    }
    if (o.verbose) {
      print_compile(&o, in, out);
      if (!o.dry_run) print_search_list(&o);
    }
    if (!o.dry_run && compile(&o, in, out) != 0) rc = 1;
    if (!stop_early) push(&link, out);
  }
  if (!rc && !stop_early) rc = link_all(&o, &link);
  for (size_t i = 0; i < temps.n; i++) unlink(temps.v[i]);
  return rc;
}
