/* frontends/c/kit_cpp_main.c — kit-cpp: kitcc's preprocessor on its own, with
 * gcc's spelling of the options (-E output; -I -iquote -isystem -D -U -include
 * -nostdinc -std= -O -P -M -o). Used by tests and for comparing with gcc -E. */
#include "token.h"

#include <stdlib.h>
#include <string.h>

typedef struct StrList {
  const char **v;
  size_t n;
} StrList;

static void push(StrList *l, const char *s) {
  l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
  if (!l->v) {
    fprintf(stderr, "kit-cpp: out of memory\n");
    exit(1);
  }
  l->v[l->n++] = s;
}

static long std_version(const char *std, bool *gnu) {
  *gnu = !strncmp(std, "gnu", 3);
  const char *v = std + (*gnu ? 3 : (std[0] == 'c' ? 1 : 0));
  if (!strcmp(v, "89") || !strcmp(v, "90")) return 0;
  if (!strcmp(v, "99") || !strcmp(v, "9x")) return 199901L;
  if (!strcmp(v, "11") || !strcmp(v, "1x")) return 201112L;
  if (!strcmp(v, "17") || !strcmp(v, "18")) return 201710L;
  if (!strcmp(v, "2x") || !strcmp(v, "23")) return 202000L;
  return -1;
}

static void usage(FILE *out) {
  fputs("usage: kit-cpp [options] file      (file '-' is standard input)\n"
        "kitcc's C preprocessor on its own, as `gcc -E` is:\n"
        "  -E             preprocess (the default)\n"
        "  -P             no linemarkers in the output\n"
        "  -M             print the make dependency rule instead\n"
        "  -Idir -iquote dir -isystem dir   include directories, searched as gcc does\n"
        "  -Dname[=v] -Uname -include file  macros and forced includes, in order\n"
        "  -nostdinc      no system include directories\n"
        "  -std=gnu17     the language (c89 .. c2x, gnu89 .. gnu2x): __STDC_VERSION__\n"
        "  -O<n>          __OPTIMIZE__ when n > 0\n"
        "  -fPIC -fPIE    __PIC__ and __PIE__ (the default; -fno-pic turns them off)\n"
        "  -o out         write to out instead of standard output\n"
        "  --help, --version\n",
        out);
}

/* "-Ifoo" or "-I foo": the option's argument, or NULL (and an error). */
static const char *arg_of(int argc, char **argv, int *i, const char *opt) {
  size_t n = strlen(opt);
  if (argv[*i][n]) return argv[*i] + n;
  if (*i + 1 < argc) return argv[++*i];
  fprintf(stderr, "kit-cpp: error: missing argument to '%s'\n", opt);
  return NULL;
}

int main(int argc, char **argv) {
  StrList inc = {0}, quote = {0}, sys = {0}, macros = {0}, forced = {0};
  CPPOptions o = {.std_version = 201710L, .gnu = true, .pic = true, .err = stderr};
  const char *input = NULL, *output = NULL;
  bool markers = true, deps = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "-E")) continue;
    if (!strcmp(a, "-P")) markers = false;
    else if (!strcmp(a, "-M")) deps = true;
    else if (!strcmp(a, "-nostdinc")) o.no_std_inc = true;
    else if (!strncmp(a, "-std=", 5)) {
      o.std_version = std_version(a + 5, &o.gnu);
      if (o.std_version < 0) {
        fprintf(stderr, "kit-cpp: error: unrecognized command-line option '%s'\n", a);
        return 1;
      }
    } else if (!strncmp(a, "-O", 2)) o.opt_level = a[2] == '0' ? 0 : 1;
    else if (!strcmp(a, "-fPIC") || !strcmp(a, "-fpic") || !strcmp(a, "-fPIE") || !strcmp(a, "-fpie"))
      o.pic = true;
    else if (!strcmp(a, "-fno-PIC") || !strcmp(a, "-fno-pic") || !strcmp(a, "-fno-PIE") ||
             !strcmp(a, "-fno-pie"))
      o.pic = false;
    else if (!strncmp(a, "-iquote", 7)) {
      if (!(v = arg_of(argc, argv, &i, "-iquote"))) return 1;
      push(&quote, v);
    } else if (!strncmp(a, "-isystem", 8)) {
      if (!(v = arg_of(argc, argv, &i, "-isystem"))) return 1;
      push(&sys, v);
    } else if (!strncmp(a, "-include", 8)) {
      if (!(v = arg_of(argc, argv, &i, "-include"))) return 1;
      push(&forced, v);
    } else if (!strncmp(a, "-I", 2)) {
      if (!(v = arg_of(argc, argv, &i, "-I"))) return 1;
      push(&inc, v);
    } else if (!strncmp(a, "-D", 2)) {
      if (!(v = arg_of(argc, argv, &i, "-D"))) return 1;
      push(&macros, v);
    } else if (!strncmp(a, "-U", 2)) {
      if (!(v = arg_of(argc, argv, &i, "-U"))) return 1;
      char *u = malloc(strlen(v) + 2); /* "-NAME": see CppOptions.macros */
      if (!u) return 1;
      u[0] = '-', strcpy(u + 1, v);
      push(&macros, u);
    } else if (!strncmp(a, "-o", 2)) {
      if (!(output = arg_of(argc, argv, &i, "-o"))) return 1;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--version")) {
      printf("kit-cpp (kit) %s\n", KIT_VERSION);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "kit-cpp: error: unrecognized command-line option '%s'\n", a);
      return 1;
    } else if (input) {
      fprintf(stderr, "kit-cpp: error: more than one input file\n");
      return 1;
    } else {
      input = a;
    }
  }
  if (!input) {
    usage(stderr);
    return 1;
  }
  o.include_dirs = inc.v, o.ninclude_dirs = inc.n;
  o.quote_dirs = quote.v, o.nquote_dirs = quote.n;
  o.system_dirs = sys.v, o.nsystem_dirs = sys.n;
  o.macros = macros.v, o.nmacros = macros.n;
  o.forced_includes = forced.v, o.nforced_includes = forced.n;
  FILE *out = output ? fopen(output, "w") : stdout;
  if (!out) {
    perror(output);
    return 1;
  }
  CPP *pp = cpp_new(&o);
  if (!pp) return 1;
  cpp_set_preprocess_only(pp, true);
  cpp_set_line_markers(pp, markers);
  int rc = 1;
  if (cpp_open_file(pp, input) == 0) {
    if (deps) {
      while (cpp_next(pp)->kind != CT_EOF) {}
      const char **d;
      size_t n = cpp_deps(pp, &d);
      const char *base = strrchr(input, '/') ? strrchr(input, '/') + 1 : input;
      const char *dot = strrchr(base, '.');
      fprintf(out, "%.*s.o:", (int)(dot ? dot - base : (long)strlen(base)), base);
      for (size_t i = 0; i < n; i++) fprintf(out, " \\\n %s", d[i]);
      fputc('\n', out);
    } else {
      cpp_write_preprocessed(pp, out);
    }
    rc = cpp_errors(pp) ? 1 : 0;
  }
  cpp_free(pp);
  if (output) fclose(out);
  free(inc.v), free(quote.v), free(sys.v), free(macros.v), free(forced.v);
  return rc;
}
