/* tests/cpp/fuzz_cpp.c — feeds kitcc's preprocessor random bytes, mutated real
 * headers and pathological inputs (deep nesting, huge expansions, runaway
 * recursion). Every run must reach EOF: no crash, no hang, no stack overflow.
 * Usage: cpp_fuzz GOLDEN_DIR [iterations]; fixed seed, so failures replay. */
#include "token.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static size_t below(size_t n) { return n ? (size_t)(next_rand() % n) : 0; }

static const char *const snippets[] = {
  "#define ", "#undef ", "#if ", "#ifdef X\n", "#else\n", "#elif 1\n", "#endif\n",
  "#include ", "#include_next <x.h>\n", "#line 5\n", "#pragma once\n", "_Pragma(\"once\")",
  "__VA_ARGS__", "__VA_OPT__(", "##", "#", "defined(", "__has_include(", "(", ")", ",",
  "\\\n", "/*", "*/", "//", "\"", "'", "\n", " ", "f(", "x", "1/0", "0x", "L'", "u8\"",
  "#define f(a, ...) a ## __VA_ARGS__ #a\n", "#define x x f\n", "__LINE__", "__COUNTER__",
  "#pragma push_macro(\"x\")\n", "#pragma pop_macro(\"x\")\n", "<:", "%:%:", "\\u00e9", "\0",
};

static char *mutate(const char *src, size_t n, size_t *out_n) {
  size_t cap = n * 2 + 4096, len = 0;
  char *out = malloc(cap);
  if (!out) exit(2);
  size_t edits = 1 + below(20);
  size_t *at = malloc(edits * sizeof *at);
  if (!at) exit(2);
  for (size_t i = 0; i < edits; i++) at[i] = below(n + 1);
  for (size_t i = 0; i <= n; i++) {
    for (size_t e = 0; e < edits; e++) {
      if (at[e] != i) continue;
      switch (below(4)) {
      case 0: { /* insert a snippet */
        const char *s = snippets[below(sizeof snippets / sizeof *snippets)];
        size_t sl = s[0] ? strlen(s) : 1;
        if (len + sl < cap) memcpy(out + len, s, sl), len += sl;
        break;
      }
      case 1: /* drop a run of bytes */
        i += below(40);
        break;
      case 2: /* a random byte */
        if (len < cap) out[len++] = (char)below(256);
        break;
      default: /* truncate */
        if (below(8) == 0) n = i;
      }
    }
    if (i < n && len < cap) out[len++] = src[i];
  }
  free(at);
  *out_n = len;
  return out;
}

static FILE *devnull;
static const char *inc_dir;

/* One preprocessor run; returns the number of tokens, or -1 if it never ended. */
static long run(const char *name, const char *buf, size_t n) {
  const char *incs[] = {inc_dir};
  CPPOptions o = {.include_dirs = incs, .ninclude_dirs = 1, .no_std_inc = true,
                  .std_version = 201710L, .gnu = true, .err = devnull};
  CPP *pp = cpp_new(&o);
  if (!pp) return -1;
  long count = 0;
  if (cpp_open_buffer(pp, name, buf, n) == 0) {
    while (cpp_next(pp)->kind != CT_EOF) {
      if (++count > 50000000) {
        count = -1;
        break;
      }
    }
  }
  cpp_free(pp);
  return count;
}

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = malloc(1 << 20);
  if (!buf) exit(2);
  *n = fread(buf, 1, (1 << 20) - 1, f);
  fclose(f);
  return buf;
}

static char *repeat(const char *a, size_t times, const char *b, size_t btimes, size_t *n) {
  size_t la = strlen(a), lb = strlen(b);
  char *s = malloc(la * times + lb * btimes + 1);
  if (!s) exit(2);
  size_t k = 0;
  for (size_t i = 0; i < times; i++) memcpy(s + k, a, la), k += la;
  for (size_t i = 0; i < btimes; i++) memcpy(s + k, b, lb), k += lb;
  s[k] = 0;
  *n = k;
  return s;
}

static int pathological(void) {
  int bad = 0;
  size_t n;
  char *s;
  struct { const char *a; size_t at; const char *b; size_t bt; } cases[] = {
    {"#if 1\n", 100000, "#endif\n", 100000},      /* deep conditional nesting */
    {"#if 0\n", 100000, "#endif\n", 100000},
    {"#if ", 1, "(", 100000},                      /* deep parentheses in #if */
    {"#if ", 1, "-", 100000},
    {"#define f(x) x\n", 1, "f(", 100000},         /* unterminated nested calls */
    {"#define f(x) (x)\n#define g(x) f(x)\n", 1, "g(f(", 3000},
    {"#define x x\n", 1, "x ", 100000},
    {"", 0, "\\\n", 100000},                       /* a million spliced lines */
    {"\"", 1, "a", 300000},                       /* one huge unterminated string */
    {"/*", 1, "*", 100000},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    s = repeat(cases[i].a, cases[i].at, cases[i].b, cases[i].bt, &n);
    if (run("path.c", s, n) < 0) {
      printf("pathological case %zu did not finish\n", i);
      bad = 1;
    }
    free(s);
  }
  /* nested macro calls in arguments: f(f(f(...))) closed properly */
  s = repeat("#define f(x) x\n", 1, "f(", 5000, &n);
  char *t = realloc(s, n + 5001);
  if (!t) exit(2);
  memset(t + n, ')', 5000);
  t[n + 5000] = 0;
  if (run("nest.c", t, n + 5000) < 0) bad = 1;
  free(t);
  /* exponential object-like macro: 2^17 tokens */
  char big[4096];
  size_t k = (size_t)snprintf(big, sizeof big, "#define A0 x\n");
  for (int i = 1; i <= 17; i++)
    k += (size_t)snprintf(big + k, sizeof big - k, "#define A%d A%d A%d\n", i, i - 1, i - 1);
  k += (size_t)snprintf(big + k, sizeof big - k, "A17\n");
  long toks = run("exp.c", big, k);
  if (toks != 1L << 17) {
    printf("exponential macro: %ld tokens, expected %ld\n", toks, 1L << 17);
    bad = 1;
  }
  return bad;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: cpp_fuzz GOLDEN_DIR [iterations]\n");
    return 2;
  }
  alarm(120); /* a hang is a failure, not a stuck ctest */
  devnull = fopen("/dev/null", "w");
  if (!devnull) return 2;
  static char inc[4096];
  snprintf(inc, sizeof inc, "%s/inc/b", argv[1]);
  inc_dir = inc;
  long iters = argc > 2 ? atol(argv[2]) : 2000;
  const char *corpus_files[] = {"/usr/include/stdio.h", "/usr/include/stdlib.h",
                                "/usr/include/x86_64-linux-gnu/sys/cdefs.h",
                                "c11_examples.c", "gnu_variadic.c", "if_arith.c", "paste.c",
                                "stringify.c", "va_opt.c", "lexing.c", "errors.c"};
  size_t ncorpus = sizeof corpus_files / sizeof *corpus_files;
  char *corpus[16];
  size_t corpus_len[16], have = 0;
  for (size_t i = 0; i < ncorpus; i++) {
    char path[4096];
    if (corpus_files[i][0] == '/') snprintf(path, sizeof path, "%s", corpus_files[i]);
    else snprintf(path, sizeof path, "%s/%s", argv[1], corpus_files[i]);
    size_t n;
    char *b = slurp(path, &n);
    if (b) corpus[have] = b, corpus_len[have++] = n;
  }
  if (have < 4) {
    fprintf(stderr, "cpp_fuzz: corpus not found under %s\n", argv[1]);
    return 2;
  }
  int bad = pathological();
  for (long it = 0; it < iters; it++) {
    size_t n;
    char *buf;
    if (it % 3 == 0) {
      n = below(2000);
      buf = malloc(n + 1);
      if (!buf) return 2;
      for (size_t i = 0; i < n; i++) {
        /* mostly the characters that steer the preprocessor */
        static const char alpha[] = "#()\\\n\"',/*<>:%.x_0123 \tdefinclu";
        buf[i] = below(4) ? alpha[below(sizeof alpha - 1)] : (char)below(256);
      }
    } else {
      size_t c = below(have);
      buf = mutate(corpus[c], corpus_len[c], &n);
    }
    if (run("fuzz.c", buf, n) < 0) {
      printf("iteration %ld did not finish\n", it);
      bad = 1;
    }
    free(buf);
  }
  for (size_t i = 0; i < have; i++) free(corpus[i]);
  fclose(devnull);
  printf("cpp_fuzz: %ld iterations%s\n", iters, bad ? ", FAILED" : ", all finished");
  return bad;
}
