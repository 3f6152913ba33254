/* tests/lib/diffrun.h — the two-executor runner: one CG function run by the
 * interpreter (the reference) and as compiled host code on the same
 * arguments, scratch region and helpers (host_env.h), and what differs
 * between the two outcomes: result, memory, host calls, callee-saved
 * registers, stack alignment at calls, a crash or a hang. */
#ifndef KIT_TESTLIB_DIFFRUN_H
#define KIT_TESTLIB_DIFFRUN_H

#include <stddef.h>
#include <stdint.h>

#include "host_env.h"
#include "kit/cg_exec.h"

typedef struct Outcome {
  int status; /* 0 ran; interp: trap; compiled: signal number (SIGALRM = hang) */
  const char *clobbered; /* compiled: a callee-saved register not preserved */
  uint64_t ret, rawret;  /* the result masked to its type, and all of rax */
  int nlog;
  LogEnt log[LOGMAX];
  unsigned char mem[REGION];
} Outcome;

/* compiled code's faults and hangs come back as an Outcome's status */
void diffrun_signals_init(void);

/* the region and the call log as they are now, into o */
void outcome_save(Outcome *o);
/* f on args (f->nparams of them); both return the status */
int run_interp(KitInterp *ip, KitCgFunc *f, const uint64_t *args, Outcome *o);
int run_compiled(void *code, const KitCgFunc *f, const uint64_t *args, Outcome *o);
/* code(a[0..n)) without the region and log bookkeeping: *sig_out is the
 * signal it died of, -1 when it clobbered a callee-saved register, else 0 */
uint64_t run_light(void *code, uint32_t n, const uint64_t *a, int *sig_out);
/* what differs between the interpreter's outcome a and the compiled b (into
 * why); NULL when they agree */
const char *outcome_differs(const Outcome *a, const Outcome *b, char *why, size_t n);

/* a compiler under test: f's code or NULL (*why, when not NULL, says why) */
typedef void *(*DiffCompile)(void *ctx, KitCgModule *m, KitCgFunc *f, const char **why);

/* @f of a CG text run both ways on args: 1 they differ, 0 they agree, -1
 * not a valid test (does not parse or verify, the interpreter traps, the
 * compiler declines); the outcomes are left in *interp and *compiled */
int diff_text(DiffCompile compile, void *ctx, const char *text, const uint64_t *args, Outcome *interp,
              Outcome *compiled);

/* m printed as CG text (malloc'd) */
char *module_text(const KitCgModule *m);

#endif
