/* tests/lib/diffrun.c — running a CG function on the interpreter and as
 * compiled code, and comparing the outcomes (diffrun.h). */
#define _GNU_SOURCE
#include "diffrun.h"

#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void outcome_save(Outcome *o) {
  o->nlog = nlog;
  memcpy(o->log, hlog, sizeof hlog);
  memcpy(o->mem, region, REGION);
}

static sigjmp_buf crash_jb;
static volatile sig_atomic_t in_compiled;
static void on_signal(int sig) {
  if (in_compiled) {
    in_compiled = 0;
    siglongjmp(crash_jb, sig);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}
void diffrun_signals_init(void) {
  static char altstack[1 << 16];
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGALRM, SIGTRAP};
  for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

int run_interp(KitInterp *ip, KitCgFunc *f, const uint64_t *args, Outcome *o) {
  KitCgScalar a[6], r[2];
  memset(a, 0, sizeof a);
  memset(r, 0, sizeof r);
  for (uint32_t i = 0; i < f->nparams; i++) a[i].i = args[i];
  host_env_reset();
  o->status = kit_interp_call(ip, f, a, f->nparams, r);
  o->clobbered = NULL;
  o->rawret = r[0].i;
  o->ret = r[0].i & type_mask((KitCgType)f->ret[0]);
  outcome_save(o);
  return o->status;
}

typedef uint64_t (*Fn0)(void);
typedef uint64_t (*Fn1)(uint64_t);
typedef uint64_t (*Fn2)(uint64_t, uint64_t);
typedef uint64_t (*Fn3)(uint64_t, uint64_t, uint64_t);
typedef uint64_t (*Fn4)(uint64_t, uint64_t, uint64_t, uint64_t);
typedef uint64_t (*Fn5)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
typedef uint64_t (*Fn6)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

#if defined(__x86_64__)
/* Calls code(a[0..5]) with sentinels in the callee-saved registers (rbx, rbp,
 * r12..r15) and records them, and rsp, after the call: compiled code must
 * preserve them (SysV). */
__attribute__((visibility("hidden"))) uint64_t kx_regs_after[8];
__attribute__((visibility("hidden"))) uint64_t kx_rsp_before;
__asm__(".text\n"
        ".globl kx_call_checked\n"
        ".hidden kx_call_checked\n"
        ".type kx_call_checked,@function\n"
        "kx_call_checked:\n"
        "  push %rbp\n  push %rbx\n  push %r12\n  push %r13\n  push %r14\n  push %r15\n"
        "  sub $8, %rsp\n"
        "  mov %rsp, kx_rsp_before(%rip)\n"
        "  mov %rdi, %rax\n"
        "  mov %rsi, %r10\n"
        "  movabs $0x1111111111111111, %rbx\n"
        "  movabs $0x2222222222222222, %rbp\n"
        "  movabs $0x3333333333333333, %r12\n"
        "  movabs $0x4444444444444444, %r13\n"
        "  movabs $0x5555555555555555, %r14\n"
        "  movabs $0x6666666666666666, %r15\n"
        "  mov 0(%r10), %rdi\n  mov 8(%r10), %rsi\n  mov 16(%r10), %rdx\n"
        "  mov 24(%r10), %rcx\n  mov 32(%r10), %r8\n  mov 40(%r10), %r9\n"
        "  call *%rax\n"
        "  mov %rbx, kx_regs_after+0(%rip)\n"
        "  mov %rbp, kx_regs_after+8(%rip)\n"
        "  mov %r12, kx_regs_after+16(%rip)\n"
        "  mov %r13, kx_regs_after+24(%rip)\n"
        "  mov %r14, kx_regs_after+32(%rip)\n"
        "  mov %r15, kx_regs_after+40(%rip)\n"
        "  mov %rsp, kx_regs_after+48(%rip)\n"
        "  mov kx_rsp_before(%rip), %rsp\n"
        "  add $8, %rsp\n"
        "  pop %r15\n  pop %r14\n  pop %r13\n  pop %r12\n  pop %rbx\n  pop %rbp\n"
        "  ret\n"
        ".size kx_call_checked, .-kx_call_checked\n");
uint64_t kx_call_checked(void *code, const uint64_t *args);
static const char *regs_clobbered(void) {
  static const char *const names[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
  for (int i = 0; i < 6; i++)
    if (kx_regs_after[i] != 0x1111111111111111ull * (uint64_t)(i + 1)) return names[i];
  if (kx_regs_after[6] != kx_rsp_before) return "rsp";
  return NULL;
}
#endif

static uint64_t call_code(void *code, uint32_t n, const uint64_t *a) {
#if defined(__x86_64__)
  if (n <= 6) {
    uint64_t a6[6] = {0};
    memcpy(a6, a, n * sizeof *a);
    return kx_call_checked(code, a6);
  }
#endif
  switch (n) {
  case 0: return ((Fn0)code)();
  case 1: return ((Fn1)code)(a[0]);
  case 2: return ((Fn2)code)(a[0], a[1]);
  case 3: return ((Fn3)code)(a[0], a[1], a[2]);
  case 4: return ((Fn4)code)(a[0], a[1], a[2], a[3]);
  case 5: return ((Fn5)code)(a[0], a[1], a[2], a[3], a[4]);
  default: return ((Fn6)code)(a[0], a[1], a[2], a[3], a[4], a[5]);
  }
}

int run_compiled(void *code, const KitCgFunc *f, const uint64_t *args, Outcome *o) {
  host_env_reset();
  volatile uint64_t r = 0;
  int sig = sigsetjmp(crash_jb, 1);
  if (sig == 0) {
    in_compiled = 1;
    alarm(5);
    r = call_code(code, f->nparams, args);
    alarm(0);
    in_compiled = 0;
  } else {
    alarm(0);
  }
  o->status = sig;
  o->clobbered = NULL;
#if defined(__x86_64__)
  if (!sig) o->clobbered = regs_clobbered();
#endif
  o->rawret = r;
  o->ret = r & type_mask((KitCgType)f->ret[0]);
  outcome_save(o);
  return sig;
}

const char *outcome_differs(const Outcome *a, const Outcome *b, char *why, size_t n) {
  if (b->status) {
    snprintf(why, n, "compiled code died with signal %d%s", b->status, b->status == SIGALRM ? " (hang)" : "");
    return why;
  }
  if (b->clobbered) {
    snprintf(why, n, "callee-saved %s not preserved", b->clobbered);
    return why;
  }
  if (a->ret != b->ret) {
    snprintf(why, n, "result: interp 0x%llx, compiled 0x%llx", (unsigned long long)a->ret, (unsigned long long)b->ret);
    return why;
  }
  if (a->nlog != b->nlog) {
    snprintf(why, n, "host calls: interp made %d, compiled %d", a->nlog, b->nlog);
    return why;
  }
  for (int i = 0; i < a->nlog && i < LOGMAX; i++) {
    const LogEnt *x = &a->log[i], *y = &b->log[i];
    if (x->id != y->id) {
      snprintf(why, n, "host call %d: interp called %s, compiled %s", i, helpers[x->id].name, helpers[y->id].name);
      return why;
    }
    for (int k = 0; k < x->n; k++)
      if (x->a[k] != y->a[k]) {
        snprintf(why, n, "host call %d (%s) arg %d: interp 0x%llx, compiled 0x%llx", i, helpers[x->id].name, k,
                 (unsigned long long)x->a[k], (unsigned long long)y->a[k]);
        return why;
      }
    if (y->misaligned && !x->misaligned) {
      snprintf(why, n, "host call %d (%s): stack not 16-byte aligned at the call", i, helpers[x->id].name);
      return why;
    }
  }
  if (memcmp(a->mem, b->mem, REGION)) {
    size_t k = 0;
    while (a->mem[k] == b->mem[k]) k++;
    snprintf(why, n, "memory at buf%+ld: interp 0x%02x, compiled 0x%02x", (long)k - GUARD, a->mem[k], b->mem[k]);
    return why;
  }
  return NULL;
}

uint64_t run_light(void *code, uint32_t n, const uint64_t *a, int *sig_out) {
  volatile uint64_t r = 0;
  int sig = sigsetjmp(crash_jb, 1);
  if (sig == 0) {
    in_compiled = 1;
    alarm(5);
    r = call_code(code, n, a);
    alarm(0);
    in_compiled = 0;
  } else {
    alarm(0);
  }
  *sig_out = sig;
#if defined(__x86_64__)
  if (!sig && regs_clobbered()) *sig_out = -1;
#endif
  return r;
}


int diff_text(DiffCompile compile, void *ctx, const char *text, const uint64_t *args, Outcome *interp,
              Outcome *compiled) {
  KitCgModule *m = kit_cg_parse(text, strlen(text), "red", NULL);
  if (!m) return -1;
  int res = -1;
  KitCgSym s = kit_cg_sym_find(m, "f");
  if (s != UINT32_MAX && kit_cg_verify(m, NULL) == 0) {
    KitCgFunc *f = kit_cg_func_of(m, s);
    FILE *devnull = fopen("/dev/null", "w");
    KitInterp *ip = kit_interp_new(m, host_resolve, NULL, devnull);
    if (ip && run_interp(ip, f, args, interp) == 0) {
      void *code = compile(ctx, m, f, NULL);
      if (code) {
        run_compiled(code, f, args, compiled);
        char why[256];
        res = outcome_differs(interp, compiled, why, sizeof why) ? 1 : 0;
      }
    }
    if (ip) kit_interp_free(ip);
    fclose(devnull);
  }
  kit_cg_module_free(m);
  return res;
}

char *module_text(const KitCgModule *m) {
  char *s = NULL;
  size_t n = 0;
  FILE *fp = open_memstream(&s, &n);
  kit_cg_print(m, fp);
  fclose(fp);
  return s;
}
