/* tests/baseline/suite.h — what the files of the baseline compiler's test
 * suite share: the compiler under test (compile_hook.c) and the op sweep
 * (sweep.c), both driven by test_baseline.c. */
#ifndef KIT_TESTS_BASELINE_SUITE_H
#define KIT_TESTS_BASELINE_SUITE_H

#include <stdbool.h>
#include <stddef.h>

#include "diffrun.h"

/* ---- compile_hook.c: the compiler under test ---------------------------------------- */

extern KitBaseline *baseline; /* NULL when the host has none (then only the selftest runs) */
/* KIT_BASELINE_SELFTEST=1: the interpreter's host-callable trampolines stand
 * in for the compiler (checks this harness); =2: the same over a copy of the
 * module with every ashr turned into lshr (a planted bug for the reducer) */
extern int selftest;
/* KIT_BASELINE_NOHB=1: reductions must not introduce code that
 * code_has_highbyte flags */
extern bool nohb;
/* f's code from the compiler under test */
void *compile_fn(KitCgModule *m, KitCgFunc *f, const char **why);
/* compile_fn as a DiffCompile, for diff_text (honours nohb) */
void *compile_for_diff(void *ctx, KitCgModule *m, KitCgFunc *f, const char **why);
/* bytes of code compiled so far (0 in the selftest) */
size_t code_size(void);
/* Triage heuristic: does the code name ah/ch/dh/bh where sil/dil/spl/bpl
 * was surely meant? */
bool code_has_highbyte(const unsigned char *c, size_t n);

/* ---- sweep.c: every op and type on corner values ------------------------------------- */

typedef struct SweepStats {
  unsigned long funcs, runs, declined;
  int fail;
} SweepStats;
SweepStats sweep(void);

#endif
