/* tests/kitcc/fuzz_frontend.c — a deterministic fuzzer of kitcc's frontend:
 * preprocessor, parser, lowering to CG and the CG verifier, run in-process
 * on random bytes and on mutations of seed C files (fixed seed). Each input
 * runs in a forked child, so a crash (any signal) or a hang is caught and
 * the input saved; diagnostics are fine. Exit status 1 if anything crashed.
 *
 *   fuzz_frontend [-n ITERATIONS] [-s SEED] [-o CRASH_DIR] seed.c...
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cc.h"

typedef struct Buf {
  char *p;
  size_t n, cap;
} Buf;

static uint64_t rng_state;

static uint64_t rnd(void) { /* xorshift64*: the same sequence on every machine */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ull;
}

static size_t below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

static void reserve(Buf *b, size_t n) {
  if (b->n + n + 1 <= b->cap) return;
  b->cap = (b->n + n + 1) * 2;
  b->p = realloc(b->p, b->cap);
  if (!b->p) abort();
}

static void insert(Buf *b, size_t at, const char *s, size_t n) {
  reserve(b, n);
  memmove(b->p + at + n, b->p + at, b->n - at);
  memcpy(b->p + at, s, n);
  b->n += n;
}

/* tokens that steer the parser into its corners more often than random bytes */
static const char *const dict[] = {
    "{", "}", "(", ")", "[", "]", ";", ",", "*", "&", "=", "...", "->", ".", "?", ":", "#", "##", "\"", "'", "\\",
    "\n#define X(a, ...) a __VA_ARGS__ #a\n", "\n#if 1\n", "\n#endif\n", "\n#else\n", "\n#include \"nope.h\"\n",
    "int", "char", "long", "double", "_Bool", "void", "struct S", "union U", "enum E", "typedef", "static",
    "extern", "const", "volatile", "_Atomic", "_Alignas(16)", "_Generic(", "_Static_assert(", "sizeof", "_Alignof",
    "__attribute__((packed))", "__typeof__(", "__builtin_offsetof(", "__builtin_va_arg(", "({", "})", "goto l;",
    "l:", "case 1:", "default:", "switch (", "while (", "for (;;)", "do", "return", "break;", "continue;", "0x",
    "1e+", "0.5f", "'\\x", "L\"", "u8\"", "9223372036854775808", "[*]", "[static 3]", ": 3", "int a[n];",
    "&&l", "asm(\"\")", "__int128", "_Complex", "__label__",
};

static void mutate(Buf *b, Buf *const *seeds, size_t nseeds) {
  switch (below(7)) {
  case 0: /* overwrite bytes */
    for (size_t k = below(8) + 1; k && b->n; k--) b->p[below(b->n)] = (char)rnd();
    break;
  case 1: { /* insert a dictionary token */
    const char *t = dict[below(sizeof dict / sizeof dict[0])];
    insert(b, below(b->n + 1), t, strlen(t));
    break;
  }
  case 2: { /* delete a range */
    size_t at = below(b->n + 1), n = below(b->n - at + 1);
    if (n > 64 && below(2)) n = 64;
    memmove(b->p + at, b->p + at + n, b->n - at - n);
    b->n -= n;
    break;
  }
  case 3: { /* duplicate a range */
    size_t at = below(b->n + 1), n = below(b->n - at + 1);
    if (n > 200) n = 200;
    char *tmp = malloc(n + 1);
    memcpy(tmp, b->p + at, n);
    insert(b, below(b->n + 1), tmp, n);
    free(tmp);
    break;
  }
  case 4: { /* splice in a piece of another seed */
    const Buf *s = seeds[below(nseeds)];
    size_t at = below(s->n + 1), n = below(s->n - at + 1);
    if (n > 400) n = 400;
    insert(b, below(b->n + 1), s->p + at, n);
    break;
  }
  case 5: /* truncate */
    b->n = below(b->n + 1);
    break;
  default: { /* random bytes */
    char tmp[32];
    size_t n = below(sizeof tmp) + 1;
    for (size_t k = 0; k < n; k++) tmp[k] = (char)rnd();
    insert(b, below(b->n + 1), tmp, n);
    break;
  }
  }
}

/* the child: what kitcc does from preprocessing to a verified CG module */
static void compile(const Buf *b) {
  FILE *devnull = fopen("/dev/null", "w");
  CPPOptions po = {0};
  po.std_version = 201710;
  po.gnu = true;
  po.err = devnull;
  CPP *pp = cpp_new(&po);
  if (cpp_open_buffer(pp, "fuzz.c", b->p, b->n) != 0) _exit(0);
  CDiag diag = {.pp = pp, .out = devnull};
  CParseOptions popt = {.std_version = 201710, .gnu = true};
  CUnit *u = c_parse(pp, &diag, &popt);
  if (!cpp_errors(pp) && !diag.errors) {
    CLowerOptions lopt = {.opt_level = 0, .debug_info = true}; /* -g: the debug records verify too */
    KitCgModule *m = c_lower(u, &diag, &lopt);
    if (m && kit_cg_verify(m, NULL)) _exit(3); /* the CG would not verify: an internal error */
  }
  _exit(0);
}

static Buf *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "fuzz_frontend: cannot read %s\n", path);
    exit(2);
  }
  Buf *b = calloc(1, sizeof *b);
  char tmp[4096];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) insert(b, b->n, tmp, n);
  fclose(f);
  return b;
}

int main(int argc, char **argv) {
  long iterations = 3000;
  uint64_t seed = 20261129;
  const char *crash_dir = ".";
  int opt;
  while ((opt = getopt(argc, argv, "n:s:o:")) != -1) {
    if (opt == 'n') iterations = atol(optarg);
    else if (opt == 's') seed = strtoull(optarg, NULL, 0);
    else if (opt == 'o') crash_dir = optarg;
    else return 2;
  }
  size_t nseeds = (size_t)(argc - optind);
  if (!nseeds) {
    fprintf(stderr, "usage: fuzz_frontend [-n N] [-s SEED] [-o DIR] seed.c...\n");
    return 2;
  }
  Buf **seeds = malloc(nseeds * sizeof *seeds);
  for (size_t i = 0; i < nseeds; i++) seeds[i] = read_file(argv[optind + i]);
  rng_state = seed ? seed : 1;
  long crashes = 0, hangs = 0, unverified = 0;
  Buf in = {0};
  for (long it = 0; it < iterations; it++) {
    in.n = 0;
    if (it % 10 == 0) { /* pure random bytes */
      size_t n = below(300);
      reserve(&in, n);
      for (size_t k = 0; k < n; k++) in.p[k] = (char)rnd();
      in.n = n;
    } else {
      const Buf *s = seeds[below(nseeds)];
      insert(&in, 0, s->p, s->n);
      for (size_t k = below(4) + 1; k; k--) mutate(&in, seeds, nseeds);
    }
    in.p[in.n] = 0;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
      perror("fork");
      return 2;
    }
    if (pid == 0) {
      alarm(10);
      compile(&in);
    }
    int st;
    waitpid(pid, &st, 0);
    const char *what = NULL;
    if (WIFSIGNALED(st)) {
      what = WTERMSIG(st) == SIGALRM ? "hang" : "crash";
      if (WTERMSIG(st) == SIGALRM) hangs++;
      else crashes++;
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
      what = "unverified";
      unverified++;
    }
    if (what) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s-%ld.c", crash_dir, what, it);
      FILE *f = fopen(path, "wb");
      if (f) {
        fwrite(in.p, 1, in.n, f);
        fclose(f);
      }
      printf("%s at iteration %ld (signal %d): input saved as %s\n", what, it,
             WIFSIGNALED(st) ? WTERMSIG(st) : 0, path);
    }
  }
  printf("%ld inputs: %ld crashes, %ld hangs, %ld CG verifier failures\n", iterations, crashes, hangs, unverified);
  return crashes || hangs ? 1 : 0;
}
