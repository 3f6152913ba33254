/* tests/emu/callgrind/test_profile.c — the callgrind profile core on a
 * scripted run whose costs are known (main calls f three times, f calls g
 * twice, main calls g once and r, which recurses three deep), and the cache
 * model on access patterns whose misses are known in closed form.
 *   test_profile write DIR   writes DIR/callgrind.out, DIR/folded, DIR/flame.svg
 *   test_profile cache       checks the cache model; exit status 1 on a failure */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

static int failures;

static void expect(const char *what, uint64_t got, uint64_t want) {
  if (got == want) return;
  printf("FAIL %s: %" PRIu64 " (expected %" PRIu64 ")\n", what, got, want);
  failures++;
}

static void cost(KitProf *p, KitProfNode n, const char *file, uint32_t line, uint64_t ir) {
  kit_prof_cost(p, n, file, line, &ir);
}

static int write_profile(const char *dir) {
  const char *events[] = {"Ir"};
  KitProf *p = kit_prof_new(events, 1);
  KitProfFn fmain = kit_prof_fn(p, "/tmp/prog", "prog.c", "main"), ff = kit_prof_fn(p, "/tmp/prog", "prog.c", "f"),
            fg = kit_prof_fn(p, "/tmp/prog", "prog.c", "g"), fr = kit_prof_fn(p, "/tmp/prog", "prog.c", "r"),
            fput = kit_prof_fn(p, "/lib/libc.so.6", "string.h", "inlined<&>");
  KitProfNode m = kit_prof_enter(p, 0, fmain, 0);
  cost(p, m, NULL, 4, 16);
  for (int i = 0; i < 3; i++) {
    KitProfNode f = kit_prof_enter(p, m, ff, 4);
    cost(p, f, NULL, 2, 8);
    for (int k = 0; k < 2; k++) cost(p, kit_prof_enter(p, f, fg, 2), NULL, 1, 9);
    cost(p, f, "other.h", 7, 1); /* code inlined from a header */
  }
  cost(p, kit_prof_enter(p, m, fg, 5), NULL, 1, 9);
  KitProfNode r = m;
  for (int d = 0; d < 4; d++) {
    r = kit_prof_enter(p, r, fr, d ? 3 : 6);
    cost(p, r, NULL, 3, 10);
  }
  cost(p, kit_prof_enter(p, m, fput, 6), NULL, 12, 5);
  /* totals: main 16; f 3*(8+1); g 3*2*9 + 9; r 40; libc 5 */
  expect("total", kit_prof_total(p, 0), 16 + 27 + 63 + 40 + 5);
  char path[4096];
  KitProfHeader h = {.creator = "kit-emu test", .cmd = "/tmp/prog a b", .pid = 77};
  snprintf(path, sizeof path, "%s/callgrind.out", dir);
  FILE *out = fopen(path, "w");
  if (!out || kit_prof_write_callgrind(p, out, &h) || fclose(out)) return 1;
  snprintf(path, sizeof path, "%s/folded", dir);
  out = fopen(path, "w");
  if (!out || kit_prof_write_folded(p, out, 0) || fclose(out)) return 1;
  snprintf(path, sizeof path, "%s/flame.svg", dir);
  out = fopen(path, "w");
  if (!out || kit_prof_write_flamegraph(p, out, 0, "prog <test> & flame") || fclose(out)) return 1;
  kit_prof_free(p);
  return failures != 0;
}

static KitCacheSim sim(const char *i1, const char *d1, const char *ll) {
  KitCacheGeom a, b, c;
  char err[256];
  kit_cache_parse(i1, &a), kit_cache_parse(d1, &b), kit_cache_parse(ll, &c);
  return (KitCacheSim){kit_cache_new(a, err, sizeof err), kit_cache_new(b, err, sizeof err), kit_cache_new(c, err, sizeof err)};
}

static void done(KitCacheSim *s) { kit_cache_free(s->i1), kit_cache_free(s->d1), kit_cache_free(s->ll); }

static int cache_checks(void) {
  /* a stride of one line over 1 MiB, twice: larger than LL, every read misses both */
  KitCacheSim s = sim("32768,8,64", "32768,8,64", "262144,8,64");
  KitCacheCost c = {0};
  for (int pass = 0; pass < 2; pass++)
    for (uint64_t a = 0; a < (1u << 20); a += 64) kit_cache_read(&s, 0x100000 + a, 1, &c);
  expect("stride over LL: D1mr", c.d1mr, 2 * (1u << 20) / 64);
  expect("stride over LL: DLmr", c.dlmr, 2 * (1u << 20) / 64);
  done(&s);
  /* 16 KiB read 8 bytes at a time, 10 times: inside D1, only the first pass misses */
  s = sim("32768,8,64", "32768,8,64", "262144,8,64");
  c = (KitCacheCost){0};
  for (int pass = 0; pass < 10; pass++)
    for (uint64_t a = 0; a < 16384; a += 8) kit_cache_read(&s, 0x200000 + a, 8, &c);
  expect("loop in D1: Dr", c.dr, 10 * 16384 / 8);
  expect("loop in D1: D1mr", c.d1mr, 16384 / 64);
  expect("loop in D1: DLmr", c.dlmr, 16384 / 64);
  done(&s);
  /* LRU, not FIFO: A B A C A in one 2-way set misses 3 times */
  s = sim("1024,2,64", "1024,2,64", "65536,16,64");
  c = (KitCacheCost){0};
  uint64_t set_stride = 1024 / 2; /* sets * line */
  uint64_t A = 0, B = set_stride, C = 2 * set_stride;
  uint64_t seq[] = {A, B, A, C, A};
  for (int i = 0; i < 5; i++) kit_cache_read(&s, seq[i], 4, &c);
  expect("LRU: D1mr", c.d1mr, 3);
  /* write-allocate: a written line is then read without a miss */
  kit_cache_write(&s, 0x9000, 8, &c);
  kit_cache_read(&s, 0x9000, 8, &c);
  expect("write-allocate: D1mw", c.d1mw, 1);
  expect("write-allocate: the read hits", c.d1mr, 3);
  /* a read straddling two cold lines: one miss per level */
  kit_cache_read(&s, 0x20000 + 60, 8, &c);
  expect("straddling read: D1mr", c.d1mr, 4);
  expect("straddling read: DLmr", c.dlmr, 4);
  /* instruction fetches go through I1 */
  kit_cache_fetch(&s, 0x40000, 4, &c);
  kit_cache_fetch(&s, 0x40004, 4, &c);
  expect("I1mr", c.i1mr, 1);
  expect("Ir", c.ir, 2);
  done(&s);
  /* geometry cachegrind refuses */
  char err[256];
  KitCacheGeom bad = {3000, 3, 64};
  if (kit_cache_new(bad, err, sizeof err) || !strstr(err, "power of two")) {
    printf("FAIL bad geometry accepted\n");
    failures++;
  }
  if (kit_cache_parse("32768,8", &bad) == 0 || kit_cache_parse("1,2,3x", &bad) == 0) {
    printf("FAIL malformed --D1 accepted\n");
    failures++;
  }
  printf("cache model: %d failures\n", failures);
  return failures != 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "write")) return write_profile(argv[2]);
  if (argc == 2 && !strcmp(argv[1], "cache")) return cache_checks();
  fprintf(stderr, "usage: test_profile write DIR | cache\n");
  return 2;
}
