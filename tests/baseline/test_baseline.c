/* tests/baseline/test_baseline.c — differential tests of the baseline x86-64
 * compiler (kit_baseline_compile, cg/baseline) against the CG interpreter
 * (kit_interp_call, the reference), on tests/lib's runner. In order:
 *
 *  1. sanity: the interpreter agrees with plain C about the host helpers the
 *     generated code calls (direct and through a pointer), so a later
 *     mismatch is the compiler's;
 *  2. the cases: the .cg files of tests/baseline/cases, CG text whose "; args" lines say
 *     what to run and, after "->", the result expected (directed corner
 *     cases and regressions: see cases/README.md);
 *  3. the op sweep (sweep.c);
 *  4. seeded random CG functions (tests/lib/cg_gen.h). Each compiled function
 *     runs on the same scratch buffer as the interpreter (same addresses, so
 *     pointer values compare); the result (masked to its width), the whole
 *     buffer, the log of host calls (arguments, order, stack alignment) and
 *     the callee-saved registers must match. Each function runs a second time
 *     with garbage in bits 32..63 of its narrow arguments (SysV leaves them
 *     undefined); such failures are reported as "ABI".
 *
 * A random mismatch prints the seed, the module, both outcomes and a
 * reproducer reduced by tests/lib/cg_reduce, in CG text that reproduces in
 * another process (the buffer and the helpers' call stubs live at fixed
 * addresses). Fails when anything mismatches or more than 5% of the random
 * functions are declined; exits 77 while kit_baseline_new returns NULL.
 *
 * Environment: KIT_BASELINE_SEED=N reruns one random function verbosely (and
 * writes its code to ./baseline_code.bin for objdump -D -b binary
 * -mi386:x86-64); KIT_BASELINE_COUNT=N sets how many random functions run
 * (3600), from seed KIT_BASELINE_FIRST (1);
 * KIT_BASELINE_TEXT=f.cg KIT_BASELINE_ARGS=buf,1,0x80 runs @f of a CG text file;
 * KIT_BASELINE_NO_ABI=1 skips the dirty-argument runs and the abi_*.cg cases;
 * KIT_BASELINE_AVOID_SELECT=1 spells the generator's selects as and/xor (to
 * look past a select bug); KIT_BASELINE_NOHB=1 keeps reductions from drifting
 * into code that uses a byte register without REX (a triage aid);
 * KIT_BASELINE_SELFTEST=1 checks this harness with the interpreter's
 * trampolines standing in for the compiler (=2 plants a bug: ashr runs as lshr). */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cg_gen.h"
#include "cg_reduce.h"
#include "rng.h"
#include "suite.h"

static Outcome out_i, out_x; /* the last run's: interpreter, compiled */
static int failures, abi_failures, reported, hb_failures;
static unsigned long n_compiled, n_declined, n_run;
static bool last_declined;
static const char *last_why;
static bool no_abi; /* KIT_BASELINE_NO_ABI=1: no dirty-argument runs, no abi_*.cg cases */
static bool last_hb;

typedef struct WhyCount {
  const char *why;
  unsigned long n;
} WhyCount;
static WhyCount whys[32];
static int nwhys;
static void count_why(const char *why) {
  if (!why) why = "(no reason given)";
  for (int i = 0; i < nwhys; i++)
    if (!strcmp(whys[i].why, why)) {
      whys[i].n++;
      return;
    }
  if (nwhys < 32) whys[nwhys++] = (WhyCount){why, 1};
}

/* ---- checking one function ------------------------------------------------------ */

static void print_outcome(const char *who, const Outcome *o, KitCgType rt) {
  fprintf(stderr, "  %s: status %d, result 0x%llx (%s; raw 0x%llx), %d host calls\n", who, o->status,
          (unsigned long long)o->ret, kit_cg_type_name(rt), (unsigned long long)o->rawret, o->nlog);
}

typedef struct ReduceCtx {
  const uint64_t *args;
} ReduceCtx;
static bool still_differs(void *ctx, const char *text) {
  return diff_text(compile_for_diff, NULL, text, ((ReduceCtx *)ctx)->args, &out_i, &out_x) == 1;
}

static void report(const char *what, uint64_t seed, KitCgModule *m, KitCgFunc *f, const uint64_t *args,
                   const char *why) {
  fprintf(stderr, "\n==== baseline MISMATCH (%s): seed %llu (rerun: KIT_BASELINE_SEED=%llu): %s\n", what,
          (unsigned long long)seed, (unsigned long long)seed, why);
  fprintf(stderr, "  args:");
  for (uint32_t i = 0; i < f->nparams; i++)
    fprintf(stderr, " %s 0x%llx", kit_cg_type_name((KitCgType)f->params[i].type), (unsigned long long)args[i]);
  fprintf(stderr, "%s\n", f->nparams && f->params[0].type == KIT_CG_PTR ? "  (first = the scratch buffer)" : "");
  print_outcome("interp  ", &out_i, (KitCgType)f->ret[0]);
  print_outcome("compiled", &out_x, (KitCgType)f->ret[0]);
  if (seed && reported++ >= 8) {
    fprintf(stderr, "  (module and reduction skipped after 8 reports)\n");
    return;
  }
  char *text = module_text(m);
  fprintf(stderr, "---- function:\n%s", text);
  if (seed) {
    uint64_t a[6];
    memcpy(a, args, sizeof a);
    ReduceCtx rc = {a};
    if (still_differs(&rc, text)) {
      char *red = cg_reduce(text, still_differs, &rc);
      diff_text(compile_for_diff, NULL, red, a, &out_i, &out_x);
      char w2[256];
      const char *d = outcome_differs(&out_i, &out_x, w2, sizeof w2);
      fprintf(stderr, "---- reduced (%s):\n%s", d ? d : "?", red);
      print_outcome("interp  ", &out_i, (KitCgType)f->ret[0]);
      print_outcome("compiled", &out_x, (KitCgType)f->ret[0]);
      free(red);
    } else {
      fprintf(stderr, "---- (the printed text does not reproduce it; no reduction)\n");
    }
  }
  free(text);
  fprintf(stderr, "====\n");
}

static bool has_tail_call(const KitCgFunc *f) {
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      if ((in->op == KIT_CG_OP_CALL || in->op == KIT_CG_OP_CALLI) && (in->flags & KIT_CG_F_TAIL)) return true;
    }
  return false;
}

/* the code, for objdump -D -b binary -mi386:x86-64 */
static void write_code(const void *code, size_t n) {
  FILE *fp = fopen("baseline_code.bin", "wb");
  if (!fp) return;
  fwrite(code, 1, n, fp);
  fclose(fp);
  fprintf(stderr, "code: %zu bytes written to baseline_code.bin (objdump -D -b binary -mi386:x86-64 baseline_code.bin)\n",
          n);
}

/* what the compiled run got wrong against the interpreter's (into w), NULL when nothing */
static const char *compiled_differs(const KitCgFunc *f, char *w, size_t n) {
  const char *d = outcome_differs(&out_i, &out_x, w, n);
  /* the contract: narrow results zero-extended (a tail call returns what its
   * callee leaves in rax) */
  uint64_t msk = type_mask((KitCgType)f->ret[0]);
  if (!d && !out_x.status && (out_x.rawret & ~msk) && !has_tail_call(f)) {
    snprintf(w, n, "narrow result not zero-extended: raw 0x%llx", (unsigned long long)out_x.rawret);
    d = w;
  }
  return d;
}

/* runs f (already verified) both ways on the given arguments; dirty = the
 * arguments with garbage in the undefined upper bits. Returns 1 on mismatch. */
static int check_func(uint64_t seed, KitCgModule *m, KitCgFunc *f, const uint64_t *args, const uint64_t *dirty,
                      bool verbose) {
  KitInterp *ip = kit_interp_new(m, host_resolve, NULL, stderr);
  if (!ip) {
    fprintf(stderr, "seed %llu: kit_interp_new failed\n", (unsigned long long)seed);
    failures++;
    return 1;
  }
  const char *why = NULL;
  size_t size0 = code_size();
  void *code = compile_fn(m, f, &why);
  last_declined = !code;
  last_why = why;
  if (!code) {
    n_declined++;
    count_why(why);
    if (verbose) fprintf(stderr, "seed %llu: declined: %s\n", (unsigned long long)seed, why ? why : "?");
    kit_interp_free(ip);
    return 0;
  }
  n_compiled++;
  int bad = 0;
  last_hb = baseline && code_has_highbyte(code, code_size() - size0);
  if (verbose && baseline) write_code(code, code_size() - size0);
  if (run_interp(ip, f, args, &out_i)) {
    fprintf(stderr, "seed %llu: the interpreter trapped (generator bug)\n", (unsigned long long)seed);
    kit_cg_print(m, stderr);
    failures++;
    kit_interp_free(ip);
    return 1;
  }
  run_compiled(code, f, args, &out_x);
  n_run++;
  char w[256];
  const char *d = compiled_differs(f, w, sizeof w);
  if (verbose) {
    print_outcome("interp  ", &out_i, (KitCgType)f->ret[0]);
    print_outcome("compiled", &out_x, (KitCgType)f->ret[0]);
  }
  if (d) {
    failures++;
    bad = 1;
    if (last_hb) hb_failures++;
    report("result/memory/calls", seed, m, f, args, d);
  } else if (dirty && !no_abi && memcmp(args, dirty, f->nparams * sizeof *args)) {
    run_compiled(code, f, dirty, &out_x);
    d = outcome_differs(&out_i, &out_x, w, sizeof w);
    if (d) {
      abi_failures++;
      bad = 1;
      report("ABI: garbage in bits 32..63 of narrow arguments", seed, m, f, dirty, d);
    }
  }
  kit_interp_free(ip);
  return bad;
}

/* ---- sanity: the interpreter vs plain C on the helpers -------------------------------- */

/* f(a1..a6) = helper h(...), called directly or through its stub */
static NewFunc helper_caller(int h, bool indirect) {
  KitCgType ps[6];
  for (int i = 0; i < 6; i++) ps[i] = KIT_CG_I64;
  NewFunc d = new_func("sanity", KIT_CG_I64, ps, 6);
  KitCgVal a[6];
  for (int i = 0; i < helpers[h].nargs; i++) a[i] = (KitCgVal)(i + 1);
  if (helpers[h].bufarg) a[0] = kit_cg_conv(&d.b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, 1);
  KitCgVal res;
  if (indirect) {
    KitCgVal fp = kit_cg_conv(&d.b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, kit_cg_iconst(&d.b, KIT_CG_I64, helpers[h].stub));
    res = kit_cg_calli(&d.b, fp, helpers[h].ret, a, (uint32_t)helpers[h].nargs);
  } else {
    res = kit_cg_call(&d.b, helper_sym(d.m, h), helpers[h].ret, a, (uint32_t)helpers[h].nargs);
  }
  if (helpers[h].ret == KIT_CG_VOID) res = kit_cg_iconst(&d.b, KIT_CG_I64, 0);
  else if (helpers[h].ret != KIT_CG_I64) res = kit_cg_conv(&d.b, KIT_CG_OP_ZEXT, KIT_CG_I64, res);
  kit_cg_ret(&d.b, res);
  return d;
}

static int sanity(void) {
  Rng r = {99};
  int bad_any = 0;
  for (int h = 0; h < NHELPERS; h++)
    for (int indirect = 0; indirect < 2; indirect++) {
      NewFunc d = helper_caller(h, indirect);
      if (kit_cg_verify(d.m, stderr)) return 1;
      KitInterp *ip = kit_interp_new(d.m, host_resolve, NULL, stderr);
      int bad = 0;
      for (int rep = 0; rep < 20 && !bad; rep++) {
        uint64_t args[6];
        args[0] = (uint64_t)(uintptr_t)(buf + rng_below(&r, BUFSZ - 64));
        for (int i = 1; i < 6; i++) args[i] = rng_next(&r);
        run_interp(ip, d.f, args, &out_i);
        host_env_reset(); /* plain C */
        uint64_t want = helper_call_c(h, args);
        out_x.status = 0;
        out_x.clobbered = NULL;
        out_x.ret = out_x.rawret = want;
        outcome_save(&out_x);
        char w[256];
        const char *diff = outcome_differs(&out_i, &out_x, w, sizeof w);
        if (out_i.status || diff) {
          fprintf(stderr, "sanity: helper %s (%s): interp disagrees with C: %s\n", helpers[h].name,
                  indirect ? "calli" : "call", diff ? diff : "trap");
          bad = 1;
        } else if (out_i.nlog != 1 || out_i.log[0].misaligned) {
          fprintf(stderr, "sanity: helper %s: bad log\n", helpers[h].name);
          bad = 1;
        }
      }
      kit_interp_free(ip);
      kit_cg_module_free(d.m);
      bad_any |= bad;
    }
  return bad_any;
}

/* ---- the cases: .cg files with "; args" lines ------------------------------------------
 *   ; args: A B C            run @f on A B C ("buf" = the scratch buffer)
 *   ; args: A B C -> W       ... and its result (masked to its type) must be W
 *   ; args @g: A B -> W      the same for @g of the file
 * Both executors must agree; a function the compiler declines is still run
 * by the interpreter against W. */

static int case_fail, case_runs, case_expects;
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct CaseRun {
  char func[64];
  uint64_t args[6];
  bool has_want;
  uint64_t want;
} CaseRun;

/* one "; args" line (l points after "; args"); false when malformed */
static bool parse_case_line(const char *l, CaseRun *c) {
  memset(c, 0, sizeof *c);
  strcpy(c->func, "f");
  if (*l == ' ' && l[1] == '@') {
    size_t n = strcspn(l + 2, ":\n");
    if (!n || n >= sizeof c->func || l[2 + n] != ':') return false;
    memcpy(c->func, l + 2, n);
    c->func[n] = 0;
    l += 2 + n;
  }
  if (*l++ != ':') return false;
  for (int i = 0; i < 6; i++) {
    while (*l == ' ') l++;
    if (*l == '\n' || !*l || !strncmp(l, "->", 2)) break;
    char *end;
    if (!strncmp(l, "buf", 3)) c->args[i] = (uint64_t)(uintptr_t)buf, end = (char *)l + 3;
    else c->args[i] = strtoull(l, &end, 0);
    if (end == l) return false;
    l = end;
  }
  while (*l == ' ') l++;
  if (!strncmp(l, "->", 2)) {
    char *end;
    c->want = strtoull(l + 2, &end, 0);
    c->has_want = end != l + 2;
    return c->has_want;
  }
  return *l == '\n' || !*l;
}

/* the interpreter's result of the case (the compiler declined it) */
static uint64_t interp_result(KitCgModule *m, KitCgFunc *f, const uint64_t *args) {
  KitInterp *ip = kit_interp_new(m, host_resolve, NULL, stderr);
  if (!ip || run_interp(ip, f, args, &out_i)) out_i.ret = ~0ull;
  if (ip) kit_interp_free(ip);
  return out_i.ret;
}

static int run_case(const char *name, KitCgModule *m, const CaseRun *c) {
  KitCgSym s = kit_cg_sym_find(m, c->func);
  if (s == UINT32_MAX || m->syms[s].kind != KIT_CG_SYM_FUNC) {
    fprintf(stderr, "case %s: no @%s\n", name, c->func);
    return 1;
  }
  KitCgFunc *f = kit_cg_func_of(m, s);
  region_randomize(1);
  case_runs++;
  int before = failures;
  check_func(0, m, f, c->args, NULL, false);
  if (failures != before) {
    fprintf(stderr, "  (case %s, @%s)\n", name, c->func);
    failures = before; /* counted as a case failure */
    return 1;
  }
  if (!c->has_want) return 0;
  case_expects++;
  uint64_t got = last_declined ? interp_result(m, f, c->args) : out_i.ret;
  if (got != c->want) {
    fprintf(stderr, "case %s: @%s gives 0x%llx, expected 0x%llx%s\n", name, c->func, (unsigned long long)got,
            (unsigned long long)c->want, last_declined ? " (interpreter; the compiler declined it)" : "");
    return 1;
  }
  return 0;
}

static int run_case_text(const char *name, const char *text, size_t n) {
  KitCgModule *m = kit_cg_parse(text, n, name, stderr);
  if (!m || kit_cg_verify(m, stderr)) {
    fprintf(stderr, "case %s: does not parse or verify\n", name);
    if (m) kit_cg_module_free(m);
    return 1;
  }
  int bad = 0, runs = 0;
  for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
    if (strncmp(l, "; args", 6)) continue;
    CaseRun c;
    if (!parse_case_line(l + 6, &c)) {
      fprintf(stderr, "case %s: cannot read \"%.*s\"\n", name, (int)strcspn(l, "\n"), l);
      bad++;
      continue;
    }
    runs++;
    bad += run_case(name, m, &c);
  }
  if (!runs) {
    fprintf(stderr, "case %s: no \"; args\" line\n", name);
    bad++;
  }
  kit_cg_module_free(m);
  return bad;
}

static void run_cases(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    printf("cases: cannot open %s\n", dir);
    case_fail++;
    return;
  }
  char *names[512];
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) && n < 512;) {
    size_t k = strlen(e->d_name);
    if (k > 3 && !strcmp(e->d_name + k - 3, ".cg") && !(no_abi && !strncmp(e->d_name, "abi_", 4)))
      names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    FILE *fp = fopen(path, "r");
    if (fp) {
      static char text[1 << 16];
      size_t k = fread(text, 1, sizeof text - 1, fp);
      text[k] = 0;
      fclose(fp);
      if (run_case_text(names[i], text, k)) {
        case_fail++;
        printf("case %s: FAIL\n", names[i]);
      }
    }
    free(names[i]);
  }
  printf("cases: %d files, %d runs (%d with an expected result), %d failing\n", n, case_runs, case_expects,
         case_fail);
}

/* ---- one CG text file (KIT_BASELINE_TEXT) ------------------------------------------- */

static int run_text_file(const char *textfile) {
  FILE *fp = fopen(textfile, "r");
  if (!fp) return 2;
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, fp);
  fclose(fp);
  text[n] = 0;
  KitCgModule *m = kit_cg_parse(text, n, textfile, stderr);
  if (!m || kit_cg_verify(m, stderr)) return 2;
  KitCgFunc *f = kit_cg_func_of(m, kit_cg_sym_find(m, "f"));
  uint64_t args[6] = {0};
  const char *as = getenv("KIT_BASELINE_ARGS");
  for (uint32_t i = 0; i < f->nparams && i < 6; i++) {
    if (f->params[i].type == KIT_CG_PTR) args[i] = (uint64_t)(uintptr_t)buf;
    if (as && *as) {
      if (strncmp(as, "buf", 3)) args[i] = strtoull(as, NULL, 0);
      as = strchr(as, ',');
      as = as ? as + 1 : "";
    }
  }
  int r = check_func(1, m, f, args, NULL, true);
  printf("%s\n", last_declined ? "declined" : r ? "MISMATCH" : "agree");
  return r;
}

/* ---- random functions ------------------------------------------------------------------ */

static const char *const shapes[] = {"pressure", "straight", "calls", "cfg"};
typedef struct RandomStats {
  unsigned long per_shape[4][2]; /* compiled, declined */
  unsigned long any_order, any_order_declined;
} RandomStats;

static void random_functions(unsigned long first, unsigned long count, bool verbose, bool avoid_select,
                             RandomStats *rs) {
  for (unsigned long s = first; s < first + count; s++) {
    if (s % 500 == 0) { /* code memory lives with the compiler: renew it now and then */
      if (baseline) kit_baseline_free(baseline);
      baseline = kit_baseline_new(host_resolve, NULL);
    }
    GenFunc gf = gen_func(s, avoid_select);
    if (kit_cg_verify(gf.m, stderr)) {
      fprintf(stderr, "seed %lu: the generated module does not verify (generator bug)\n", s);
      kit_cg_print(gf.m, stderr);
      failures++;
      kit_cg_module_free(gf.m);
      continue;
    }
    region_randomize(s);
    if (verbose) kit_cg_print(gf.m, stderr);
    unsigned long dec = n_declined;
    check_func(s, gf.m, gf.f, gf.args, gf.dirty, verbose);
    if (gf.any_order) rs->any_order++, rs->any_order_declined += n_declined != dec;
    for (int k = 0; k < 4; k++)
      if (!strcmp(shapes[k], gf.shape)) rs->per_shape[k][n_declined != dec]++;
    kit_cg_module_free(gf.m);
    if (failures > 2000) break;
  }
}

/* ---- main ------------------------------------------------------------------------------ */

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  bool fixed = host_env_init();
  const char *st = getenv("KIT_BASELINE_SELFTEST");
  selftest = st ? atoi(st) : 0;
  nohb = getenv("KIT_BASELINE_NOHB") != NULL;
  bool avoid_select = getenv("KIT_BASELINE_AVOID_SELECT") != NULL;
  no_abi = getenv("KIT_BASELINE_NO_ABI") != NULL;
  baseline = kit_baseline_new(host_resolve, NULL);
  if (!baseline && !selftest) {
    printf("baseline compiler unavailable\n");
    return 77;
  }
  diffrun_signals_init();
  region_randomize(1);
  memcpy(region, region_init, REGION);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);

  if (sanity()) {
    printf("FAIL: the interpreter disagrees with C about the host helpers\n");
    return 1;
  }
  const char *textfile = getenv("KIT_BASELINE_TEXT");
  if (textfile) return run_text_file(textfile);
  const char *one = getenv("KIT_BASELINE_SEED");
  const char *cnt = getenv("KIT_BASELINE_COUNT");
  SweepStats sw = {0};
  if (!one) {
    if (!fixed) { /* the cases name the buffer and the stubs by address */
      printf("FAIL: cannot map the scratch region at 0x%llx and the helper stubs at 0x%llx\n",
             (unsigned long long)REGION_BASE, (unsigned long long)STUB_BASE);
      return 1;
    }
    run_cases(KIT_BASELINE_CASES);
    sw = sweep();
    printf("op sweep: %lu functions (%lu declined), %lu runs, %d mismatches\n", sw.funcs, sw.declined, sw.runs,
           sw.fail);
  }
  const char *fst = getenv("KIT_BASELINE_FIRST");
  unsigned long first = fst ? strtoul(fst, NULL, 0) : 1, count = cnt ? strtoul(cnt, NULL, 0) : 3600;
  if (one) first = strtoul(one, NULL, 0), count = 1;
  unsigned long dir_compiled = n_compiled, dir_declined = n_declined;
  int dir_failures = failures;
  RandomStats rs;
  memset(&rs, 0, sizeof rs);
  random_functions(first, count, one != NULL, avoid_select, &rs);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  unsigned long rc = n_compiled - dir_compiled, rd = n_declined - dir_declined;
  printf("random: %lu functions, %lu compiled, %lu declined (%.1f%%); mismatches %d, ABI mismatches %d; "
         "%.2f s; code %zu bytes\n",
         rc + rd, rc, rd, rc + rd ? 100.0 * (double)rd / (double)(rc + rd) : 0.0, failures - dir_failures,
         abi_failures, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), code_size());
  for (int k = 0; k < 4; k++)
    printf("  shape %-8s compiled %lu declined %lu\n", shapes[k], rs.per_shape[k][0], rs.per_shape[k][1]);
  for (int i = 0; i < nwhys; i++) printf("  declined %lu x: %s\n", whys[i].n, whys[i].why);
  printf("  %lu functions have blocks in a non-topological order, %lu of them declined (not counted against the 5%% limit)\n",
         rs.any_order, rs.any_order_declined);
  rd -= rs.any_order_declined;
  if (baseline) kit_baseline_free(baseline);
  int bad = failures || abi_failures || sw.fail || case_fail;
  if (!one && rc + rd >= 100 && rd * 20 > rc + rd) {
    printf("FAIL: more than 5%% of the random functions were declined\n");
    bad = 1;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
