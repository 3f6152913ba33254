/* sanitizer-rt/coverage/coverage.c — the default SanitizerCoverage callbacks
 * (all weak: a program's own callbacks win, as with clang) and the .sancov
 * writer. trace-pc-guard numbers the guards 1..N at init and records the
 * caller pc of each guard's first hit; at exit, when ASAN_OPTIONS or
 * UBSAN_OPTIONS has coverage=1 or KIT_COVERAGE=1 is set, it writes one
 * MODULE.PID.sancov per module to coverage_dir (default "."): the 64-bit magic
 * 0xC0BFFFFFFFFFFF64, then the module-relative pcs, sorted and unique. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WEAK __attribute__((weak, visibility("default")))
#define SANCOV_MAGIC64 0xC0BFFFFFFFFFFF64ull

static uintptr_t *pcs;   /* pcs[guard - 1]: the caller pc of the guard's first hit */
static uint32_t npcs, cap;
static bool exit_hooked;

/* "coverage=1" / "coverage_dir=D" in one *SAN_OPTIONS string */
static void read_options(const char *s, bool *on, char *dir, size_t n) {
  if (!s) return;
  const char *p = strstr(s, "coverage=");
  while (p && p != s && p[-1] != ':' && p[-1] != ' ' && p[-1] != ',') p = strstr(p + 1, "coverage=");
  if (p) *on = p[9] == '1' || !strncmp(p + 9, "true", 4);
  const char *d = strstr(s, "coverage_dir=");
  if (d) {
    d += 13;
    size_t k = strcspn(d, ": ,");
    if (k >= n) k = n - 1;
    memcpy(dir, d, k);
    dir[k] = 0;
  }
}

static int cmp_pc(const void *a, const void *b) {
  uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
  return x < y ? -1 : x > y;
}

/* write the pcs of one module (those in [from, to) of the sorted array share it) */
static void write_module(const char *dir, const char *module, uintptr_t base, const uintptr_t *v, size_t n) {
  const char *slash = strrchr(module, '/');
  char path[8192];
  if (snprintf(path, sizeof path, "%.2047s/%.4095s.%d.sancov", dir, slash ? slash + 1 : module, (int)getpid()) < 0)
    return;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    fprintf(stderr, "SanitizerCoverage: failed to open %s for writing\n", path);
    return;
  }
  uint64_t magic = SANCOV_MAGIC64;
  size_t written = 0;
  if (write(fd, &magic, 8) == 8) {
    for (size_t i = 0; i < n; i++) {
      uint64_t off = v[i] - base;
      if (write(fd, &off, 8) == 8) written++;
    }
  }
  close(fd);
  fprintf(stderr, "SanitizerCoverage: %s: %zu PCs written\n", path, written);
}

static void dump(void) {
  bool on = false;
  char dir[2048] = ".";
  const char *kit = getenv("KIT_COVERAGE");
  if (kit && *kit == '1') on = true;
  read_options(getenv("ASAN_OPTIONS"), &on, dir, sizeof dir);
  read_options(getenv("UBSAN_OPTIONS"), &on, dir, sizeof dir);
  const char *kd = getenv("KIT_COVERAGE_DIR");
  if (kd && *kd) snprintf(dir, sizeof dir, "%s", kd);
  if (!on || !npcs) return;
  uintptr_t *v = malloc(npcs * sizeof *v);
  size_t n = 0;
  for (uint32_t i = 0; i < npcs; i++)
    if (pcs[i]) v[n++] = pcs[i];
  qsort(v, n, sizeof *v, cmp_pc);
  size_t u = 0;
  for (size_t i = 0; i < n; i++)
    if (!u || v[u - 1] != v[i]) v[u++] = v[i];
  /* one file per module: runs of pcs that dladdr puts in the same object */
  for (size_t i = 0; i < u;) {
    Dl_info di;
    if (!dladdr((void *)v[i], &di) || !di.dli_fname) {
      i++;
      continue;
    }
    size_t j = i + 1;
    Dl_info dj;
    while (j < u && dladdr((void *)v[j], &dj) && dj.dli_fbase == di.dli_fbase) j++;
    char exe[4096];
    const char *name = di.dli_fname;
    if (!name[0] || !strchr(name, '/')) { /* the main program */
      ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
      exe[k > 0 ? k : 0] = 0;
      name = exe;
    }
    write_module(dir, name, (uintptr_t)di.dli_fbase, v + i, j - i);
    i = j;
  }
  free(v);
}

WEAK void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
  if (start == stop || *start) return;
  uint32_t n = (uint32_t)(stop - start);
  if (npcs + n > cap) {
    uint32_t ncap = (npcs + n) * 2;
    uintptr_t *p = realloc(pcs, ncap * sizeof *p);
    if (!p) return;
    memset(p + cap, 0, (ncap - cap) * sizeof *p);
    pcs = p;
    cap = ncap;
  }
  for (uint32_t i = 0; i < n; i++) start[i] = ++npcs;
  if (!exit_hooked) {
    exit_hooked = true;
    atexit(dump);
  }
}

WEAK void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
  uint32_t idx = *guard;
  if (!idx || pcs[idx - 1]) return;
  pcs[idx - 1] = (uintptr_t)__builtin_return_address(0);
}

/* the other hooks do nothing by default: a program (or a fuzzer) defines them */
WEAK void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) { (void)start, (void)stop; }
WEAK void __sanitizer_cov_bool_flag_init(bool *start, bool *stop) { (void)start, (void)stop; }
WEAK void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end) { (void)beg, (void)end; }
WEAK void __sanitizer_cov_trace_pc(void) {}
WEAK void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_cmp2(uint16_t a, uint16_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_const_cmp2(uint16_t a, uint16_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_switch(uint64_t v, uint64_t *cases) { (void)v, (void)cases; }
WEAK void __sanitizer_cov_trace_div4(uint32_t d) { (void)d; }
WEAK void __sanitizer_cov_trace_div8(uint64_t d) { (void)d; }
WEAK void __sanitizer_cov_trace_gep(uintptr_t idx) { (void)idx; }
