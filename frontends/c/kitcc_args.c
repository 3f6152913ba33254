/* frontends/c/kitcc_args.c — kitcc's command line before option parsing:
 * @responsefile expansion as gcc's (libiberty's expandargv), and the tables of
 * gcc options that kitcc accepts and ignores because they cannot change what it
 * generates (hardening, diagnostics layout, gcc-only optimisation knobs). */
#include "kitcc_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct ArgVec {
  char **v;
  size_t n, cap;
} ArgVec;

static void arg_push(ArgVec *a, char *s) {
  if (a->n + 1 >= a->cap) {
    a->cap = a->cap ? a->cap * 2 : 32;
    a->v = realloc(a->v, a->cap * sizeof *a->v);
    if (!a->v) abort();
  }
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
}

static char *read_whole(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) return NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n < 2) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (!buf) abort();
  buf[n] = 0;
  return buf;
}

/* libiberty's buildargv: white space separates arguments outside quotes; a
 * backslash takes the next character literally, inside quotes too; '' is an
 * empty argument. */
static void split_response(const char *s, ArgVec *out) {
  size_t len = strlen(s);
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v') s++;
    if (!*s) return;
    char *arg = malloc(len + 1), *w = arg;
    if (!arg) abort();
    bool sq = false, dq = false;
    for (; *s; s++) {
      if (!sq && !dq && strchr(" \t\n\r\f\v", *s)) break;
      if (*s == '\\' && s[1]) *w++ = *++s;
      else if (sq) { if (*s == '\'') sq = false; else *w++ = *s; }
      else if (dq) { if (*s == '"') dq = false; else *w++ = *s; }
      else if (*s == '\'') sq = true;
      else if (*s == '"') dq = true;
      else *w++ = *s;
    }
    *w = 0;
    arg_push(out, arg);
  }
}

/* @file is replaced by the arguments it holds, recursively; an @file that
 * cannot be read stays as it is (gcc then reports it as a missing input). */
char **kitcc_expand_response_files(int *argc, char **argv) {
  ArgVec cur = {0};
  for (int i = 0; i < *argc; i++) arg_push(&cur, argv[i]);
  int expansions = 0;
  for (size_t i = 1; i < cur.n; i++) {
    if (cur.v[i][0] != '@') continue;
    char *text = read_whole(cur.v[i] + 1);
    if (!text) continue;
    if (++expansions > 2000) {
      fprintf(stderr, "kitcc: error: too many response files (a response file includes itself?)\n");
      exit(1);
    }
    ArgVec inner = {0};
    split_response(text, &inner);
    free(text);
    ArgVec next = {0};
    for (size_t k = 0; k < i; k++) arg_push(&next, cur.v[k]);
    for (size_t k = 0; k < inner.n; k++) arg_push(&next, inner.v[k]);
    for (size_t k = i + 1; k < cur.n; k++) arg_push(&next, cur.v[k]);
    free(inner.v);
    free(cur.v);
    cur = next;
    i--; /* the first inserted argument may itself be an @file */
  }
  *argc = (int)cur.n;
  return cur.v;
}

static bool in_table(const char *const *t, size_t n, const char *a, bool prefix) {
  for (size_t i = 0; i < n; i++)
    if (prefix ? !strncmp(a, t[i], strlen(t[i])) : !strcmp(a, t[i])) return true;
  return false;
}
#define IN(t, a, prefix) in_table(t, sizeof t / sizeof *t, a, prefix)

/* -f options with no effect on kitcc's code or that ask for what it does anyway
 * (kitcc has no stack protector, CET or LTO: the objects are plain and link
 * with gcc's). Options that change semantics kitcc does not implement
 * (-funsigned-char, -fshort-enums, -fopenmp, ...) are not here: they are errors. */
static const char *const ignored_f_exact[] = {
  "-fstack-protector", "-fstack-protector-strong", "-fstack-protector-all", "-fstack-protector-explicit",
  "-fno-stack-protector", "-fstack-clash-protection", "-fno-stack-clash-protection", "-fcf-protection",
  "-fno-strict-aliasing", "-fstrict-aliasing", "-fno-common", "-fcommon", "-ffunction-sections",
  "-fdata-sections", "-fno-function-sections", "-fno-data-sections", "-fexceptions", "-fno-exceptions",
  "-fasynchronous-unwind-tables", "-fno-asynchronous-unwind-tables", "-funwind-tables", "-fno-unwind-tables",
  "-fno-plt", "-fplt", "-fno-semantic-interposition", "-fsemantic-interposition", "-fno-builtin",
  "-fbuiltin", "-fsigned-char", "-fno-unsigned-char", "-fno-math-errno", "-fmath-errno",
  "-ffast-math", "-fno-fast-math", "-fno-delete-null-pointer-checks", "-fdelete-null-pointer-checks",
  "-fno-strict-overflow", "-fstrict-overflow", "-fno-inline", "-finline", "-finline-functions",
  "-fno-inline-functions", "-fno-inline-small-functions", "-finline-small-functions",
  "-funroll-loops", "-fno-unroll-loops", "-fno-optimize-sibling-calls", "-foptimize-sibling-calls",
  "-fno-ident", "-fident", "-frecord-gcc-switches", "-fno-record-gcc-switches", "-fno-lto",
  "-ffat-lto-objects", "-fno-fat-lto-objects", "-fno-var-tracking", "-fvar-tracking",
  "-fvar-tracking-assignments", "-fno-var-tracking-assignments", "-fno-zero-initialized-in-bss",
  "-fno-stack-check", "-fno-schedule-insns", "-fno-schedule-insns2", "-fschedule-insns",
  "-fno-gcse", "-fgcse", "-fno-crossjumping", "-fno-reorder-blocks", "-fno-reorder-functions",
  "-fno-strength-reduce", "-fexpensive-optimizations", "-fno-expensive-optimizations",
  "-fno-keep-inline-dllexport", "-fno-jump-tables", "-fjump-tables", "-fno-move-loop-invariants",
  "-fno-split-stack", "-fno-trapping-math", "-ftrapping-math", "-fno-signed-zeros", "-fsigned-zeros",
  "-fno-finite-math-only", "-fno-rounding-math", "-fno-associative-math", "-fno-reciprocal-math",
  "-fno-errno-math", "-fpermissive", "-fno-permissive", "-fno-short-enums", "-fno-short-wchar",
  "-fno-gnu89-inline", "-fstrict-volatile-bitfields", "-fno-strict-volatile-bitfields",
  "-fno-peephole", "-fno-peephole2", "-fno-caller-saves", "-fno-defer-pop", "-fkeep-static-consts",
  "-fno-keep-static-consts", "-fno-merge-constants", "-fmerge-constants", "-fmerge-all-constants",
  "-fno-merge-all-constants", "-fno-toplevel-reorder", "-ftoplevel-reorder", "-fno-profile-use",
  "-fno-threadsafe-statics", "-fno-rtti", "-fno-use-linker-plugin", "-fuse-linker-plugin",
  "-fno-debug-types-section", "-fdebug-types-section", "-fno-eliminate-unused-debug-types",
  "-feliminate-unused-debug-types", "-fno-dwarf2-cfi-asm", "-fdwarf2-cfi-asm", "-fno-working-directory",
  "-fworking-directory", "-fshow-column", "-fno-show-column", "-fno-canonical-system-headers",
  "-fpch-preprocess", "-fno-pch-preprocess", "-fpreprocessed", "-fno-fold-simple-inlines",
  "-fno-stack-limit", "-fvisibility-inlines-hidden", "-fwrapv-pointer", "-fno-wrapv-pointer",
  "-fno-var-tracking-uninit", "-ftree-vectorize", "-fno-tree-vectorize", "-fhosted",
  /* gcc optimisation passes, which clang too accepts and ignores */
  "-foptimize-strlen", "-fno-optimize-strlen", "-fmodulo-sched", "-fno-modulo-sched",
  "-fnon-call-exceptions", "-fno-non-call-exceptions",
};
/* -f options taken with any value or suffix */
static const char *const ignored_f_prefix[] = {
  "-ffile-prefix-map=", "-fdebug-prefix-map=", "-fmacro-prefix-map=", "-fprofile-prefix-map=",
  "-fcf-protection=", "-fvisibility=", "-fdiagnostics-", "-fno-diagnostics-", "-fmessage-length=",
  "-fmax-errors=", "-flto", "-fno-tree-", "-ftree-", "-fno-ipa-", "-fipa-", "-falign-", "-fno-align-",
  "-fstack-check=", "-fno-sched-", "-fsched-", "-finline-limit=", "-fno-reorder-", "-freorder-",
  "-fconstant-string-class=", "-fno-guess-branch-probability", "-fguess-branch-probability",
  "-fzero-call-used-regs=", "-ftrivial-auto-var-init=", "-fcolor-diagnostics", "-fno-color-diagnostics",
  "-fextended-identifiers", "-finput-charset=", "-fexec-charset=UTF-8", "-fwide-exec-charset=UTF-32",
  "-ftabstop=", "-ftemplate-depth=", "-fno-unsafe-", "-fno-split-", "-fsplit-", "-fno-prefetch-",
  "-fprefetch-", "-fno-keep-", "-fno-stack-", "-ffp-contract=", "-fexcess-precision=",
  "-fno-lifetime-dse", "-fno-partial-inlining", "-fno-early-inlining", "-fno-devirtualize",
  "-fno-isolate-erroneous-paths", "-fisolate-erroneous-paths", "-fno-aggressive-loop-optimizations",
  "-faggressive-loop-optimizations", "-fno-strict-enums", "-fno-semantic-", "-fno-code-hoisting",
  "-fno-builtin-", "-fno-web", "-fno-if-conversion", "-fno-loop-", "-floop-", "-fno-predictive-commoning",
  "-fno-thread-jumps", "-fno-cse-", "-fno-rerun-", "-fno-tracer", "-fno-vect-", "-fvect-",
  "-fno-shrink-wrap", "-fno-ssa-", "-fno-store-merging", "-fno-dce", "-fno-dse", "-fno-ira-",
  "-fira-", "-fno-ree", "-fno-forward-propagate", "-fno-omit-", "-fno-optimize-", "-fno-stdarg-opt",
};
static const char *const ignored_other[] = {
  "-pipe", "-pedantic", "-pedantic-errors", "-Wpedantic", "-s", "-m64", "-msse", "-msse2", "-mfpmath=sse",
  "-mcmodel=small", "-mtune=generic", "-mno-omit-leaf-frame-pointer", "-momit-leaf-frame-pointer",
  "-mshstk", "-mno-shstk", "-mieee-fp", "-mno-red-zone-off", "-mfxsr", "-mmmx", "-mno-mmx",
  "-m80387", "-mhard-float", "-mno-avx", "-mno-avx2", "-mno-avx512f", "-mno-sse3", "-mno-ssse3",
  "-mno-sse4", "-mno-sse4.1", "-mno-sse4.2", "-mstackrealign", "-mno-stackrealign", "-mtls-dialect=gnu",
  "-mno-tls-direct-seg-refs", "-mtls-direct-seg-refs", "-save-temps", "-no-canonical-prefixes",
  "-Qunused-arguments", "-time", "-H", "-MG", "-C", "-CC", "-static-libgcc", "-shared-libgcc",
  "-static-libasan", "-static-libubsan", "-fno-gnu-unique", "-Qn", "-Qy", "-mno-stv", "-mstv",
  "-mpc64", "-mpc80", /* x87 precision: kitcc's floats are SSE (long double keeps 64 bits) */
};

bool kitcc_ignored_option(const char *a) {
  if (a[1] == 'f') return IN(ignored_f_exact, a, false) || IN(ignored_f_prefix, a, true);
  if (!strncmp(a, "-mtune=", 7) || !strncmp(a, "-mprefer-vector-width=", 22) || !strncmp(a, "-Wa,", 4))
    return true;
  return IN(ignored_other, a, false);
}

/* -march= values: kitcc emits baseline x86-64 code, which runs on all of them */
bool kitcc_known_cpu(const char *cpu) {
  static const char *const cpus[] = {
    "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4", "native", "generic", "k8", "k8-sse3", "opteron",
    "athlon64", "athlon-fx", "amdfam10", "barcelona", "bdver1", "bdver2", "bdver3", "bdver4", "btver1",
    "btver2", "znver1", "znver2", "znver3", "znver4", "nocona", "core2", "nehalem", "westmere",
    "sandybridge", "ivybridge", "haswell", "broadwell", "skylake", "skylake-avx512", "cascadelake",
    "cooperlake", "cannonlake", "icelake-client", "icelake-server", "tigerlake", "sapphirerapids",
    "alderlake", "rocketlake", "bonnell", "atom", "silvermont", "slm", "goldmont", "goldmont-plus",
    "tremont", "knl", "knm", "corei7", "corei7-avx", "core-avx-i", "core-avx2",
  };
  return IN(cpus, cpu, false);
}
