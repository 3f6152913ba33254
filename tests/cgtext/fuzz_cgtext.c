/* tests/cgtext/fuzz_cgtext.c — a fixed-seed fuzz test of the CG parser,
 * verifier and printer: random bytes and mutated valid programs (bit flips,
 * truncations, splices, line and token edits) of a corpus of .cg files and
 * of random functions from tests/lib's generator. Whatever parses must verify
 * without crashing and print to text that parses back to the same text. */
#include "cg_gen.h"
#include "diffrun.h"
#include "kit/cg.h"
#include "rng.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct Buf {
  char *p;
  size_t n;
} Buf;

static Buf corpus[512];
static size_t ncorpus;
static Rng rng = {0x2545f4914f6cdd1dull};

static uint64_t rnd(void) { return rng_next(&rng); }
static size_t below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

static void load_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d)) && ncorpus < 512;) {
    size_t l = strlen(e->d_name);
    if (l < 4 || strcmp(e->d_name + l - 3, ".cg")) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    char *buf = malloc(1 << 20);
    size_t n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    corpus[ncorpus++] = (Buf){buf, n};
  }
  closedir(d);
}

static const char *const tokens[] = {
    "%4294967295", "%0",      "%16777216", "b4294967296", "b99",    "$99999999999", "@nosuch", "@\"\\x00\"",
    "{",           "}",       "[",         "]",           "(",      ")",            "...",     "->",
    "99999999999999999999999999", "-9223372036854775809", "0x1ffffffffffffffffffffffffffffffff", "\xff\xfe\xc3",
    "\"",          "x\"0\"",  "!loc",      "!ty 4000000000", "\n",  ";",            "phi i32", "= ",
    "func @z() -> void {\nb0:\n", "global @q size 18446744073709551615 align 0 = x\"00\"", "call {i64, f64} @two(",
    "size 9999999999999", "\\",     "%1 = ",     "b0:",        "i128",   "f80",          "-",       "0x",
};

static Buf mutate(void) {
  Buf src = corpus[below(ncorpus)];
  size_t cap = src.n * 2 + 512;
  char *o = malloc(cap);
  size_t n = 0;
  switch (below(7)) {
  case 0: /* random bytes, half of them printable */
    n = below(300);
    for (size_t i = 0; i < n; i++) o[i] = (char)(below(2) ? 32 + below(95) : below(256));
    break;
  case 1: /* bit flips */
    memcpy(o, src.p, n = src.n);
    for (size_t k = 1 + below(8); k && n; k--) o[below(n)] ^= (char)(1 << below(8));
    break;
  case 2: /* truncation */
    memcpy(o, src.p, n = below(src.n + 1));
    break;
  case 3: { /* splice: a prefix of one program, a suffix of another */
    Buf b = corpus[below(ncorpus)];
    size_t a = below(src.n + 1), s = below(b.n + 1);
    memcpy(o, src.p, a);
    memcpy(o + a, b.p + s, b.n - s > cap - a ? cap - a : b.n - s);
    n = a + (b.n - s > cap - a ? cap - a : b.n - s);
    break;
  }
  case 4: { /* insert a token */
    const char *t = tokens[below(sizeof tokens / sizeof *tokens)];
    size_t at = below(src.n + 1), tl = strlen(t);
    memcpy(o, src.p, at);
    memcpy(o + at, t, tl);
    memcpy(o + at + tl, src.p + at, src.n - at);
    n = src.n + tl;
    break;
  }
  case 5: { /* delete a span */
    size_t at = below(src.n + 1), len = below(src.n - at + 1) % 40;
    memcpy(o, src.p, at);
    memcpy(o + at, src.p + at + len, src.n - at - len);
    n = src.n - len;
    break;
  }
  default: { /* duplicate a span (repeats lines, definitions, values) */
    size_t at = below(src.n + 1), len = below(src.n - at + 1) % 200;
    memcpy(o, src.p, at + len);
    memcpy(o + at + len, src.p + at, src.n - at);
    n = src.n + len;
    break;
  }
  }
  return (Buf){o, n};
}

static char *print_str(const KitCgModule *m, size_t *n) {
  char *s = NULL;
  FILE *out = open_memstream(&s, n);
  kit_cg_print(m, out);
  fclose(out);
  return s;
}

/* n random functions (tests/lib/cg_gen.h) into the corpus; each must verify
 * and its text parse and print back to itself. Returns the failures. */
static int add_generated(int n) {
  host_env_init(); /* the buffer and stubs at fixed addresses: the same text every run */
  int bad = 0;
  for (uint64_t seed = 1; seed <= (uint64_t)n && ncorpus < 512; seed++) {
    GenFunc g = gen_func(seed, false);
    char *text = module_text(g.m);
    size_t n1 = strlen(text), n2;
    KitCgModule *back = kit_cg_parse(text, n1, "generated", stderr);
    char *again = back ? print_str(back, &n2) : NULL;
    if (kit_cg_verify(g.m, stderr) || !again || n1 != n2 || memcmp(text, again, n1)) {
      if (bad++ < 3) fprintf(stderr, "generated function %llu does not verify or round-trip:\n%s", (unsigned long long)seed, text);
    }
    free(again);
    kit_cg_module_free(back);
    kit_cg_module_free(g.m);
    corpus[ncorpus++] = (Buf){text, n1};
  }
  return bad;
}

/* corrupts fields of a parsed module the way a buggy pass could: ids, indices,
 * ops, types and counts (counts only shrink: arrays keep their length) */
static void corrupt(KitCgModule *m) {
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    KitCgFunc *f = m->funcs[fi];
    for (uint32_t b = 0; b < f->nblocks; b++)
      for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
        KitCgInst *in = &f->blocks[b].insts[i];
        if (below(4)) continue;
        uint32_t r = (uint32_t)rnd();
        switch (below(10)) {
        case 0: if (in->nargs) in->args[below(in->nargs)] = below(2) ? r : r % (f->nvals + 2); break;
        case 1: if (in->nblks) in->blks[below(in->nblks)] = below(2) ? r : r % (f->nblocks + 2); break;
        case 2: in->aux = below(2) ? r : r % 8; break;
        case 3: in->op = (uint16_t)(r % (KIT_CG_NOPS + 3)); break;
        case 4: in->type = (uint8_t)(r % (KIT_CG_NTYPES + 2)); break;
        case 5: in->nargs = in->nargs ? (uint32_t)below(in->nargs) : 0; break;
        case 6: in->nblks = in->nblks ? (uint32_t)below(in->nblks) : 0; break;
        case 7: in->id = below(2) ? r : r % (f->nvals + 2); break;
        case 8: in->pred = (uint8_t)r; in->cls = (uint8_t)(r >> 8); in->type2 = (uint8_t)(r >> 16) % 12; break;
        default: in->tydesc = r % 5; in->loc.file = r % (m->nstrs + 2); break;
        }
      }
  }
  for (uint32_t s = 0; s < m->nsyms; s++)
    if (!below(4)) m->syms[s].index = (uint32_t)below(m->nsyms + 2);
}

int main(int argc, char **argv) {
  int iters = argc > 2 ? atoi(argv[2]) : 4000;
  if (argc > 3) rng.s = strtoull(argv[3], NULL, 0);
  if (argc > 1) {
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/good", argv[1]);
    load_dir(sub);
    snprintf(sub, sizeof sub, "%s/bad", argv[1]);
    load_dir(sub);
  }
  for (int i = 4; i < argc; i++) load_dir(argv[i]); /* more corpus: other .cg suites */
  int gen_failures = add_generated(64);
  if (!ncorpus) {
    fprintf(stderr, "fuzz_cgtext: no .cg corpus found (usage: fuzz_cgtext DIR [ITERS [SEED [MOREDIRS...]]])\n");
    return 1;
  }
  FILE *sink = fopen("/dev/null", "w");
  int parsed = 0, failures = gen_failures;
  clock_t start = clock();
  for (int it = 0; it < iters; it++) {
    Buf in = mutate();
    KitCgModule *m = kit_cg_parse(in.p, in.n, "fuzz", sink);
    if (m) {
      parsed++;
      kit_cg_verify(m, sink);
      size_t n1, n2;
      char *p1 = print_str(m, &n1);
      KitCgModule *m2 = kit_cg_parse(p1, n1, "printed", stderr);
      char *p2 = m2 ? print_str(m2, &n2) : NULL;
      if (!p2 || n1 != n2 || memcmp(p1, p2, n1)) {
        if (failures++ < 3)
          fprintf(stderr, "iteration %d: printed module does not round-trip\n--- input\n%.*s\n--- print\n%s--- reprint\n%s",
                  it, (int)in.n, in.p, p1, p2 ? p2 : "(parse failed)\n");
      }
      free(p1);
      free(p2);
      kit_cg_module_free(m2);
      /* the verifier and printer read corrupted structures without crashing */
      corrupt(m);
      kit_cg_verify(m, sink);
      kit_cg_print(m, sink);
      kit_cg_module_free(m);
    }
    free(in.p);
  }
  fclose(sink);
  printf("fuzz_cgtext: %d inputs, %d parsed, %d round-trip failures, %.1f s\n", iters, parsed, failures,
         (double)(clock() - start) / CLOCKS_PER_SEC);
  for (size_t i = 0; i < ncorpus; i++) free(corpus[i].p);
  return failures != 0;
}
