/* tests/x64/test_x64.c — differential tests of the baseline x86-64 compiler
 * (kit_baseline_compile, cg/baseline) against the CG interpreter (kit_interp_call, the
 * reference). In order:
 *
 *  1. sanity: the interpreter agrees with plain C about the host helpers the
 *     generated code calls (direct and through a pointer), so a later
 *     mismatch is the compiler's;
 *  2. directed cases (narrow results zero-extended, sext/trunc/ashr corners,
 *     u64 division, min/max corners, i8 compares, i1 stores, tail calls,
 *     a host i32 result with garbage above it);
 *  3. regression cases: tests/x64/cases, CG text with "; args:" lines;
 *  4. an op sweep: every integer op, icmp predicate, conversion and select
 *     on corner values, with the operands as parameters, as immediates on
 *     either side and both constant (the compiler folds those);
 *  5. seeded random CG functions in the compiler's subset (i1..i64, ptr;
 *     arithmetic, shifts by any amount, min/max, guarded division, icmp,
 *     select, conversions, ptradd, loads/stores into a scratch buffer also at
 *     constant addresses, fences, forward-only CFGs, direct/indirect/tail
 *     calls to host helpers) in four shapes: "pressure" (20-50 values live
 *     at once), "straight", "calls" and "cfg". Each compiled function runs on
 *     the same scratch buffer as the interpreter (same addresses, so pointer
 *     values compare); the result (masked to its width), the whole buffer,
 *     the log of host calls (arguments, order, stack alignment) and the
 *     callee-saved registers must match. Each function runs a second time with
 *     garbage in bits 32..63 of its narrow arguments (SysV leaves them
 *     undefined); such failures are reported as "ABI".
 *
 * A random mismatch prints the seed, the module, both outcomes and a
 * reproducer reduced by a small delta-debugger, in CG text that reproduces
 * in another process (the buffer and the helpers' call stubs live at fixed
 * addresses). Fails when anything mismatches or more than 5% of the random
 * functions are declined; exits 77 while kit_baseline_new returns NULL.
 *
 * Environment: KIT_X64_SEED=N reruns one random function verbosely (and
 * writes its code to ./x64_code.bin for objdump -D -b binary -mi386:x86-64);
 * KIT_X64_COUNT=N sets how many random functions run (3600), from seed
 * KIT_X64_FIRST (1);
 * KIT_X64_TEXT=f.cg KIT_X64_ARGS=buf,1,0x80 runs @f of a CG text file;
 * KIT_X64_NO_ABI=1 skips the dirty-argument runs and the abi_*.cg cases;
 * KIT_X64_AVOID_SELECT=1 spells the generator's selects as and/xor (to look
 * past a select bug); KIT_X64_NOHB=1 keeps reductions from drifting into code that uses a byte
 * register without REX (a triage aid); KIT_X64_SELFTEST=1 checks this
 * harness with the interpreter's trampolines standing in for the compiler
 * (=2 plants a bug: ashr runs as lshr). */
#define _GNU_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kit/cg_exec.h"

#define T_I1 KIT_CG_I1
#define T_I8 KIT_CG_I8
#define T_I16 KIT_CG_I16
#define T_I32 KIT_CG_I32
#define T_I64 KIT_CG_I64
#define T_PTR KIT_CG_PTR
#define T_VOID KIT_CG_VOID

/* ---- random numbers -------------------------------------------------------------- */

typedef struct Rng {
  uint64_t s;
} Rng;
static uint64_t rnext(Rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint32_t rn(Rng *r, uint32_t n) { return n ? (uint32_t)(rnext(r) % n) : 0; }
static bool rp(Rng *r, unsigned pct) { return rn(r, 100) < pct; }

static uint64_t mask_of(KitCgType t) {
  unsigned bits = kit_cg_type_bits(t);
  return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* ---- the scratch region ------------------------------------------------------------
 * Generated code only touches buf[0..512); the reducer's mutations may move
 * pointers, so the buffer sits in the middle of a large guard region and the
 * whole region is compared. */
#define BUFSZ 512
#define GUARD (64 * 1024)
#define REGION (2 * GUARD + BUFSZ)
static unsigned char region_static[REGION] __attribute__((aligned(64)));
/* at a fixed address when possible, so constant addresses into the buffer
 * (which the generator emits) reproduce in another process */
#define REGION_BASE 0x3f0000000000ull
static unsigned char *region = region_static;
static unsigned char region_init[REGION] __attribute__((aligned(64)));
static unsigned char *buf = region_static + GUARD;
static void region_init_fixed(void) {
  void *p = mmap((void *)(uintptr_t)REGION_BASE, REGION, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != MAP_FAILED && p == (void *)(uintptr_t)REGION_BASE) region = p;
  buf = region + GUARD;
}

/* ---- host helpers -------------------------------------------------------------------- */

#define LOGMAX 128
typedef struct LogEnt {
  int id, n, misaligned;
  uint64_t a[6];
} LogEnt;
static LogEnt hlog[LOGMAX];
static int nlog;
static uint64_t hctr;

static void logc(int id, int n, const uint64_t *a, uintptr_t frame) {
  if (nlog < LOGMAX) {
    LogEnt *e = &hlog[nlog];
    memset(e, 0, sizeof *e);
    e->id = id;
    e->n = n;
    for (int i = 0; i < n; i++) e->a[i] = a[i];
    e->misaligned = (frame & 15) != 0;
  }
  nlog++;
}
#define FRAME ((uintptr_t)__builtin_frame_address(0))

static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 29);
}

static uint64_t kx_h0(void) {
  logc(0, 0, NULL, FRAME);
  return ++hctr * 0x9e3779b97f4a7c15ull;
}
static uint64_t kx_h1(uint64_t a) {
  uint64_t v[1] = {a};
  logc(1, 1, v, FRAME);
  return mix(1 + hctr++, a);
}
static uint32_t kx_h2(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(2, 2, v, FRAME);
  return (uint32_t)mix(mix(2, a), b);
}
static uint64_t kx_h3(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t v[3] = {a, b, c};
  logc(3, 3, v, FRAME);
  return mix(mix(mix(3, a), b), c);
}
static uint64_t kx_h4(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  uint64_t v[4] = {a, b, c, d};
  logc(4, 4, v, FRAME);
  return mix(mix(mix(mix(4, a), b), c), d);
}
static uint32_t kx_h5(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e) {
  uint64_t v[5] = {a, b, c, d, e};
  logc(5, 5, v, FRAME);
  return (uint32_t)mix(mix(mix(mix(mix(5, a), b), c), d), e);
}
static uint64_t kx_h6(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f) {
  uint64_t v[6] = {a, b, c, d, e, f};
  logc(6, 6, v, FRAME);
  return mix(mix(mix(mix(mix(mix(6, a), b), c), d), e), f);
}
static void kx_v1(uint64_t a) {
  uint64_t v[1] = {a};
  logc(7, 1, v, FRAME);
  hctr += a & 7;
}
static void kx_v3(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t v[3] = {a, b, c};
  logc(8, 3, v, FRAME);
  hctr ^= a + b * 3 + c * 5;
}
static void kx_v6(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f) {
  uint64_t v[6] = {a, b, c, d, e, f};
  logc(9, 6, v, FRAME);
  hctr += a ^ b ^ c ^ d ^ e ^ f;
}
/* reads 64 bytes at p and writes one: memory effects around calls */
static uint64_t kx_hbuf(void *p, uint64_t a) {
  uint64_t v[2] = {(uint64_t)(uintptr_t)p, a};
  logc(10, 2, v, FRAME);
  unsigned char *q = p;
  uint64_t h = 10;
  for (int i = 0; i < 64; i++) h = h * 31 + q[i];
  q[a & 63] = (unsigned char)(a ^ h);
  return h;
}
/* returns an i32 with garbage in bits 32..63 of rax (the ABI allows it) */
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty32_impl(uint64_t a, uint64_t b);
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty32_impl(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(11, 2, v, FRAME);
  uint64_t r = mix(mix(11, a), b);
  return r | 0x8000000000000000ull;
}
/* i8, i16 and i1 results with garbage above them (for i1: above bit 7; al
 * itself is 0 or 1 as the ABI's _Bool wants) */
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty8_impl(uint64_t a, uint64_t b);
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty8_impl(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(12, 2, v, FRAME);
  return mix(mix(12, a), b) | 0x4000000000000100ull;
}
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty16_impl(uint64_t a, uint64_t b);
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty16_impl(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(13, 2, v, FRAME);
  return mix(mix(13, a), b) | 0x2000000000010000ull;
}
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_bool_impl(uint64_t a, uint64_t b);
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_bool_impl(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(14, 2, v, FRAME);
  return (mix(mix(14, a), b) & 1) | (mix(a, b) & ~0xffull) | 0x100;
}
#define KX_WRAP(name)                                                                                        \
  ".globl " #name "\n.hidden " #name "\n.type " #name ",@function\n" #name ":\n  sub $8, %rsp\n  call " #name \
  "_impl\n  add $8, %rsp\n  ret\n.size " #name ", .-" #name "\n"
#if defined(__x86_64__)
__asm__(".text\n" KX_WRAP(kx_dirty8) KX_WRAP(kx_dirty16) KX_WRAP(kx_bool));
uint8_t kx_dirty8(uint64_t a, uint64_t b);
uint16_t kx_dirty16(uint64_t a, uint64_t b);
bool kx_bool(uint64_t a, uint64_t b);
#else
static uint8_t kx_dirty8(uint64_t a, uint64_t b) { return (uint8_t)kx_dirty8_impl(a, b); }
static uint16_t kx_dirty16(uint64_t a, uint64_t b) { return (uint16_t)kx_dirty16_impl(a, b); }
static bool kx_bool(uint64_t a, uint64_t b) { return kx_bool_impl(a, b) & 1; }
#endif
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl kx_dirty32\n"
        ".hidden kx_dirty32\n"
        ".type kx_dirty32,@function\n"
        "kx_dirty32:\n"
        "  sub $8, %rsp\n"
        "  call kx_dirty32_impl\n"
        "  add $8, %rsp\n"
        "  ret\n"
        ".size kx_dirty32, .-kx_dirty32\n");
uint32_t kx_dirty32(uint64_t a, uint64_t b);
#else
static uint32_t kx_dirty32(uint64_t a, uint64_t b) { return (uint32_t)kx_dirty32_impl(a, b); }
#endif

typedef struct Helper {
  const char *name;
  int nargs;
  KitCgType ret;
  bool bufarg; /* first argument is a ptr into the buffer (64 bytes readable) */
  void *addr;
  uint64_t stub; /* calli target: a jump to addr at a fixed address, so printed
                    functions reproduce in another process */
} Helper;
enum { NHELPERS = 15 };
static Helper helpers[NHELPERS] = {
    {"kx_h0", 0, T_I64, false, NULL, 0},  {"kx_h1", 1, T_I64, false, NULL, 0},   {"kx_h2", 2, T_I32, false, NULL, 0},
    {"kx_h3", 3, T_I64, false, NULL, 0},  {"kx_h4", 4, T_I64, false, NULL, 0},   {"kx_h5", 5, T_I32, false, NULL, 0},
    {"kx_h6", 6, T_I64, false, NULL, 0},  {"kx_v1", 1, T_VOID, false, NULL, 0},  {"kx_v3", 3, T_VOID, false, NULL, 0},
    {"kx_v6", 6, T_VOID, false, NULL, 0}, {"kx_hbuf", 2, T_I64, true, NULL, 0},  {"kx_dirty32", 2, T_I32, false, NULL, 0},
    {"kx_dirty8", 2, T_I8, false, NULL, 0}, {"kx_dirty16", 2, T_I16, false, NULL, 0}, {"kx_bool", 2, T_I1, false, NULL, 0},
};
static void helpers_init(void) {
  helpers[0].addr = (void *)kx_h0;
  helpers[1].addr = (void *)kx_h1;
  helpers[2].addr = (void *)kx_h2;
  helpers[3].addr = (void *)kx_h3;
  helpers[4].addr = (void *)kx_h4;
  helpers[5].addr = (void *)kx_h5;
  helpers[6].addr = (void *)kx_h6;
  helpers[7].addr = (void *)kx_v1;
  helpers[8].addr = (void *)kx_v3;
  helpers[9].addr = (void *)kx_v6;
  helpers[10].addr = (void *)kx_hbuf;
  helpers[11].addr = (void *)kx_dirty32;
  helpers[12].addr = (void *)kx_dirty8;
  helpers[13].addr = (void *)kx_dirty16;
  helpers[14].addr = (void *)kx_bool;
  /* movabs rax, addr; jmp rax at STUB_BASE + 16 * i */
  enum { STUB_BASE = 0x3e0000000000 };
  unsigned char *p = mmap((void *)(uintptr_t)STUB_BASE, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  for (int i = 0; i < NHELPERS; i++) {
    if (p == MAP_FAILED) {
      helpers[i].stub = (uint64_t)(uintptr_t)helpers[i].addr;
      continue;
    }
    unsigned char *q = p + 16 * i;
    uint64_t a = (uint64_t)(uintptr_t)helpers[i].addr;
    q[0] = 0x48, q[1] = 0xb8;
    memcpy(q + 2, &a, 8);
    q[10] = 0xff, q[11] = 0xe0;
    helpers[i].stub = (uint64_t)(uintptr_t)q;
  }
}
static int resolver_calls;
static void *resolve(void *user, const char *name) {
  (void)user;
  resolver_calls++;
  for (int i = 0; i < NHELPERS; i++)
    if (!strcmp(helpers[i].name, name)) return helpers[i].addr;
  return NULL;
}
static KitCgSym helper_sym(KitCgModule *m, int h) {
  KitCgType ps[6];
  for (int i = 0; i < helpers[h].nargs; i++) ps[i] = (i == 0 && helpers[h].bufarg) ? T_PTR : T_I64;
  return kit_cg_func_declare(m, helpers[h].name, helpers[h].ret, ps, (uint32_t)helpers[h].nargs, false)->sym;
}

/* ---- running both executors ------------------------------------------------------ */

typedef struct Outcome {
  int status; /* 0 ran; interp: trap; x64: signal number (SIGALRM = hang) */
  const char *clobbered; /* x64: a callee-saved register not preserved */
  uint64_t ret, rawret;
  int nlog;
  LogEnt log[LOGMAX];
  unsigned char mem[REGION];
} Outcome;
static Outcome out_i, out_x;

static void reset_state(void) {
  memcpy(region, region_init, REGION);
  memset(hlog, 0, sizeof hlog);
  nlog = 0;
  hctr = 0;
}
static void save_state(Outcome *o) {
  o->nlog = nlog;
  memcpy(o->log, hlog, sizeof hlog);
  memcpy(o->mem, region, REGION);
}

static sigjmp_buf crash_jb;
static volatile sig_atomic_t in_x64;
static void on_signal(int sig) {
  if (in_x64) {
    in_x64 = 0;
    siglongjmp(crash_jb, sig);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}
static void signals_init(void) {
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

static int run_interp(KitInterp *ip, KitCgFunc *f, const uint64_t *args, Outcome *o) {
  KitCgScalar a[6], r[2];
  memset(a, 0, sizeof a);
  memset(r, 0, sizeof r);
  for (uint32_t i = 0; i < f->nparams; i++) a[i].i = args[i];
  reset_state();
  o->status = kit_interp_call(ip, f, a, f->nparams, r);
  o->clobbered = NULL;
  o->rawret = r[0].i;
  o->ret = r[0].i & mask_of((KitCgType)f->ret[0]);
  save_state(o);
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

static int run_x64(void *code, const KitCgFunc *f, const uint64_t *args, Outcome *o) {
  reset_state();
  volatile uint64_t r = 0;
  int sig = sigsetjmp(crash_jb, 1);
  if (sig == 0) {
    in_x64 = 1;
    alarm(5);
    r = call_code(code, f->nparams, args);
    alarm(0);
    in_x64 = 0;
  } else {
    alarm(0);
  }
  o->status = sig;
  o->clobbered = NULL;
#if defined(__x86_64__)
  if (!sig) o->clobbered = regs_clobbered();
#endif
  o->rawret = r;
  o->ret = r & mask_of((KitCgType)f->ret[0]);
  save_state(o);
  return sig;
}

/* what differs between the two outcomes; NULL when they agree */
static const char *differs(const Outcome *a, const Outcome *b, char *why, size_t n) {
  if (b->status) {
    snprintf(why, n, "x64 code died with signal %d%s", b->status, b->status == SIGALRM ? " (hang)" : "");
    return why;
  }
  if (b->clobbered) {
    snprintf(why, n, "callee-saved %s not preserved", b->clobbered);
    return why;
  }
  if (a->ret != b->ret) {
    snprintf(why, n, "result: interp 0x%llx, x64 0x%llx", (unsigned long long)a->ret, (unsigned long long)b->ret);
    return why;
  }
  if (a->nlog != b->nlog) {
    snprintf(why, n, "host calls: interp made %d, x64 %d", a->nlog, b->nlog);
    return why;
  }
  for (int i = 0; i < a->nlog && i < LOGMAX; i++) {
    const LogEnt *x = &a->log[i], *y = &b->log[i];
    if (x->id != y->id) {
      snprintf(why, n, "host call %d: interp called %s, x64 %s", i, helpers[x->id].name, helpers[y->id].name);
      return why;
    }
    for (int k = 0; k < x->n; k++)
      if (x->a[k] != y->a[k]) {
        snprintf(why, n, "host call %d (%s) arg %d: interp 0x%llx, x64 0x%llx", i, helpers[x->id].name, k,
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
    snprintf(why, n, "memory at buf%+ld: interp 0x%02x, x64 0x%02x", (long)k - GUARD, a->mem[k], b->mem[k]);
    return why;
  }
  return NULL;
}

/* ---- random function generator ------------------------------------------------------ */

static const KitCgType tys[6] = {T_I1, T_I8, T_I16, T_I32, T_I64, T_PTR};
static int tix(KitCgType t) {
  for (int i = 0; i < 6; i++)
    if (tys[i] == t) return i;
  return 4;
}

#define POOLMAX 1024
#define DPMAX 512
#define ACC_MAX 504 /* highest buffer offset an 8-byte access may start at */

typedef struct DPtr { /* a pointer into buf[lo..hi] (any of those offsets) */
  KitCgVal v;
  int lo, hi;
} DPtr;

typedef struct Gen {
  Rng r;
  KitCgModule *m;
  KitCgFunc *f;
  KitCgBuilder b;
  KitCgType rt;
  KitCgVal pool[6][POOLMAX];
  int np[6];
  DPtr dp[DPMAX];
  int ndp;
  KitCgVal lastcmp;
  uint64_t fav[3];
  int budget;     /* instructions left */
  int call_pct;   /* weight of calls */
  int tail_pct;   /* chance a ret becomes a tail call */
  bool consts_only; /* pick: params and fresh constants only */
  bool i1_signed;   /* signed compares and smin/smax on i1 (the compiler declines them) */
} Gen;

typedef struct Scope {
  int np[6], ndp;
} Scope;
static Scope scope_save(const Gen *g) {
  Scope s;
  memcpy(s.np, g->np, sizeof s.np);
  s.ndp = g->ndp;
  return s;
}
static void scope_restore(Gen *g, const Scope *s) {
  memcpy(g->np, s->np, sizeof s->np);
  g->ndp = s->ndp;
  g->lastcmp = 0;
}

static KitCgType vt(const Gen *g, KitCgVal v) { return kit_cg_val_type(g->f, v); }
static void push(Gen *g, KitCgVal v) {
  int t = tix(vt(g, v));
  if (g->np[t] < POOLMAX) g->pool[t][g->np[t]++] = v;
}
static void push_dp(Gen *g, KitCgVal v, int lo, int hi) {
  if (g->ndp < DPMAX) g->dp[g->ndp++] = (DPtr){v, lo, hi};
  push(g, v);
}
static KitCgInst *last_inst(Gen *g) {
  KitCgBlock *bb = &g->f->blocks[g->b.blk];
  return &bb->insts[bb->ninsts - 1];
}

static uint64_t interesting(Gen *g, KitCgType t) {
  unsigned w = kit_cg_type_bits(t);
  if (t == T_PTR) w = 64;
  uint64_t top = 1ull << (w - 1);
  switch (rn(&g->r, 13)) {
  case 0: return 0;
  case 1: return 1;
  case 2: return ~0ull;
  case 3: return top;
  case 4: return top - 1;
  case 5: return rn(&g->r, 17);
  case 6: return w - 1;
  case 7: return w + rn(&g->r, 3);
  case 8: return g->fav[rn(&g->r, 3)];
  case 9: return g->fav[0];
  case 10: return (uint64_t)-(int64_t)rn(&g->r, 300);
  default: return rnext(&g->r);
  }
}

static KitCgVal konst(Gen *g, KitCgType t) {
  KitCgVal v;
  if (t == T_PTR) {
    if (rp(&g->r, 50)) v = kit_cg_iconst(&g->b, T_PTR, rp(&g->r, 50) ? 0 : interesting(g, T_I64));
    else v = kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, kit_cg_iconst(&g->b, T_I64, interesting(g, T_I64)));
  } else {
    v = kit_cg_iconst(&g->b, t, interesting(g, t));
  }
  g->budget--;
  return v;
}

static KitCgVal pick(Gen *g, KitCgType t) {
  int ti = tix(t), n = g->np[ti];
  if (g->consts_only) {
    /* parameters of that type or a constant */
    KitCgVal cand[8];
    int nc = 0;
    for (uint32_t i = 0; i < g->f->nparams && nc < 8; i++)
      if (g->f->params[i].type == t) cand[nc++] = i + 1;
    if (nc && rp(&g->r, 70)) return cand[rn(&g->r, (uint32_t)nc)];
    return konst(g, t);
  }
  if (n == 0 || rp(&g->r, 8)) {
    KitCgVal v = konst(g, t);
    push(g, v);
    return v;
  }
  if (rp(&g->r, 55)) return g->pool[ti][n - 1 - (int)rn(&g->r, (uint32_t)(n < 4 ? n : 4))];
  return g->pool[ti][rn(&g->r, (uint32_t)n)];
}

static KitCgType rand_int_type(Gen *g) {
  static const KitCgType w[] = {T_I64, T_I64, T_I64, T_I64, T_I32, T_I32, T_I32, T_I16, T_I16, T_I8, T_I8, T_I1};
  return w[rn(&g->r, sizeof w / sizeof w[0])];
}
static KitCgType rand_mem_type(Gen *g) {
  static const KitCgType w[] = {T_I64, T_I64, T_I32, T_I32, T_I16, T_I8, T_I8, T_PTR};
  return w[rn(&g->r, sizeof w / sizeof w[0])];
}

/* any value widened to i64 */
static KitCgVal to64(Gen *g, KitCgVal v) {
  KitCgType t = vt(g, v);
  g->budget--;
  if (t == T_I64) return v;
  if (t == T_PTR) return kit_cg_conv(&g->b, KIT_CG_OP_PTRTOINT, T_I64, v);
  return kit_cg_conv(&g->b, rp(&g->r, 50) ? KIT_CG_OP_ZEXT : KIT_CG_OP_SEXT, T_I64, v);
}
/* an i64 cut or kept to type t */
static KitCgVal from64(Gen *g, KitCgVal v, KitCgType t) {
  if (t == T_I64) return v;
  g->budget--;
  if (t == T_PTR) return kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, v);
  return kit_cg_conv(&g->b, KIT_CG_OP_TRUNC, t, v);
}

/* KIT_X64_AVOID_SELECT=1: the generator spells select as and/xor (triage:
 * hides select bugs to find others) */
static bool avoid_select;
static KitCgVal gsel(Gen *g, KitCgVal c, KitCgVal x, KitCgVal y) {
  if (!avoid_select) {
    KitCgVal r = kit_cg_select(&g->b, c, x, y);
    if (rp(&g->r, 25)) last_inst(g)->flags |= KIT_CG_F_LIKELY; /* the false operand out of line */
    return r;
  }
  KitCgType t = vt(g, x);
  KitCgType it = t == T_PTR ? T_I64 : t;
  if (t == T_PTR) {
    x = kit_cg_conv(&g->b, KIT_CG_OP_PTRTOINT, T_I64, x);
    y = kit_cg_conv(&g->b, KIT_CG_OP_PTRTOINT, T_I64, y);
  }
  KitCgVal m = it == T_I1 ? c : kit_cg_conv(&g->b, KIT_CG_OP_SEXT, it, c);
  KitCgVal r = kit_cg_binop(&g->b, KIT_CG_OP_XOR, y,
                            kit_cg_binop(&g->b, KIT_CG_OP_AND, kit_cg_binop(&g->b, KIT_CG_OP_XOR, x, y), m));
  return t == T_PTR ? kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, r) : r;
}

/* an address for an access of up to 8 bytes inside buf */
static KitCgVal addr(Gen *g) {
  if (rp(&g->r, 8)) { /* a constant address into the buffer */
    int k = (int)rn(&g->r, ACC_MAX + 1);
    uint64_t a = (uint64_t)(uintptr_t)buf + (uint64_t)k;
    KitCgVal p = rp(&g->r, 50) ? kit_cg_iconst(&g->b, T_PTR, a)
                               : kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, kit_cg_iconst(&g->b, T_I64, a));
    g->budget -= 2;
    push_dp(g, p, k, k);
    return p;
  }
  DPtr d = g->dp[g->ndp > 1 && rp(&g->r, 70) ? g->ndp - 1 - (int)rn(&g->r, (uint32_t)(g->ndp < 6 ? g->ndp : 6))
                                               : (int)rn(&g->r, (uint32_t)g->ndp)];
  if (rp(&g->r, 60)) {
    int k = -d.lo + (int)rn(&g->r, (uint32_t)(ACC_MAX - d.hi + d.lo + 1));
    if (k) {
      KitCgVal p = kit_cg_ptradd(&g->b, d.v, kit_cg_iconst(&g->b, T_I64, (uint64_t)(int64_t)k));
      g->budget -= 2;
      push_dp(g, p, d.lo + k, d.hi + k);
      return p;
    }
  }
  return d.v;
}

static void gen_ptradd(Gen *g) {
  if (rp(&g->r, 25)) { /* arbitrary pointer arithmetic, never dereferenced */
    KitCgVal p = kit_cg_ptradd(&g->b, pick(g, T_PTR), pick(g, T_I64));
    g->budget--;
    push(g, p);
    return;
  }
  DPtr d = g->dp[rn(&g->r, (uint32_t)g->ndp)];
  int room = ACC_MAX - d.hi;
  if (room <= 0) return;
  KitCgVal off;
  int addhi;
  switch (rn(&g->r, 4)) {
  case 0: { /* masked index */
    uint64_t msk = 1;
    while (msk * 2 - 1 <= (uint64_t)room && msk < 512) msk *= 2;
    msk -= 1;
    if (rp(&g->r, 40)) msk &= ~7ull;
    off = kit_cg_binop(&g->b, KIT_CG_OP_AND, pick(g, T_I64), kit_cg_iconst(&g->b, T_I64, msk));
    addhi = (int)msk;
    g->budget -= 2;
    break;
  }
  case 1: /* zero-extended i8 index */
    if (room < 255) return;
    off = kit_cg_conv(&g->b, KIT_CG_OP_ZEXT, T_I64, pick(g, T_I8));
    addhi = 255;
    g->budget--;
    break;
  case 2: { /* scaled index: (x & 31) << 3 */
    if (room < 248) return;
    KitCgVal x = kit_cg_binop(&g->b, KIT_CG_OP_AND, pick(g, T_I64), kit_cg_iconst(&g->b, T_I64, 31));
    off = kit_cg_binop(&g->b, KIT_CG_OP_SHL, x, kit_cg_iconst(&g->b, T_I64, 3));
    addhi = 248;
    g->budget -= 4;
    break;
  }
  default: { /* select of two in-range constants */
    KitCgVal c = pick(g, T_I1);
    uint64_t k1 = rn(&g->r, (uint32_t)room + 1), k2 = rn(&g->r, (uint32_t)room + 1);
    off = gsel(g, c, kit_cg_iconst(&g->b, T_I64, k1), kit_cg_iconst(&g->b, T_I64, k2));
    addhi = (int)(k1 > k2 ? k1 : k2);
    g->budget -= 3;
    break;
  }
  }
  KitCgVal p = kit_cg_ptradd(&g->b, d.v, off);
  g->budget--;
  push_dp(g, p, d.lo, d.hi + addhi);
}

static void gen_select_dp(Gen *g) {
  if (g->ndp < 2) return;
  DPtr a = g->dp[rn(&g->r, (uint32_t)g->ndp)], b = g->dp[rn(&g->r, (uint32_t)g->ndp)];
  KitCgVal p = gsel(g, pick(g, T_I1), a.v, b.v);
  g->budget--;
  push_dp(g, p, a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

static void gen_binop(Gen *g, KitCgType t) {
  static const KitCgOp ops[] = {KIT_CG_OP_ADD, KIT_CG_OP_SUB, KIT_CG_OP_MUL, KIT_CG_OP_AND, KIT_CG_OP_OR,
                                KIT_CG_OP_XOR, KIT_CG_OP_SMIN, KIT_CG_OP_SMAX, KIT_CG_OP_UMIN, KIT_CG_OP_UMAX,
                                KIT_CG_OP_ADD, KIT_CG_OP_SUB};
  KitCgOp op = ops[rn(&g->r, sizeof ops / sizeof ops[0])];
  if (t == T_I1 && !g->i1_signed && (op == KIT_CG_OP_SMIN || op == KIT_CG_OP_SMAX)) t = T_I8;
  KitCgVal x = pick(g, t), y = rp(&g->r, 8) ? x : pick(g, t);
  push(g, kit_cg_binop(&g->b, op, x, y));
  g->budget--;
}

static void gen_shift(Gen *g, KitCgType t) {
  static const KitCgOp ops[] = {KIT_CG_OP_SHL, KIT_CG_OP_LSHR, KIT_CG_OP_ASHR};
  KitCgOp op = ops[rn(&g->r, 3)];
  unsigned w = kit_cg_type_bits(t);
  KitCgVal x = pick(g, t), amt;
  switch (rn(&g->r, 4)) {
  case 0: amt = kit_cg_iconst(&g->b, t, rn(&g->r, w)); break;             /* in range */
  case 1: amt = kit_cg_iconst(&g->b, t, rn(&g->r, 256)); break;           /* any, taken modulo w */
  case 2: amt = kit_cg_iconst(&g->b, t, rp(&g->r, 50) ? w : rnext(&g->r)); break;
  default: amt = pick(g, t); break;                                       /* a variable amount */
  }
  push(g, kit_cg_binop(&g->b, op, x, amt));
  g->budget -= 2;
}

static void gen_unop(Gen *g, KitCgType t) {
  push(g, kit_cg_unop(&g->b, rp(&g->r, 50) ? KIT_CG_OP_NEG : KIT_CG_OP_NOT, pick(g, t)));
  g->budget--;
}

/* division whose divisor cannot be 0 and whose signed forms never see MIN / -1 */
static void gen_div(Gen *g, KitCgType t) {
  if (t == T_I1) t = T_I64;
  static const KitCgOp ops[] = {KIT_CG_OP_UDIV, KIT_CG_OP_SDIV, KIT_CG_OP_UREM, KIT_CG_OP_SREM};
  KitCgOp op = ops[rn(&g->r, 4)];
  bool sgn = op == KIT_CG_OP_SDIV || op == KIT_CG_OP_SREM;
  uint64_t m = mask_of(t), top = (m >> 1) + 1;
  KitCgVal x = pick(g, t), d;
  bool x_safe = false; /* dividend cannot be MIN */
  if (sgn && rp(&g->r, 40)) {
    x = rp(&g->r, 50) ? kit_cg_binop(&g->b, KIT_CG_OP_LSHR, x, kit_cg_iconst(&g->b, t, 1))
                      : kit_cg_binop(&g->b, KIT_CG_OP_AND, x, kit_cg_iconst(&g->b, t, m >> 1));
    x_safe = true;
    g->budget -= 2;
  }
  switch (rn(&g->r, 4)) {
  case 0: { /* constant divisor */
    static const uint64_t ks[] = {1, 2, 3, 5, 7, 8, 10, 16, 255, 1000, 0x7fffffff, ~0ull, ~1ull, ~6ull};
    uint64_t k = ks[rn(&g->r, sizeof ks / sizeof ks[0])] & m;
    if (rp(&g->r, 30)) k = rnext(&g->r) & m;
    if (rp(&g->r, 10)) k = top;
    if (!k) k = 3;
    if (sgn && !x_safe && k == m) k = m - 1; /* -1 only with a safe dividend */
    if (!k) k = 1;
    d = kit_cg_iconst(&g->b, t, k);
    g->budget--;
    break;
  }
  case 1: /* y | 1 */
    d = kit_cg_binop(&g->b, KIT_CG_OP_OR, pick(g, t), kit_cg_iconst(&g->b, t, rp(&g->r, 70) ? 1 : top));
    g->budget -= 2;
    break;
  case 2: /* umax(y, 1) */
    d = kit_cg_binop(&g->b, KIT_CG_OP_UMAX, pick(g, t), kit_cg_iconst(&g->b, t, 1));
    g->budget -= 2;
    break;
  default: { /* select(y == 0, 7, y) */
    KitCgVal y = pick(g, t);
    KitCgVal z = kit_cg_cmp(&g->b, KIT_CG_EQ, y, kit_cg_iconst(&g->b, t, 0));
    d = gsel(g, z, kit_cg_iconst(&g->b, t, 7), y);
    g->budget -= 4;
    break;
  }
  }
  if (sgn && !x_safe) { /* divisor -1 -> 3 */
    KitCgVal c = kit_cg_cmp(&g->b, KIT_CG_EQ, d, kit_cg_iconst(&g->b, t, m));
    d = gsel(g, c, kit_cg_iconst(&g->b, t, 3), d);
    g->budget -= 4;
  }
  push(g, kit_cg_binop(&g->b, op, x, d));
  g->budget--;
}

static bool signed_pred(KitCgPred p) { return p >= KIT_CG_SLT && p <= KIT_CG_SGE; }
static KitCgVal gen_icmp(Gen *g, KitCgType t) {
  KitCgPred p = (KitCgPred)rn(&g->r, 10);
  if (t == T_I1 && !g->i1_signed && signed_pred(p)) t = T_I8;
  KitCgVal x = pick(g, t), y = rp(&g->r, 30) ? konst(g, t) : pick(g, t);
  KitCgVal c = kit_cg_cmp(&g->b, p, x, y);
  g->budget--;
  push(g, c);
  g->lastcmp = c;
  if (rp(&g->r, 40)) { /* the select right after it */
    KitCgType st = rp(&g->r, 20) ? T_PTR : rand_int_type(g);
    if (rp(&g->r, 50)) st = t;
    push(g, gsel(g, c, pick(g, st), pick(g, st)));
    g->budget--;
  }
  return c;
}

static void gen_select(Gen *g) {
  KitCgType t = rp(&g->r, 15) ? T_PTR : rand_int_type(g);
  KitCgVal c = g->lastcmp && rp(&g->r, 50) ? g->lastcmp : pick(g, T_I1);
  push(g, gsel(g, c, pick(g, t), pick(g, t)));
  g->budget--;
}

static void gen_conv(Gen *g) {
  static const KitCgType ints[5] = {T_I1, T_I8, T_I16, T_I32, T_I64};
  switch (rn(&g->r, 7)) {
  case 0:
  case 1: { /* trunc */
    int from = 1 + (int)rn(&g->r, 4), to = (int)rn(&g->r, (uint32_t)from);
    push(g, kit_cg_conv(&g->b, KIT_CG_OP_TRUNC, ints[to], pick(g, ints[from])));
    break;
  }
  case 2:
  case 3:
  case 4: { /* zext / sext */
    int from = (int)rn(&g->r, 4), to = from + 1 + (int)rn(&g->r, (uint32_t)(4 - from));
    push(g, kit_cg_conv(&g->b, rp(&g->r, 50) ? KIT_CG_OP_ZEXT : KIT_CG_OP_SEXT, ints[to], pick(g, ints[from])));
    break;
  }
  case 5: /* ptrtoint */
    push(g, kit_cg_conv(&g->b, KIT_CG_OP_PTRTOINT, rp(&g->r, 70) ? T_I64 : ints[rn(&g->r, 5)], pick(g, T_PTR)));
    break;
  default: /* inttoptr */
    push(g, kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR, pick(g, rp(&g->r, 70) ? T_I64 : ints[rn(&g->r, 5)])));
    break;
  }
  g->budget--;
}

static uint32_t rand_align(Gen *g) {
  static const uint32_t al[] = {0, 0, 1, 1, 2, 4, 8, 16};
  return al[rn(&g->r, 8)];
}

static void gen_load(Gen *g) {
  KitCgType t = rand_mem_type(g);
  KitCgVal p = addr(g);
  push(g, kit_cg_load(&g->b, t, p, rand_align(g), rp(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL));
  g->budget--;
}

static void gen_store(Gen *g) {
  KitCgType t = rp(&g->r, 5) ? T_I1 : rand_mem_type(g);
  KitCgVal v = pick(g, t);
  KitCgVal p = addr(g);
  kit_cg_store(&g->b, v, p, rand_align(g), rp(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL);
  g->budget--;
}

/* load, add a constant, store back: the compiler turns the exact pattern
 * into an add to memory; the variants around it must not be */
static void gen_rmw(Gen *g) {
  static const KitCgType ts[] = {T_I64, T_I64, T_I32, T_I32, T_I16, T_I8};
  KitCgType t = ts[rn(&g->r, 6)];
  DPtr d = g->dp[rn(&g->r, (uint32_t)g->ndp)];
  int k = -d.lo + (int)rn(&g->r, (uint32_t)(ACC_MAX - d.hi + d.lo + 1));
  uint32_t variant = rn(&g->r, 6);
  KitCgVal p, q;
  if (variant == 0 || variant == 1) { /* one address value */
    p = q = addr(g);
  } else { /* two ptradds of the same base and offset (or, variant 5, another offset) */
    p = kit_cg_ptradd(&g->b, d.v, kit_cg_iconst(&g->b, T_I64, (uint64_t)(int64_t)k));
    int k2 = variant == 5 && k + 8 <= ACC_MAX - d.hi ? k + 8 : k;
    q = kit_cg_ptradd(&g->b, d.v, kit_cg_iconst(&g->b, T_I64, (uint64_t)(int64_t)k2));
    g->budget -= 4;
  }
  uint32_t al = rand_align(g);
  KitCgVal v = kit_cg_load(&g->b, t, p, al, rp(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL);
  uint64_t c = rp(&g->r, 70) ? interesting(g, t) : (uint64_t)(int64_t)(int)rn(&g->r, 200) - 100;
  KitCgVal cv = kit_cg_iconst(&g->b, t, c);
  KitCgVal w = rp(&g->r, 50) ? kit_cg_binop(&g->b, KIT_CG_OP_ADD, v, cv) : kit_cg_binop(&g->b, KIT_CG_OP_ADD, cv, v);
  if (variant == 1 || variant == 4) push(g, v); /* the loaded value lives on */
  if (variant == 3) push(g, w);                 /* so does the sum */
  kit_cg_store(&g->b, w, q, al, rp(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL);
  g->budget -= 4;
}

/* a load compared with a constant right after it (the compare reads memory) */
static KitCgVal gen_loadcmp(Gen *g) {
  KitCgType t = rand_mem_type(g);
  KitCgVal p = addr(g);
  KitCgVal v = kit_cg_load(&g->b, t, p, rand_align(g), rp(&g->r, 50) ? KIT_CG_PROGRAM : KIT_CG_INTERNAL);
  KitCgVal k = konst(g, t);
  KitCgPred pr = (KitCgPred)rn(&g->r, 10);
  KitCgVal c = rp(&g->r, 50) ? kit_cg_cmp(&g->b, pr, v, k) : kit_cg_cmp(&g->b, pr, k, v);
  g->budget -= 2;
  push(g, c);
  g->lastcmp = c;
  if (rp(&g->r, 10)) push(g, v); /* a second use: no fusion */
  return c;
}

static void gen_fence(Gen *g) {
  kit_cg_emit(&g->b, KIT_CG_OP_FENCE, T_VOID, NULL, 0)->pred = (uint8_t)rn(&g->r, 5);
  g->budget--;
}

/* an i64 call argument: mostly pool values (parameters included) */
static KitCgVal call_arg(Gen *g) {
  if (rp(&g->r, 75)) return pick(g, T_I64);
  KitCgType t = rp(&g->r, 20) ? T_PTR : rand_int_type(g);
  return to64(g, pick(g, t));
}

/* a call to helper h (direct or through a pointer); returns its value or 0 */
static KitCgVal emit_call(Gen *g, int h, bool tail) {
  const Helper *hp = &helpers[h];
  KitCgVal args[6];
  for (int i = 0; i < hp->nargs; i++) {
    if (i == 0 && hp->bufarg) {
      /* a pointer with 64 readable bytes */
      DPtr d = g->dp[rn(&g->r, (uint32_t)g->ndp)];
      KitCgVal p = d.v;
      if (d.hi > BUFSZ - 64) {
        p = kit_cg_ptradd(&g->b, g->dp[0].v, kit_cg_iconst(&g->b, T_I64, rn(&g->r, BUFSZ - 64 + 1)));
        g->budget -= 2;
      }
      args[i] = p;
    } else {
      args[i] = call_arg(g);
    }
  }
  KitCgVal r;
  if (rp(&g->r, 50)) {
    r = kit_cg_call(&g->b, helper_sym(g->m, h), hp->ret, args, (uint32_t)hp->nargs);
  } else {
    KitCgVal fp = kit_cg_conv(&g->b, KIT_CG_OP_INTTOPTR, T_PTR,
                              kit_cg_iconst(&g->b, T_I64, hp->stub));
    g->budget -= 2;
    r = kit_cg_calli(&g->b, fp, hp->ret, args, (uint32_t)hp->nargs);
  }
  if (tail) last_inst(g)->flags |= KIT_CG_F_TAIL;
  g->budget -= 2;
  return r;
}

static void gen_call(Gen *g) {
  int h = (int)rn(&g->r, NHELPERS);
  KitCgVal r = emit_call(g, h, false);
  if (r) push(g, r);
}

static void gen_inst(Gen *g) {
  uint32_t k = rn(&g->r, 100 + (uint32_t)g->call_pct);
  KitCgType t = rand_int_type(g);
  if (k < 24) gen_binop(g, t);
  else if (k < 33) gen_shift(g, t);
  else if (k < 37) gen_unop(g, t);
  else if (k < 42) gen_div(g, t);
  else if (k < 51) gen_icmp(g, rp(&g->r, 10) ? T_PTR : t);
  else if (k < 56) gen_select(g);
  else if (k < 66) gen_conv(g);
  else if (k < 74) gen_load(g);
  else if (k < 82) gen_store(g);
  else if (k < 87) gen_ptradd(g);
  else if (k < 88) rp(&g->r, 50) ? gen_select_dp(g) : gen_rmw(g);
  else if (k < 89) gen_fence(g);
  else if (k < 91) push(g, konst(g, t));
  else if (k < 92) gen_rmw(g);
  else if (k < 94) gen_loadcmp(g);
  else if (k < 97) gen_store(g);
  else if (k < 100) gen_binop(g, T_I64);
  else gen_call(g);
}

/* xor/add/mul-fold of k random values, ending in type t */
static KitCgVal checksum(Gen *g, KitCgType t, int k) {
  KitCgVal acc = to64(g, pick(g, tys[rn(&g->r, 6)]));
  for (int i = 0; i < k; i++) {
    KitCgVal v = to64(g, pick(g, tys[rn(&g->r, 6)]));
    static const KitCgOp ops[] = {KIT_CG_OP_XOR, KIT_CG_OP_ADD, KIT_CG_OP_SUB, KIT_CG_OP_XOR};
    if (rp(&g->r, 20)) acc = kit_cg_binop(&g->b, KIT_CG_OP_MUL, acc, kit_cg_iconst(&g->b, T_I64, 0x100000001b3ull));
    acc = kit_cg_binop(&g->b, ops[rn(&g->r, 4)], acc, v);
    g->budget -= 2;
  }
  return from64(g, acc, t);
}

static void sink_stores(Gen *g) {
  int n = (int)rn(&g->r, 3);
  for (int i = 0; i < n; i++) gen_store(g);
}

static void emit_ret(Gen *g) {
  sink_stores(g);
  /* tail call: `%r = tail calli %p(...)`, then `ret %r` */
  if ((g->rt == T_I64 || g->rt == T_I32) && rp(&g->r, (unsigned)g->tail_pct)) {
    int cand[NHELPERS], nc = 0;
    for (int h = 0; h < NHELPERS; h++)
      if (helpers[h].ret == g->rt) cand[nc++] = h;
    KitCgVal r = emit_call(g, cand[rn(&g->r, (uint32_t)nc)], true);
    kit_cg_ret(&g->b, r);
    return;
  }
  KitCgVal v = rp(&g->r, 25) ? pick(g, g->rt) : checksum(g, g->rt, 1 + (int)rn(&g->r, 8));
  kit_cg_ret(&g->b, v);
}

static KitCgVal gen_cond(Gen *g) {
  uint32_t k = rn(&g->r, 10);
  if (k < 2) return gen_loadcmp(g);
  if (k < 6) return gen_icmp(g, rp(&g->r, 10) ? T_PTR : rand_int_type(g));
  if (k < 8 && g->np[0]) return pick(g, T_I1); /* an i1 from before, maybe another block's */
  if (k < 9 && g->lastcmp) return g->lastcmp;  /* a compare with a second user */
  KitCgVal c = kit_cg_conv(&g->b, KIT_CG_OP_TRUNC, T_I1, pick(g, rand_int_type(g) == T_I1 ? T_I8 : T_I32));
  g->budget--;
  return c;
}

static void emit_condbr(Gen *g, KitCgVal c, KitCgBlkId a, KitCgBlkId b) {
  kit_cg_condbr(&g->b, c, a, b);
  uint32_t k = rn(&g->r, 10);
  if (k < 2) last_inst(g)->flags |= KIT_CG_F_LIKELY;
  else if (k < 4) last_inst(g)->flags |= KIT_CG_F_COLD;
}

static void straight(Gen *g, int n) {
  for (int i = 0; i < n && g->budget > 0; i++) gen_inst(g);
}

/* structured forward-only CFG: blocks numbered in topological order */
static void cfg_region(Gen *g, int depth) {
  straight(g, 3 + (int)rn(&g->r, 12));
  uint32_t k = depth >= 5 || g->budget <= 0 ? 0 : rn(&g->r, 10);
  if (depth < 2 && k < 3 && g->budget > 0) k = 3 + rn(&g->r, 7);
  if (k < 3) {
    emit_ret(g);
  } else if (k < 5) { /* split: two regions, each returning */
    KitCgVal c = gen_cond(g);
    KitCgBlkId a = kit_cg_block_new(g->m, g->f), b = kit_cg_block_new(g->m, g->f);
    emit_condbr(g, c, a, b);
    Scope s = scope_save(g);
    kit_cg_builder_at(&g->b, a);
    cfg_region(g, depth + 1);
    scope_restore(g, &s);
    kit_cg_builder_at(&g->b, b);
    cfg_region(g, depth + 1);
    scope_restore(g, &s);
  } else if (k < 7) { /* diamond: the join sees what dominates it */
    KitCgVal c = gen_cond(g);
    KitCgBlkId a = kit_cg_block_new(g->m, g->f), b = kit_cg_block_new(g->m, g->f);
    KitCgBlkId j = kit_cg_block_new(g->m, g->f);
    emit_condbr(g, c, a, b);
    Scope s = scope_save(g);
    kit_cg_builder_at(&g->b, a);
    straight(g, 1 + (int)rn(&g->r, 6));
    sink_stores(g);
    kit_cg_br(&g->b, j);
    scope_restore(g, &s);
    kit_cg_builder_at(&g->b, b);
    straight(g, (int)rn(&g->r, 6));
    kit_cg_br(&g->b, j);
    scope_restore(g, &s);
    kit_cg_builder_at(&g->b, j);
    cfg_region(g, depth + 1);
  } else if (k < 9) { /* triangle: a conditional detour */
    KitCgVal c = gen_cond(g);
    KitCgBlkId a = kit_cg_block_new(g->m, g->f), j = kit_cg_block_new(g->m, g->f);
    if (rp(&g->r, 50)) emit_condbr(g, c, a, j);
    else emit_condbr(g, c, j, a);
    Scope s = scope_save(g);
    kit_cg_builder_at(&g->b, a);
    straight(g, 1 + (int)rn(&g->r, 6));
    if (rp(&g->r, 30)) {
      emit_ret(g); /* an early exit instead */
    } else {
      sink_stores(g);
      kit_cg_br(&g->b, j);
    }
    scope_restore(g, &s);
    kit_cg_builder_at(&g->b, j);
    cfg_region(g, depth + 1);
  } else { /* plain jump */
    KitCgBlkId n = kit_cg_block_new(g->m, g->f);
    kit_cg_br(&g->b, n);
    kit_cg_builder_at(&g->b, n);
    cfg_region(g, depth + 1);
  }
}

/* many values live at once: computed first, consumed at the end */
static void pressure(Gen *g) {
  int n = 20 + (int)rn(&g->r, 30);
  KitCgVal live[64];
  g->consts_only = true;
  for (int i = 0; i < n; i++) {
    KitCgType t = rand_int_type(g);
    KitCgVal v;
    switch (rn(&g->r, 7)) {
    case 6: { /* division: rax/rdx are busy with other live values */
      if (t == T_I1) t = T_I32;
      KitCgVal d = kit_cg_binop(&g->b, KIT_CG_OP_OR, pick(g, t), kit_cg_iconst(&g->b, t, 1));
      KitCgVal x = kit_cg_binop(&g->b, KIT_CG_OP_LSHR, pick(g, t), kit_cg_iconst(&g->b, t, 1));
      v = kit_cg_binop(&g->b, KIT_CG_OP_SDIV + rn(&g->r, 4), x, d); /* sdiv udiv srem urem, x >= 0 */
      break;
    }
    case 0: {
      g->consts_only = false; /* loads use the buffer pointers */
      KitCgVal p = addr(g);
      g->consts_only = true;
      v = kit_cg_load(&g->b, rand_mem_type(g), p, rand_align(g), KIT_CG_PROGRAM);
      break;
    }
    case 1: v = kit_cg_binop(&g->b, KIT_CG_OP_MUL, pick(g, t), pick(g, t)); break;
    case 2: {
      KitCgPred p = (KitCgPred)rn(&g->r, 10);
      if (t == T_I1 && signed_pred(p)) t = T_I8;
      v = kit_cg_cmp(&g->b, p, pick(g, t), pick(g, t));
      break;
    }
    case 3: v = kit_cg_binop(&g->b, KIT_CG_OP_SHL + rn(&g->r, 3), pick(g, t), pick(g, t)); break;
    case 4: v = kit_cg_binop(&g->b, KIT_CG_OP_ADD + rn(&g->r, 2), pick(g, t), pick(g, t)); break;
    default:
      if (t == T_I1) t = T_I8;
      v = kit_cg_binop(&g->b, KIT_CG_OP_SMIN + rn(&g->r, 4), pick(g, t), pick(g, t));
      break;
    }
    live[i] = v;
    g->budget--;
  }
  g->consts_only = false;
  if (g->call_pct) gen_call(g); /* all of them live across a call */
  /* consume in a shuffled order */
  for (int i = n - 1; i > 0; i--) {
    int j = (int)rn(&g->r, (uint32_t)i + 1);
    KitCgVal t = live[i];
    live[i] = live[j];
    live[j] = t;
  }
  KitCgVal acc = to64(g, live[0]);
  for (int i = 1; i < n; i++) {
    if (rp(&g->r, 15)) kit_cg_store(&g->b, live[i], addr(g), 0, KIT_CG_INTERNAL);
    acc = kit_cg_binop(&g->b, rp(&g->r, 50) ? KIT_CG_OP_XOR : KIT_CG_OP_ADD, acc, to64(g, live[i]));
    if (i == n / 2 && g->call_pct) {
      KitCgVal a[2] = {acc, to64(g, live[0])};
      acc = kit_cg_call(&g->b, helper_sym(g->m, 3 + 0 * 0), T_I64,
                        (KitCgVal[3]){a[0], a[1], to64(g, live[n - 1])}, 3);
    }
  }
  push(g, acc);
  emit_ret(g);
}

typedef struct GenFunc {
  KitCgModule *m;
  KitCgFunc *f;
  uint64_t args[6], dirty[6];
  const char *shape;
  bool any_order; /* blocks numbered in an order that is not topological */
} GenFunc;

static void gen_args(Rng *r, const KitCgFunc *f, uint64_t *args, uint64_t *dirty) {
  Gen tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.r = *r;
  tmp.fav[0] = rnext(&tmp.r);
  tmp.fav[1] = 0x80;
  tmp.fav[2] = 0xffff;
  for (uint32_t i = 0; i < f->nparams; i++) {
    KitCgType t = (KitCgType)f->params[i].type;
    if (t == T_PTR) {
      args[i] = dirty[i] = (uint64_t)(uintptr_t)buf;
      continue;
    }
    args[i] = interesting(&tmp, t) & mask_of(t);
    dirty[i] = args[i];
    if (t != T_I64) dirty[i] |= rnext(&tmp.r) & 0xffffffff00000000ull; /* bits 32..63 are undefined */
  }
  *r = tmp.r;
}

static GenFunc gen_func(uint64_t seed) {
  static Gen g; /* large */
  memset(&g, 0, sizeof g);
  g.r.s = seed * 0x2545f4914f6cdd1dull + 0x1234567;
  rnext(&g.r);
  GenFunc gf;
  memset(&gf, 0, sizeof gf);
  g.m = kit_cg_module_new("x64diff");
  static const KitCgType rts[] = {T_I64, T_I64, T_I64, T_I64, T_I32, T_I32, T_I32, T_I16, T_I8, T_I1, T_PTR};
  g.rt = rts[rn(&g.r, rp(&g.r, 50) ? 10 : 11)];
  KitCgType ps[6];
  uint32_t np = 1 + rn(&g.r, 6);
  uint32_t bufp = rp(&g.r, 20) ? rn(&g.r, np) : 0; /* which parameter is the buffer */
  static const KitCgType pts[] = {T_I64, T_I64, T_I64, T_I64, T_I32, T_I32, T_I32, T_I16, T_I8, T_I8, T_I1, T_I1};
  for (uint32_t i = 0; i < np; i++) ps[i] = i == bufp ? T_PTR : pts[rn(&g.r, 12)];
  g.f = kit_cg_func_declare(g.m, "f", g.rt, ps, np, false);
  kit_cg_builder_init(&g.b, g.m, g.f);
  kit_cg_block_new(g.m, g.f);
  g.fav[0] = rnext(&g.r);
  g.fav[1] = rn(&g.r, 256);
  g.fav[2] = 0x7f;
  for (uint32_t i = 0; i < np; i++) push(&g, i + 1);
  g.dp[g.ndp++] = (DPtr){bufp + 1, 0, 0};
  uint32_t shape = rn(&g.r, 20);
  g.i1_signed = rp(&g.r, 3);
  g.tail_pct = rp(&g.r, 30) ? 60 : 8;
  if (shape < 4) {
    gf.shape = "pressure";
    g.budget = 400;
    g.call_pct = rp(&g.r, 40) ? 1 : 0;
    pressure(&g);
  } else if (shape < 8) {
    gf.shape = "straight";
    g.budget = 60 + (int)rn(&g.r, 60);
    g.call_pct = rp(&g.r, 30) ? 12 : 2;
    straight(&g, 25 + (int)rn(&g.r, 40));
    emit_ret(&g);
  } else if (shape < 11) {
    gf.shape = "calls";
    g.budget = 80 + (int)rn(&g.r, 60);
    g.call_pct = 30;
    cfg_region(&g, 1);
  } else {
    gf.shape = "cfg";
    g.budget = 60 + (int)rn(&g.r, 90);
    g.call_pct = 3;
    cfg_region(&g, 0);
  }
  /* blocks need not be numbered in generation order: mostly another
   * topological order of the CFG, sometimes any order (the compiler declines
   * functions whose numbering puts a use before its definition) */
  if (g.f->nblocks > 2 && rp(&g.r, 35)) {
    uint32_t n = g.f->nblocks, *perm = malloc(n * sizeof *perm), *pos = malloc(n * sizeof *pos);
    if (rp(&g.r, 25)) {
      gf.any_order = true;
      for (uint32_t i = 0; i < n; i++) perm[i] = i;
      for (uint32_t i = n - 1; i > 1; i--) {
        uint32_t j = 1 + rn(&g.r, i);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
    } else { /* Kahn's algorithm, picking a random ready block */
      uint32_t *indeg = calloc(n, sizeof *indeg), *ready = malloc(n * sizeof *ready), nr = 0, np = 0;
      for (uint32_t b = 0; b < n; b++) {
        const KitCgBlkId *sv;
        uint32_t ns = kit_cg_block_succs(g.f, b, &sv);
        for (uint32_t k = 0; k < ns; k++) indeg[sv[k]]++;
      }
      ready[nr++] = 0;
      while (nr) {
        uint32_t j = np == 0 ? 0 : rn(&g.r, nr), b = ready[j];
        ready[j] = ready[--nr];
        perm[np++] = b;
        const KitCgBlkId *sv;
        uint32_t ns = kit_cg_block_succs(g.f, b, &sv);
        for (uint32_t k = 0; k < ns; k++)
          if (--indeg[sv[k]] == 0) ready[nr++] = sv[k];
      }
      free(indeg);
      free(ready);
    }
    KitCgBlock *nb = malloc(n * sizeof *nb);
    for (uint32_t i = 0; i < n; i++) nb[i] = g.f->blocks[perm[i]], pos[perm[i]] = i;
    memcpy(g.f->blocks, nb, n * sizeof *nb);
    for (uint32_t i = 0; i < n; i++) {
      KitCgBlock *bb = &g.f->blocks[i];
      KitCgInst *t = &bb->insts[bb->ninsts - 1];
      for (uint32_t k = 0; k < t->nblks; k++) t->blks[k] = pos[t->blks[k]];
    }
    free(nb);
    free(perm);
    free(pos);
  }
  gen_args(&g.r, g.f, gf.args, gf.dirty);
  gf.m = g.m;
  gf.f = g.f;
  return gf;
}

/* ---- checking one function ------------------------------------------------------ */

static KitBaseline *x64;
static int failures, abi_failures, reported, hb_failures;
static unsigned long n_compiled, n_declined, n_run;
static bool last_declined;
static const char *last_why;
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

static void region_randomize(uint64_t seed) {
  Rng r = {seed ^ 0x5bd1e9955bd1e995ull};
  for (size_t i = 0; i < REGION; i += 8) {
    uint64_t v = rnext(&r);
    memcpy(region_init + i, &v, 8);
  }
  /* some small values and zeros the compares like */
  for (int i = 0; i < 48; i++) region_init[GUARD + rn(&r, BUFSZ)] = (unsigned char)rn(&r, 3);
}

/* a module named name holding f(ps) -> rt, with a builder at its first block */
typedef struct Dir {
  KitCgModule *m;
  KitCgFunc *f;
  KitCgBuilder b;
} Dir;
static Dir fn_new(const char *name, KitCgType rt, const KitCgType *ps, uint32_t np) {
  Dir d;
  d.m = kit_cg_module_new(name);
  d.f = kit_cg_func_declare(d.m, "f", rt, ps, np, false);
  kit_cg_builder_init(&d.b, d.m, d.f);
  kit_cg_block_new(d.m, d.f);
  return d;
}
static Dir dir_new(KitCgType rt, const KitCgType *ps, uint32_t np) { return fn_new("directed", rt, ps, np); }

__attribute__((noinline)) static char *module_text(const KitCgModule *m) {
  char *s = NULL;
  size_t n = 0;
  FILE *fp = open_memstream(&s, &n);
  kit_cg_print(m, fp);
  fclose(fp);
  return s;
}

/* KIT_X64_SELFTEST=1: the interpreter's host-callable trampolines stand in
 * for the compiler (checks this harness); =2: the same over a copy of the
 * module with every ashr turned into lshr (a planted bug for the reducer). */
static int selftest;
static KitCgModule *self_m;
static KitInterp *self_ip;
static void self_release(void) {
  if (self_ip) kit_interp_free(self_ip);
  if (self_m) kit_cg_module_free(self_m);
  self_ip = NULL;
  self_m = NULL;
}
static void *compile_fn(KitCgModule *m, KitCgFunc *f, const char **why) {
  if (!selftest) return kit_baseline_compile(x64, m, f, why);
  self_release();
  char *text = module_text(m);
  self_m = kit_cg_parse(text, strlen(text), "self", stderr);
  free(text);
  if (!self_m) return NULL;
  for (uint32_t i = 0; selftest == 2 && i < self_m->nfuncs; i++) {
    KitCgFunc *g = self_m->funcs[i];
    for (uint32_t b = 0; b < g->nblocks; b++)
      for (uint32_t k = 0; k < g->blocks[b].ninsts; k++)
        if (g->blocks[b].insts[k].op == KIT_CG_OP_ASHR) g->blocks[b].insts[k].op = KIT_CG_OP_LSHR;
  }
  self_ip = kit_interp_new(self_m, resolve, NULL, stderr);
  void *code = self_ip ? kit_interp_symbol(self_ip, kit_cg_func_name(m, f)) : NULL;
  if (!code && why) *why = "selftest: no trampoline";
  return code;
}

/* Triage heuristic: does the code name ah/ch/dh/bh where sil/dil/spl/bpl
 * was surely meant (a byte register 4..7 without a REX prefix in movzx/movsx,
 * setcc or a byte store)? Immediates can make it a false positive. */
static bool code_has_highbyte(const unsigned char *c, size_t n) {
  for (size_t i = 0; i + 2 < n; i++) {
    bool rex = i > 0 && (c[i - 1] & 0xf0) == 0x40;
    if (rex) continue;
    if (c[i] == 0x0f && (c[i + 1] == 0xb6 || c[i + 1] == 0xbe) && (c[i + 2] >> 6) == 3 && (c[i + 2] & 4)) return true;
    if (c[i] == 0x0f && (c[i + 1] & 0xf0) == 0x90 && (c[i + 2] >> 6) == 3 && (c[i + 2] & 4)) return true;
    if (c[i] == 0x88 && (c[i + 1] & 0x20) && ((c[i + 1] >> 3) & 7) >= 4 && (c[i + 1] >> 6) != 3) {
      if (i >= 1 && c[i - 1] == 0x66) continue;
      return true;
    }
  }
  return false;
}
static bool no_abi; /* KIT_X64_NO_ABI=1: no dirty-argument runs, no abi_*.cg cases */
static bool nohb; /* KIT_X64_NOHB=1: reductions must not introduce that pattern */
static bool last_hb;

/* 1 = mismatch, 0 = agree, -1 = not a valid test (bad module, interp trap, declined) */
static int check_text(const char *text, const uint64_t *args, bool quiet) {
  KitCgModule *m = kit_cg_parse(text, strlen(text), "red", quiet ? NULL : stderr);
  if (!m) return -1;
  int res = -1;
  KitCgSym s = kit_cg_sym_find(m, "f");
  if (s != UINT32_MAX && kit_cg_verify(m, NULL) == 0) {
    KitCgFunc *f = kit_cg_func_of(m, s);
    FILE *devnull = fopen("/dev/null", "w");
    KitInterp *ip = kit_interp_new(m, resolve, NULL, devnull);
    if (ip && run_interp(ip, f, args, &out_i) == 0) {
      size_t size0 = x64 ? kit_baseline_code_size(x64) : 0;
      void *code = compile_fn(m, f, NULL);
      if (code && nohb && x64 && code_has_highbyte(code, kit_baseline_code_size(x64) - size0)) code = NULL;
      if (code) {
        run_x64(code, f, args, &out_x);
        char why[256];
        res = differs(&out_i, &out_x, why, sizeof why) ? 1 : 0;
      }
    }
    if (ip) kit_interp_free(ip);
    fclose(devnull);
  }
  kit_cg_module_free(m);
  return res;
}

/* ---- the reducer: replace values by constants, drop stores, fold branches ---- */

static bool val_used_as_callee(const KitCgFunc *f, KitCgVal v) {
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      if (in->op == KIT_CG_OP_CALLI && in->nargs && in->args[0] == v) return true;
    }
  return false;
}
static bool val_used(const KitCgFunc *f, KitCgVal v) {
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      for (uint32_t k = 0; k < in->nargs; k++)
        if (in->args[k] == v) return true;
    }
  return false;
}
static void replace_uses(KitCgFunc *f, KitCgVal from, KitCgVal to) {
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      KitCgInst *in = &f->blocks[b].insts[i];
      for (uint32_t k = 0; k < in->nargs; k++)
        if (in->args[k] == from) in->args[k] = to;
    }
}
static void make_const(KitCgInst *in, uint64_t imm) {
  in->op = KIT_CG_OP_CONST;
  in->nargs = 0;
  in->args = NULL;
  in->nblks = 0;
  in->blks = NULL;
  in->imm = imm;
  in->imm2 = 0;
  in->flags = 0;
  in->cls = 0;
  in->pred = 0;
  in->aux = 0;
  in->type2 = T_VOID;
  in->argattrs = NULL;
}
static void delete_inst(KitCgFunc *f, uint32_t b, uint32_t i) {
  KitCgBlock *bb = &f->blocks[b];
  memmove(&bb->insts[i], &bb->insts[i + 1], (bb->ninsts - i - 1) * sizeof(KitCgInst));
  bb->ninsts--;
}
static void cleanup(KitCgModule *m, KitCgFunc *f) {
  (void)m;
  /* drop blocks no longer reachable, keeping the order */
  uint32_t nb = f->nblocks;
  bool *reach = calloc(nb, 1);
  uint32_t *stack = calloc(nb + 1, sizeof *stack), sp = 0, *map = calloc(nb, sizeof *map);
  reach[0] = true;
  stack[sp++] = 0;
  while (sp) {
    uint32_t b = stack[--sp];
    const KitCgBlkId *s;
    uint32_t ns = kit_cg_block_succs(f, b, &s);
    for (uint32_t k = 0; k < ns; k++)
      if (!reach[s[k]]) reach[s[k]] = true, stack[sp++] = s[k];
  }
  uint32_t n = 0;
  for (uint32_t b = 0; b < nb; b++) {
    map[b] = n;
    if (reach[b]) f->blocks[n++] = f->blocks[b];
  }
  f->nblocks = n;
  for (uint32_t b = 0; b < n; b++) {
    KitCgBlock *bb = &f->blocks[b];
    if (!bb->ninsts) continue;
    KitCgInst *t = &bb->insts[bb->ninsts - 1];
    for (uint32_t k = 0; k < t->nblks; k++) t->blks[k] = map[t->blks[k]];
  }
  free(reach);
  free(stack);
  free(map);
  /* dead pure values */
  for (bool again = true; again;) {
    again = false;
    for (uint32_t b = 0; b < f->nblocks; b++)
      for (uint32_t i = f->blocks[b].ninsts; i-- > 0;) {
        KitCgInst *in = &f->blocks[b].insts[i];
        unsigned fl = kit_cg_op_info[in->op].flags;
        if (!in->id || (fl & (KIT_CGO_SIDE | KIT_CGO_TERM))) continue;
        if ((fl & KIT_CGO_MEM) && (in->op != KIT_CG_OP_LOAD || (in->flags & KIT_CG_F_VOLATILE))) continue;
        if (!val_used(f, in->id)) {
          delete_inst(f, b, i);
          again = true;
        }
      }
  }
}

typedef struct Cand {
  uint32_t b, i, v;
} Cand;

/* values that flow into an address or a callee: only ever replaced by 0 (the
 * generator's offsets are masks of them, so 0 stays in bounds) */
static void addr_taint(const KitCgFunc *f, bool *taint) {
  memset(taint, 0, f->nvals);
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      if (in->op == KIT_CG_OP_PTRADD) taint[in->args[1]] = true;
      if (in->op == KIT_CG_OP_INTTOPTR || in->op == KIT_CG_OP_CALLI) taint[in->args[0]] = true;
    }
  for (bool again = true; again;) {
    again = false;
    for (uint32_t b = f->nblocks; b-- > 0;)
      for (uint32_t i = f->blocks[b].ninsts; i-- > 0;) {
        const KitCgInst *in = &f->blocks[b].insts[i];
        if (!in->id || !taint[in->id]) continue;
        for (uint32_t k = 0; k < in->nargs; k++)
          if (!taint[in->args[k]]) taint[in->args[k]] = again = true;
      }
  }
}

/* the candidate mutations of the function, in a fixed order */
static int candidates(const KitCgFunc *f, Cand *c, int max) {
  int n = 0;
  bool *taint = malloc(f->nvals + 1);
  addr_taint(f, taint);
  c[n++] = (Cand){UINT32_MAX, 0, 0}; /* hoist and merge the constants */
  c[n++] = (Cand){UINT32_MAX, 0, 1}; /* merge straight-line block chains */
  for (uint32_t b = f->nblocks; b-- > 0;)
    for (uint32_t i = f->blocks[b].ninsts; i-- > 0;) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      uint32_t nv = 0;
      if (in->op == KIT_CG_OP_CONDBR) nv = 2;
      else if (in->op == KIT_CG_OP_CONST) nv = in->imm && in->type != T_PTR && !taint[in->id] ? 1 : 0;
      else if (in->op == KIT_CG_OP_RET || in->op == KIT_CG_OP_BR) nv = 0;
      else if (in->id && in->type == T_PTR) nv = val_used_as_callee(f, in->id) ? 0 : 1;
      else if (in->id) nv = taint[in->id] ? 1 : 1 + in->nargs;
      else nv = 1; /* store, fence, void call: delete */
      /* a tail call stays a tail call (its ret uses it) */
      if ((in->op == KIT_CG_OP_CALL || in->op == KIT_CG_OP_CALLI) && (in->flags & KIT_CG_F_TAIL)) nv = 0;
      for (uint32_t v = 0; v < nv && n < max; v++) c[n++] = (Cand){b, i, v};
    }
  free(taint);
  return n;
}

static void hoist_consts(KitCgModule *m, KitCgFunc *f) {
  uint32_t total = 0;
  for (uint32_t b = 0; b < f->nblocks; b++) total += f->blocks[b].ninsts;
  KitCgInst *consts = calloc(total + 1, sizeof *consts);
  uint32_t nc = 0;
  for (uint32_t b = 0; b < f->nblocks; b++) {
    KitCgBlock *bb = &f->blocks[b];
    uint32_t k = 0;
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      KitCgInst *in = &bb->insts[i];
      if (in->op != KIT_CG_OP_CONST) {
        bb->insts[k++] = *in;
        continue;
      }
      uint32_t j = 0;
      while (j < nc && !(consts[j].type == in->type && consts[j].imm == in->imm && consts[j].imm2 == in->imm2)) j++;
      if (j < nc) replace_uses(f, in->id, consts[j].id);
      else consts[nc++] = *in;
    }
    bb->ninsts = k;
  }
  KitCgBlock *e = &f->blocks[0];
  KitCgInst *ni = kit_cg_alloc(m, (nc + e->ninsts + 1) * sizeof *ni);
  memcpy(ni, consts, nc * sizeof *ni);
  memcpy(ni + nc, e->insts, e->ninsts * sizeof *ni);
  e->insts = ni;
  e->ninsts += nc;
  e->cap = e->ninsts + 1;
  free(consts);
}
static void merge_chains(KitCgModule *m, KitCgFunc *f) {
  for (bool again = true; again;) {
    again = false;
    uint32_t *preds = calloc(f->nblocks, sizeof *preds);
    for (uint32_t b = 0; b < f->nblocks; b++) {
      const KitCgBlkId *sv;
      uint32_t ns = kit_cg_block_succs(f, b, &sv);
      for (uint32_t k = 0; k < ns; k++) preds[sv[k]]++;
    }
    for (uint32_t a = 0; a < f->nblocks && !again; a++) {
      KitCgBlock *ab = &f->blocks[a];
      if (!ab->ninsts) continue;
      KitCgInst *t = &ab->insts[ab->ninsts - 1];
      if (t->op != KIT_CG_OP_BR || t->blks[0] == 0 || t->blks[0] == a || preds[t->blks[0]] != 1) continue;
      KitCgBlock *bb = &f->blocks[t->blks[0]];
      KitCgInst *ni = kit_cg_alloc(m, (ab->ninsts - 1 + bb->ninsts + 1) * sizeof *ni);
      memcpy(ni, ab->insts, (ab->ninsts - 1) * sizeof *ni);
      memcpy(ni + ab->ninsts - 1, bb->insts, bb->ninsts * sizeof *ni);
      ab->insts = ni;
      ab->ninsts = ab->ninsts - 1 + bb->ninsts;
      ab->cap = ab->ninsts + 1;
      bb->ninsts = 0; /* unreachable now: cleanup drops it */
      again = true;
    }
    free(preds);
    cleanup(m, f);
  }
}

static bool apply(KitCgModule *m, KitCgFunc *f, Cand c) {
  if (c.b == UINT32_MAX) {
    if (c.v == 0) hoist_consts(m, f);
    else merge_chains(m, f);
    cleanup(m, f);
    return true;
  }
  KitCgInst *in = &f->blocks[c.b].insts[c.i];
  if (in->op == KIT_CG_OP_CONDBR) {
    KitCgBlkId to = in->blks[c.v];
    in->op = KIT_CG_OP_BR;
    in->nargs = 0;
    in->args = NULL;
    in->flags = 0;
    in->blks[0] = to;
    in->nblks = 1;
  } else if (in->op == KIT_CG_OP_CONST) {
    in->imm = c.v == 0 ? 0 : 1;
  } else if (in->id && in->type == T_PTR) {
    KitCgVal bufv = 0;
    for (uint32_t i = 0; i < f->nparams && !bufv; i++)
      if (f->params[i].type == T_PTR) bufv = i + 1;
    if (!bufv) return false;
    replace_uses(f, in->id, bufv); /* the buffer */
    make_const(in, 0);
  } else if (in->id) {
    if (c.v == 0) {
      make_const(in, 0);
    } else {
      KitCgVal a = in->args[c.v - 1];
      if (kit_cg_val_type(f, a) != in->type || a == in->id) return false;
      replace_uses(f, in->id, a);
      make_const(in, 0);
    }
  } else {
    delete_inst(f, c.b, c.i);
  }
  cleanup(m, f);
  return true;
}

static char *reduce(const char *text, const uint64_t *args) {
  char *cur = strdup(text);
  int pos = 0, trials = 0;
  bool progress = false;
  Cand *cs = malloc(8192 * sizeof *cs);
  while (trials < 3000) {
    KitCgModule *m = kit_cg_parse(cur, strlen(cur), "red", NULL);
    if (!m) break;
    KitCgFunc *f = kit_cg_func_of(m, kit_cg_sym_find(m, "f"));
    int n = candidates(f, cs, 8192);
    if (pos >= n) {
      kit_cg_module_free(m);
      if (!progress) break;
      progress = false;
      pos = 0;
      continue;
    }
    char *next = NULL;
    if (apply(m, f, cs[pos])) next = module_text(m);
    kit_cg_module_free(m);
    trials++;
    if (next && strcmp(next, cur) && check_text(next, args, true) == 1) {
      free(cur);
      cur = next;
      progress = true;
    } else {
      free(next);
      pos++;
    }
  }
  free(cs);
  return cur;
}

static void print_outcome(const char *who, const Outcome *o, KitCgType rt) {
  fprintf(stderr, "  %s: status %d, result 0x%llx (%s; raw 0x%llx), %d host calls\n", who, o->status,
          (unsigned long long)o->ret, kit_cg_type_name(rt), (unsigned long long)o->rawret, o->nlog);
}

static void report(const char *what, uint64_t seed, KitCgModule *m, KitCgFunc *f, const uint64_t *args,
                   const char *why) {
  fprintf(stderr, "\n==== x64 MISMATCH (%s): seed %llu (rerun: KIT_X64_SEED=%llu): %s\n", what,
          (unsigned long long)seed, (unsigned long long)seed, why);
  fprintf(stderr, "  args:");
  for (uint32_t i = 0; i < f->nparams; i++)
    fprintf(stderr, " %s 0x%llx", kit_cg_type_name((KitCgType)f->params[i].type), (unsigned long long)args[i]);
  fprintf(stderr, "%s\n", f->nparams && f->params[0].type == T_PTR ? "  (first = the scratch buffer)" : "");
  print_outcome("interp", &out_i, (KitCgType)f->ret[0]);
  print_outcome("x64   ", &out_x, (KitCgType)f->ret[0]);
  if (seed && reported++ >= 8) {
    fprintf(stderr, "  (module and reduction skipped after 8 reports)\n");
    return;
  }
  char *text = module_text(m);
  fprintf(stderr, "---- function:\n%s", text);
  if (seed) {
    uint64_t a[6];
    memcpy(a, args, sizeof a);
    if (check_text(text, a, true) == 1) {
      char *red = reduce(text, a);
      check_text(red, a, true);
      char w2[256];
      const char *d = differs(&out_i, &out_x, w2, sizeof w2);
      fprintf(stderr, "---- reduced (%s):\n%s", d ? d : "?", red);
      print_outcome("interp", &out_i, (KitCgType)f->ret[0]);
      print_outcome("x64   ", &out_x, (KitCgType)f->ret[0]);
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

/* runs f (already verified) both ways on the given arguments; dirty = the
 * arguments with garbage in the undefined upper bits. Returns 1 on mismatch. */
static int check_func(uint64_t seed, KitCgModule *m, KitCgFunc *f, const uint64_t *args, const uint64_t *dirty,
                      bool verbose) {
  KitInterp *ip = kit_interp_new(m, resolve, NULL, stderr);
  if (!ip) {
    fprintf(stderr, "seed %llu: kit_interp_new failed\n", (unsigned long long)seed);
    failures++;
    return 1;
  }
  const char *why = NULL;
  size_t size0 = x64 ? kit_baseline_code_size(x64) : 0;
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
  last_hb = x64 && code_has_highbyte(code, kit_baseline_code_size(x64) - size0);
  if (verbose && x64) { /* the code, for objdump -D -b binary -mi386:x86-64 */
    size_t n = kit_baseline_code_size(x64) - size0;
    FILE *fp = fopen("x64_code.bin", "wb");
    if (fp) {
      fwrite(code, 1, n, fp);
      fclose(fp);
      fprintf(stderr, "code: %zu bytes written to x64_code.bin (objdump -D -b binary -mi386:x86-64 x64_code.bin)\n", n);
    }
  }
  if (run_interp(ip, f, args, &out_i)) {
    fprintf(stderr, "seed %llu: the interpreter trapped (generator bug)\n", (unsigned long long)seed);
    kit_cg_print(m, stderr);
    failures++;
    kit_interp_free(ip);
    return 1;
  }
  Outcome ref = out_i; /* struct copy: the interpreter's outcome */
  (void)ref;
  run_x64(code, f, args, &out_x);
  n_run++;
  char w[256];
  const char *d = differs(&out_i, &out_x, w, sizeof w);
  /* the contract: narrow results zero-extended (a tail call returns what its
   * callee leaves in rax) */
  uint64_t msk = mask_of((KitCgType)f->ret[0]);
  if (!d && !out_x.status && (out_x.rawret & ~msk) && !has_tail_call(f)) {
    snprintf(w, sizeof w, "narrow result not zero-extended: raw 0x%llx", (unsigned long long)out_x.rawret);
    d = w;
  }
  if (verbose) {
    print_outcome("interp", &out_i, (KitCgType)f->ret[0]);
    print_outcome("x64   ", &out_x, (KitCgType)f->ret[0]);
  }
  if (d) {
    failures++;
    bad = 1;
    if (last_hb) hb_failures++;
    report("result/memory/calls", seed, m, f, args, d);
  } else if (dirty && !no_abi && memcmp(args, dirty, f->nparams * sizeof *args)) {
    run_x64(code, f, dirty, &out_x);
    d = differs(&out_i, &out_x, w, sizeof w);
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

static int sanity(void) {
  int bad = 0;
  Rng r = {99};
  for (int h = 0; h < NHELPERS; h++)
    for (int indirect = 0; indirect < 2; indirect++) {
      KitCgType ps[6];
      for (int i = 0; i < 6; i++) ps[i] = T_I64;
      Dir d = fn_new("sanity", T_I64, ps, 6);
      KitCgModule *m = d.m;
      KitCgFunc *f = d.f;
      KitCgBuilder b = d.b;
      KitCgVal a[6];
      for (int i = 0; i < helpers[h].nargs; i++) a[i] = (KitCgVal)(i + 1);
      if (helpers[h].bufarg) a[0] = kit_cg_conv(&b, KIT_CG_OP_INTTOPTR, T_PTR, 1);
      KitCgVal res;
      if (indirect) {
        KitCgVal fp = kit_cg_conv(&b, KIT_CG_OP_INTTOPTR, T_PTR,
                                  kit_cg_iconst(&b, T_I64, helpers[h].stub));
        res = kit_cg_calli(&b, fp, helpers[h].ret, a, (uint32_t)helpers[h].nargs);
      } else {
        res = kit_cg_call(&b, helper_sym(m, h), helpers[h].ret, a, (uint32_t)helpers[h].nargs);
      }
      if (helpers[h].ret == T_VOID) res = kit_cg_iconst(&b, T_I64, 0);
      else if (helpers[h].ret != T_I64) res = kit_cg_conv(&b, KIT_CG_OP_ZEXT, T_I64, res);
      kit_cg_ret(&b, res);
      if (kit_cg_verify(m, stderr)) return 1;
      KitInterp *ip = kit_interp_new(m, resolve, NULL, stderr);
      for (int rep = 0; rep < 20; rep++) {
        uint64_t args[6];
        args[0] = (uint64_t)(uintptr_t)(buf + rn(&r, BUFSZ - 64));
        for (int i = 1; i < 6; i++) args[i] = rnext(&r);
        run_interp(ip, f, args, &out_i);
        /* plain C */
        reset_state();
        const uint64_t *x = args;
        uint64_t want = 0;
        switch (h) {
        case 0: want = kx_h0(); break;
        case 1: want = kx_h1(x[0]); break;
        case 2: want = kx_h2(x[0], x[1]); break;
        case 3: want = kx_h3(x[0], x[1], x[2]); break;
        case 4: want = kx_h4(x[0], x[1], x[2], x[3]); break;
        case 5: want = kx_h5(x[0], x[1], x[2], x[3], x[4]); break;
        case 6: want = kx_h6(x[0], x[1], x[2], x[3], x[4], x[5]); break;
        case 7: kx_v1(x[0]); break;
        case 8: kx_v3(x[0], x[1], x[2]); break;
        case 9: kx_v6(x[0], x[1], x[2], x[3], x[4], x[5]); break;
        case 10: want = kx_hbuf((void *)(uintptr_t)x[0], x[1]); break;
        case 11: want = kx_dirty32(x[0], x[1]); break;
        case 12: want = kx_dirty8(x[0], x[1]); break;
        case 13: want = kx_dirty16(x[0], x[1]); break;
        default: want = kx_bool(x[0], x[1]); break;
        }
        out_x.status = 0;
        out_x.clobbered = NULL;
        out_x.ret = out_x.rawret = want;
        save_state(&out_x);
        char w[256];
        const char *d = differs(&out_i, &out_x, w, sizeof w);
        if (out_i.status || d) {
          fprintf(stderr, "sanity: helper %s (%s): interp disagrees with C: %s\n", helpers[h].name,
                  indirect ? "calli" : "call", d ? d : "trap");
          bad = 1;
          break;
        }
        if (out_i.nlog != 1 || out_i.log[0].misaligned) {
          fprintf(stderr, "sanity: helper %s: bad log\n", helpers[h].name);
          bad = 1;
          break;
        }
      }
      kit_interp_free(ip);
      kit_cg_module_free(m);
    }
  return bad;
}

/* ---- directed cases ---------------------------------------------------------------- */

static int directed_fail;
/* runs d on args (the scratch buffer is always param 0 when it is a ptr) and
 * checks both executors against want; raw: x64's full rax must equal want */
static void dir_check(const char *name, Dir *d, const uint64_t *args, uint64_t want, bool raw) {
  if (kit_cg_verify(d->m, stderr)) {
    fprintf(stderr, "directed %s: module does not verify\n", name);
    directed_fail++;
    return;
  }
  int before = failures;
  check_func(0, d->m, d->f, args, NULL, false);
  if (failures != before) {
    fprintf(stderr, "  (directed case %s)\n", name);
    directed_fail++;
    return;
  }
  if (last_declined) {
    fprintf(stderr, "directed %s: declined (%s)\n", name, last_why ? last_why : "?");
    KitInterp *ip = kit_interp_new(d->m, resolve, NULL, stderr);
    run_interp(ip, d->f, args, &out_i);
    kit_interp_free(ip);
    out_x.status = -1;
  }
  KitCgType rt = (KitCgType)d->f->ret[0];
  if ((out_i.ret & mask_of(rt)) != want) {
    fprintf(stderr, "directed %s: interpreter gives 0x%llx, expected 0x%llx\n", name,
            (unsigned long long)out_i.ret, (unsigned long long)want);
    directed_fail++;
  }
  /* the x64 outcome is only there when compiled */
  if (!last_declined && out_x.status == 0 && raw && out_x.rawret != want) {
    fprintf(stderr, "directed %s: x64 returns raw 0x%llx, expected 0x%llx (narrow result not zero-extended)\n",
            name, (unsigned long long)out_x.rawret, (unsigned long long)want);
    directed_fail++;
  }
}
static void dir_free(Dir *d) { kit_cg_module_free(d->m); }
/* f(x, y) = x op y in type t must be want; swapped: f(y, x) too */
static void dir_binop(const char *name, KitCgType t, KitCgOp op, uint64_t x, uint64_t y, uint64_t want, bool swapped) {
  KitCgType ps[2] = {t, t};
  Dir d = dir_new(t, ps, 2);
  kit_cg_ret(&d.b, kit_cg_binop(&d.b, op, 1, 2));
  uint64_t a[2] = {x, y};
  dir_check(name, &d, a, want, true);
  if (swapped) {
    char sname[96];
    snprintf(sname, sizeof sname, "%s (swapped)", name);
    uint64_t b[2] = {y, x};
    dir_check(sname, &d, b, want, true);
  }
  dir_free(&d);
}

static uint64_t sx(uint64_t v, unsigned bits) {
  uint64_t top = 1ull << (bits - 1);
  v &= bits == 64 ? ~0ull : (1ull << bits) - 1;
  return (v ^ top) - top;
}

static void directed(void) {
  static const KitCgType narrow[] = {T_I1, T_I8, T_I16, T_I32};
  /* narrow results zero-extended: x - y and trunc */
  for (int k = 0; k < 4; k++) {
    KitCgType t = narrow[k], ps[2] = {t, t};
    Dir d = dir_new(t, ps, 2);
    kit_cg_ret(&d.b, kit_cg_binop(&d.b, KIT_CG_OP_SUB, 1, 2));
    uint64_t a[2] = {0, 1};
    dir_check("zext result of sub", &d, a, mask_of(t), true);
    dir_free(&d);
    KitCgType p64 = T_I64;
    d = dir_new(t, &p64, 1);
    kit_cg_ret(&d.b, kit_cg_conv(&d.b, KIT_CG_OP_TRUNC, t, 1));
    uint64_t a1[1] = {0xffffffffffffffffull};
    dir_check("zext result of trunc", &d, a1, mask_of(t), true);
    dir_free(&d);
    /* a narrow load returned as is */
    if (t != T_I1) {
      KitCgType pp = T_PTR;
      d = dir_new(t, &pp, 1);
      kit_cg_store(&d.b, kit_cg_iconst(&d.b, T_I64, ~0ull), 1, 1, KIT_CG_PROGRAM);
      kit_cg_ret(&d.b, kit_cg_load(&d.b, t, 1, 1, KIT_CG_PROGRAM));
      uint64_t ab[1] = {(uint64_t)(uintptr_t)buf};
      dir_check("zext result of load", &d, ab, mask_of(t), true);
      dir_free(&d);
    }
  }
  /* sext of i1/i8/i16/i32 to i64, and zext */
  for (int k = 0; k < 4; k++) {
    KitCgType t = narrow[k];
    unsigned bits = kit_cg_type_bits(t);
    Dir d = dir_new(T_I64, &t, 1);
    kit_cg_ret(&d.b, kit_cg_conv(&d.b, KIT_CG_OP_SEXT, T_I64, 1));
    uint64_t a[1] = {1ull << (bits - 1)};
    dir_check("sext to i64", &d, a, sx(a[0], bits), true);
    uint64_t a2[1] = {(1ull << (bits - 1)) - 1};
    dir_check("sext to i64 (positive)", &d, a2, a2[0], true);
    dir_free(&d);
    d = dir_new(T_I64, &t, 1);
    kit_cg_ret(&d.b, kit_cg_conv(&d.b, KIT_CG_OP_ZEXT, T_I64, kit_cg_binop(&d.b, KIT_CG_OP_ADD, 1, 1)));
    uint64_t a3[1] = {mask_of(t)};
    dir_check("zext of add to i64", &d, a3, (mask_of(t) * 2) & mask_of(t), true);
    dir_free(&d);
    /* sext to every wider type, then zext to i64 */
    for (int j = k + 1; j < 4; j++) {
      d = dir_new(T_I64, &t, 1);
      KitCgVal s = kit_cg_conv(&d.b, KIT_CG_OP_SEXT, narrow[j], 1);
      kit_cg_ret(&d.b, kit_cg_conv(&d.b, KIT_CG_OP_ZEXT, T_I64, s));
      dir_check("sext then zext", &d, a, sx(a[0], bits) & mask_of(narrow[j]), true);
      dir_free(&d);
    }
  }
  /* trunc to i1 */
  {
    KitCgType p = T_I64;
    Dir d = dir_new(T_I64, &p, 1);
    kit_cg_ret(&d.b, kit_cg_conv(&d.b, KIT_CG_OP_ZEXT, T_I64, kit_cg_conv(&d.b, KIT_CG_OP_TRUNC, T_I1, 1)));
    uint64_t a[1] = {2};
    dir_check("trunc to i1 (2)", &d, a, 0, true);
    a[0] = 0xffffffff00000003ull;
    dir_check("trunc to i1 (3)", &d, a, 1, true);
    dir_free(&d);
    Dir e = dir_new(T_I1, &p, 1);
    kit_cg_ret(&e.b, kit_cg_conv(&e.b, KIT_CG_OP_TRUNC, T_I1, 1));
    a[0] = 0xfe;
    dir_check("ret trunc to i1", &e, a, 0, true);
    a[0] = 0xff;
    dir_check("ret trunc to i1", &e, a, 1, true);
    dir_free(&e);
    /* condbr on a trunc to i1 */
    Dir c = dir_new(T_I32, &p, 1);
    KitCgBlkId b1 = kit_cg_block_new(c.m, c.f), b2 = kit_cg_block_new(c.m, c.f);
    kit_cg_condbr(&c.b, kit_cg_conv(&c.b, KIT_CG_OP_TRUNC, T_I1, 1), b1, b2);
    kit_cg_builder_at(&c.b, b1);
    kit_cg_ret(&c.b, kit_cg_iconst(&c.b, T_I32, 11));
    kit_cg_builder_at(&c.b, b2);
    kit_cg_ret(&c.b, kit_cg_iconst(&c.b, T_I32, 22));
    a[0] = 2;
    dir_check("condbr on trunc i1", &c, a, 22, true);
    dir_free(&c);
  }
  /* ashr of negative i8/i16/i32 (and amounts >= width, taken modulo) */
  for (int k = 1; k < 4; k++) {
    KitCgType t = narrow[k], ps[2] = {t, t};
    unsigned bits = kit_cg_type_bits(t);
    Dir d = dir_new(t, ps, 2);
    kit_cg_ret(&d.b, kit_cg_binop(&d.b, KIT_CG_OP_ASHR, 1, 2));
    uint64_t amts[] = {1, 3, bits - 1, bits, bits + 1, 2 * bits - 1};
    for (int i = 0; i < 6; i++) {
      uint64_t a[2] = {1ull << (bits - 1) | 2, amts[i] & mask_of(t)};
      dir_check("ashr negative", &d, a, (sx(a[0], bits) >> (amts[i] % bits)) & mask_of(t), true);
    }
    dir_free(&d);
    /* and shl/lshr by out-of-range constants */
    d = dir_new(t, ps, 2);
    KitCgVal s1 = kit_cg_binop(&d.b, KIT_CG_OP_SHL, 1, kit_cg_iconst(&d.b, t, bits + 1));
    KitCgVal s2 = kit_cg_binop(&d.b, KIT_CG_OP_LSHR, s1, kit_cg_iconst(&d.b, t, bits));
    kit_cg_ret(&d.b, kit_cg_binop(&d.b, KIT_CG_OP_XOR, s2, kit_cg_binop(&d.b, KIT_CG_OP_ASHR, 1, kit_cg_iconst(&d.b, t, bits * 3 + 2))));
    uint64_t a[2] = {1ull << (bits - 1) | 5, 0};
    uint64_t x = a[0];
    uint64_t want = ((((x << 1) & mask_of(t)) >> 0) ^ (sx(x, bits) >> 2)) & mask_of(t);
    dir_check("shifts by out-of-range constants", &d, a, want, true);
    dir_free(&d);
  }
  /* i64 shifts by out-of-range variable amounts */
  {
    static const KitCgOp ops[3] = {KIT_CG_OP_SHL, KIT_CG_OP_LSHR, KIT_CG_OP_ASHR};
    for (int o = 0; o < 3; o++) {
      uint64_t x = 0x8000000000000081ull;
      uint64_t want = o == 0 ? x << 1 : o == 1 ? x >> 1 : (uint64_t)((int64_t)x >> 1);
      dir_binop("i64 shift by 65", T_I64, ops[o], x, 65, want, false);
    }
  }
  /* udiv/urem of large u64, sdiv/srem negative */
  {
    struct { KitCgOp op; uint64_t x, y, want; } cs[] = {
        {KIT_CG_OP_UDIV, ~0ull, 3, 0x5555555555555555ull},
        {KIT_CG_OP_UDIV, ~0ull, 0x8000000000000001ull, 1},
        {KIT_CG_OP_UREM, 0xfffffffffffffffeull, 0x8000000000000001ull, 0x7ffffffffffffffdull},
        {KIT_CG_OP_UREM, ~0ull, 10, 5},
        {KIT_CG_OP_UDIV, 0x8000000000000000ull, ~0ull, 0},
        {KIT_CG_OP_SDIV, (uint64_t)-7, 2, (uint64_t)-3},
        {KIT_CG_OP_SREM, (uint64_t)-7, 2, (uint64_t)-1},
        {KIT_CG_OP_SDIV, 0x8000000000000000ull, 2, 0xc000000000000000ull},
        {KIT_CG_OP_SREM, 0x8000000000000000ull, 3, (uint64_t)-2},
    };
    for (unsigned i = 0; i < sizeof cs / sizeof cs[0]; i++)
      dir_binop("division i64", T_I64, cs[i].op, cs[i].x, cs[i].y, cs[i].want, false);
    /* narrow signed division: -128 / 2 in i8, -7 % 2 in i16, i32 */
    struct { KitCgType t; KitCgOp op; uint64_t x, y, want; } ns[] = {
        {T_I8, KIT_CG_OP_SDIV, 0x80, 2, 0xc0},       {T_I8, KIT_CG_OP_UDIV, 0x80, 3, 0x2a},
        {T_I8, KIT_CG_OP_SREM, 0xf9, 2, 0xff},       {T_I16, KIT_CG_OP_SREM, 0xfff9, 2, 0xffff},
        {T_I16, KIT_CG_OP_SDIV, 0x8000, 0xffff - 1, 0x4000},
        {T_I32, KIT_CG_OP_SDIV, 0xfffffff9, 2, 0xfffffffd}, {T_I32, KIT_CG_OP_UREM, 0xfffffff9, 0x80000000, 0x7ffffff9},
    };
    for (unsigned i = 0; i < sizeof ns / sizeof ns[0]; i++)
      dir_binop("division narrow", ns[i].t, ns[i].op, ns[i].x, ns[i].y, ns[i].want, false);
  }
  /* smin/smax/umin/umax corners */
  {
    struct { KitCgType t; KitCgOp op; uint64_t x, y, want; } cs[] = {
        {T_I64, KIT_CG_OP_SMIN, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull},
        {T_I64, KIT_CG_OP_SMAX, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x7fffffffffffffffull},
        {T_I64, KIT_CG_OP_UMAX, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull},
        {T_I64, KIT_CG_OP_UMIN, 0, ~0ull, 0},
        {T_I8, KIT_CG_OP_SMIN, 0x80, 0x7f, 0x80},
        {T_I8, KIT_CG_OP_UMAX, 0x80, 0x7f, 0x80},
        {T_I8, KIT_CG_OP_SMAX, 0xff, 0x00, 0x00},
        {T_I16, KIT_CG_OP_UMIN, 0xffff, 0, 0},
        {T_I16, KIT_CG_OP_SMIN, 0xffff, 0, 0xffff},
        {T_I32, KIT_CG_OP_SMAX, 0x80000000, 0, 0},
        {T_I32, KIT_CG_OP_UMAX, 0x80000000, 0x7fffffff, 0x80000000},
        {T_I1, KIT_CG_OP_SMIN, 1, 0, 1},
        {T_I1, KIT_CG_OP_UMIN, 1, 0, 0},
    };
    for (unsigned i = 0; i < sizeof cs / sizeof cs[0]; i++)
      dir_binop("min/max corner", cs[i].t, cs[i].op, cs[i].x, cs[i].y, cs[i].want, true);
  }
  /* icmp of i8 0x80 vs 0x7f, all predicates, to i1 and through select */
  {
    static const int want[10] = {0, 1, 1, 1, 0, 0, 0, 0, 1, 1}; /* eq ne slt sle sgt sge ult ule ugt uge */
    KitCgType p2[2] = {T_I8, T_I8};
    for (int p = 0; p < 10; p++) {
      Dir d = dir_new(T_I1, p2, 2);
      kit_cg_ret(&d.b, kit_cg_cmp(&d.b, (KitCgPred)p, 1, 2));
      uint64_t a[2] = {0x80, 0x7f};
      dir_check("icmp i8 0x80 vs 0x7f", &d, a, (uint64_t)want[p], true);
      dir_free(&d);
      d = dir_new(T_I32, p2, 2);
      KitCgVal c = kit_cg_cmp(&d.b, (KitCgPred)p, 1, 2);
      kit_cg_ret(&d.b, kit_cg_select(&d.b, c, kit_cg_iconst(&d.b, T_I32, 100), kit_cg_iconst(&d.b, T_I32, 200)));
      dir_check("icmp i8 + select", &d, a, want[p] ? 100 : 200, true);
      dir_free(&d);
    }
  }
  /* a store of an i1 */
  {
    KitCgType ps[2] = {T_PTR, T_I64};
    Dir d = dir_new(T_I64, ps, 2);
    KitCgVal p = kit_cg_ptradd(&d.b, 1, kit_cg_iconst(&d.b, T_I64, 3));
    kit_cg_store(&d.b, kit_cg_conv(&d.b, KIT_CG_OP_TRUNC, T_I1, 2), p, 1, KIT_CG_PROGRAM);
    KitCgVal q = kit_cg_ptradd(&d.b, 1, kit_cg_iconst(&d.b, T_I64, 4));
    kit_cg_store(&d.b, kit_cg_cmp(&d.b, KIT_CG_UGT, 2, kit_cg_iconst(&d.b, T_I64, 5)), q, 0, KIT_CG_INTERNAL);
    kit_cg_ret(&d.b, kit_cg_load(&d.b, T_I64, 1, 8, KIT_CG_PROGRAM));
    uint64_t a[2] = {(uint64_t)(uintptr_t)buf, 0xffffffffffffff03ull};
    uint64_t w;
    memcpy(&w, region_init + GUARD, 8);
    w = (w & ~0x000000ffff000000ull) | (1ull << 24) | (1ull << 32);
    dir_check("store i1", &d, a, w, true);
    dir_free(&d);
  }
  /* tail call with swapped arguments; a call with all six */
  {
    KitCgType ps[3] = {T_PTR, T_I64, T_I64};
    Dir d = dir_new(T_I32, ps, 3);
    KitCgVal fp = kit_cg_conv(&d.b, KIT_CG_OP_INTTOPTR, T_PTR, kit_cg_iconst(&d.b, T_I64, helpers[2].stub));
    KitCgVal args[2] = {3, 2};
    KitCgVal r = kit_cg_calli(&d.b, fp, T_I32, args, 2);
    d.f->blocks[0].insts[d.f->blocks[0].ninsts - 1].flags |= KIT_CG_F_TAIL;
    kit_cg_ret(&d.b, r);
    uint64_t a[3] = {(uint64_t)(uintptr_t)buf, 0x1111, 0x2222};
    dir_check("tail calli, swapped args", &d, a, kx_h2(0x2222, 0x1111), false);
    dir_free(&d);
    KitCgType p6[6] = {T_PTR, T_I64, T_I64, T_I64, T_I64, T_I64};
    d = dir_new(T_I64, p6, 6);
    KitCgVal a6[6] = {6, 5, 4, 3, 2, kit_cg_conv(&d.b, KIT_CG_OP_PTRTOINT, T_I64, 1)};
    KitCgVal r6 = kit_cg_call(&d.b, helper_sym(d.m, 6), T_I64, a6, 6);
    d.f->blocks[0].insts[d.f->blocks[0].ninsts - 1].flags |= KIT_CG_F_TAIL;
    kit_cg_ret(&d.b, r6);
    uint64_t b6[6] = {(uint64_t)(uintptr_t)buf, 1, 2, 3, 4, 5};
    dir_check("tail call, six reversed args", &d, b6, kx_h6(5, 4, 3, 2, 1, (uint64_t)(uintptr_t)buf), false);
    dir_free(&d);
    /* the i32 with garbage above it: zext after the call */
    KitCgType p2[2] = {T_I64, T_I64};
    d = dir_new(T_I64, p2, 2);
    KitCgVal a2[2] = {1, 2};
    KitCgVal r2 = kit_cg_call(&d.b, helper_sym(d.m, 11), T_I32, a2, 2);
    kit_cg_ret(&d.b, kit_cg_conv(&d.b, KIT_CG_OP_ZEXT, T_I64, r2));
    uint64_t b2[2] = {7, 9};
    dir_check("zext of a host i32 result", &d, b2, kx_dirty32(7, 9), true);
    dir_free(&d);
  }
  /* i1 arithmetic */
  {
    KitCgType p2[2] = {T_I1, T_I1};
    static const KitCgOp ops[] = {KIT_CG_OP_ADD, KIT_CG_OP_SUB, KIT_CG_OP_MUL, KIT_CG_OP_SHL, KIT_CG_OP_ASHR};
    for (int o = 0; o < 5; o++)
      for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) {
          Dir d = dir_new(T_I1, p2, 2);
          KitCgVal v = kit_cg_binop(&d.b, ops[o], 1, 2);
          kit_cg_ret(&d.b, kit_cg_unop(&d.b, KIT_CG_OP_NOT, kit_cg_unop(&d.b, KIT_CG_OP_NEG, v)));
          uint64_t a[2] = {(uint64_t)x, (uint64_t)y};
          uint64_t r = o == 0 || o == 1 ? (uint64_t)(x ^ y) : o == 2 ? (uint64_t)(x & y) : (uint64_t)x;
          dir_check("i1 arithmetic", &d, a, r ^ 1, true);
          dir_free(&d);
        }
  }
}

/* ---- op sweep: every op and type on corner values, with its operands as
 * parameters, as immediates on either side, and both constant (folded) ---- */

static unsigned long sweep_funcs, sweep_runs, sweep_declined;
static int sweep_fail, sweep_reported;
static int sweep_group_bad, sweep_group_reported, sweep_group_funcs; /* per op and type */
static unsigned long sweep_group_f0;
static void sweep_group_begin(void) {
  sweep_group_bad = sweep_group_reported = 0;
  sweep_group_f0 = sweep_funcs;
}
static void sweep_group_end(const char *what, KitCgType t) {
  sweep_group_funcs = (int)(sweep_funcs - sweep_group_f0);
  if (sweep_group_bad)
    fprintf(stderr, "sweep: %s %s: %d of %d functions differ\n", what, kit_cg_type_name(t), sweep_group_bad,
            sweep_group_funcs);
}

static uint64_t run_light(void *code, uint32_t n, const uint64_t *a, int *sig_out) {
  volatile uint64_t r = 0;
  int sig = sigsetjmp(crash_jb, 1);
  if (sig == 0) {
    in_x64 = 1;
    alarm(5);
    r = call_code(code, n, a);
    alarm(0);
    in_x64 = 0;
  } else {
    alarm(0);
  }
  *sig_out = sig;
#if defined(__x86_64__)
  if (!sig && regs_clobbered()) *sig_out = -1;
#endif
  return r;
}

/* runs f on each argument set; returns the mismatches */
static int sweep_fn(KitCgModule *m, KitCgFunc *f, const uint64_t *sets, int nsets) {
  if (kit_cg_verify(m, stderr)) {
    kit_cg_print(m, stderr);
    sweep_fail++;
    return 1;
  }
  sweep_funcs++;
  KitInterp *ip = kit_interp_new(m, resolve, NULL, NULL);
  const char *why = NULL;
  void *code = compile_fn(m, f, &why);
  if (!code) {
    sweep_declined++;
    kit_interp_free(ip);
    return 0;
  }
  int bad = 0, first = -1, ran = 0;
  uint64_t first_i = 0, first_x = 0;
  const char *first_what = NULL;
  uint64_t msk = mask_of((KitCgType)f->ret[0]);
  for (int k = 0; k < nsets; k++) {
    const uint64_t *a = sets + (size_t)k * f->nparams;
    KitCgScalar sa[6], r[2];
    memset(sa, 0, sizeof sa);
    memset(r, 0, sizeof r);
    for (uint32_t i = 0; i < f->nparams; i++) sa[i].i = a[i];
    if (kit_interp_call(ip, f, sa, f->nparams, r)) continue; /* division by 0, MIN/-1 */
    int sig;
    uint64_t x = run_light(code, f->nparams, a, &sig);
    sweep_runs++;
    ran++;
    bool zext_ok = (x & ~msk) == 0;
    if (sig || (x & msk) != (r[0].i & msk) || !zext_ok) {
      if (!bad++) {
        first = k;
        first_i = r[0].i & msk;
        first_x = x;
        first_what = sig > 0                                           ? "x64 code died"
                     : sig < 0                                         ? "callee-saved register clobbered"
                     : !zext_ok && (x & msk) == (r[0].i & msk) ? "narrow result not zero-extended"
                                                                       : "result";
      }
    }
  }
  if (bad) sweep_group_bad++;
  if (bad && sweep_group_reported++ < 2 && sweep_reported++ < 400) {
    char *text = module_text(m), *body = strstr(text, "b0:\n");
    /* one line: the function's body, then the first failing arguments */
    char line[512];
    size_t n = 0;
    for (const char *q = body ? body + 4 : text; *q && n < sizeof line - 2; q++)
      if (*q == '\n') {
        if (n && line[n - 1] != ';') line[n++] = ';';
      } else if (!(*q == ' ' && n && (line[n - 1] == ' ' || line[n - 1] == ';'))) {
        line[n++] = *q;
      }
    line[n] = 0;
    if (n >= 2 && !strcmp(line + n - 2, "};")) line[n - 2] = 0;
    fprintf(stderr, "sweep: %s(", kit_cg_type_name((KitCgType)f->ret[0]));
    for (uint32_t i = 0; i < f->nparams; i++)
      fprintf(stderr, "%s%s", i ? "," : "", kit_cg_type_name((KitCgType)f->params[i].type));
    fprintf(stderr, ") {%s} %d/%d runs differ; first: %s, args", line, bad, ran, first_what);
    for (uint32_t i = 0; i < f->nparams; i++)
      fprintf(stderr, " 0x%llx", (unsigned long long)sets[(size_t)first * f->nparams + i]);
    fprintf(stderr, ": interp 0x%llx, x64 0x%llx\n", (unsigned long long)first_i, (unsigned long long)first_x);
    free(text);
  }
  kit_interp_free(ip);
  sweep_fail += bad;
  return bad;
}

static int sweep_values(KitCgType t, uint64_t *out) {
  static const uint64_t base[] = {0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 0x7f, 0x80, 0x81, 0xfe, 0xff,
                                  0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0x80000001,
                                  0xffffffff, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                  0xfffffffffffffffeull, 0xffffffffffffffffull, 0x123456789abcdef0ull,
                                  0xfedcba9876543210ull, 0xffffffff80000000ull, 0xffffffffffff8000ull,
                                  0xffffffffffffff80ull};
  int n = 0;
  for (unsigned i = 0; i < sizeof base / sizeof base[0]; i++) {
    uint64_t v = base[i] & mask_of(t);
    bool dup = false;
    for (int k = 0; k < n; k++) dup |= out[k] == v;
    if (!dup) out[n++] = v;
  }
  return n;
}

typedef enum { SW_PP, SW_PC, SW_CP, SW_CC } SwShape;

/* f(x, y) = op(x', y') where x'/y' are the parameters or constants */
static KitCgModule *sweep_build(KitCgOp op, KitCgPred pred, KitCgType t, SwShape sh, uint64_t cx, uint64_t cy,
                                KitCgFunc **fo, KitCgType rt) {
  KitCgType ps[2] = {t, t};
  uint32_t np = sh == SW_PP ? 2 : sh == SW_CC ? 0 : 1;
  Dir d = fn_new("sweep", rt, ps, np);
  KitCgModule *m = d.m;
  KitCgFunc *f = d.f;
  KitCgBuilder b = d.b;
  KitCgVal x, y;
  switch (sh) {
  case SW_PP: x = 1, y = 2; break;
  case SW_PC: x = 1, y = kit_cg_iconst(&b, t, cy); break;
  case SW_CP: x = kit_cg_iconst(&b, t, cx), y = 1; break;
  default: x = kit_cg_iconst(&b, t, cx), y = kit_cg_iconst(&b, t, cy); break;
  }
  KitCgVal r;
  if (op == KIT_CG_OP_ICMP) r = kit_cg_cmp(&b, pred, x, y);
  else if (kit_cg_op_info[op].nargs == 1) r = kit_cg_unop(&b, op, x);
  else r = kit_cg_binop(&b, op, x, y);
  kit_cg_ret(&b, r);
  *fo = f;
  return m;
}

static void sweep_op1(KitCgOp op, KitCgPred pred, KitCgType t, Rng *rng);
static void sweep_op(KitCgOp op, KitCgPred pred, KitCgType t, Rng *rng) {
  char what[64];
  snprintf(what, sizeof what, "%s%s%s", kit_cg_op_info[op].name, op == KIT_CG_OP_ICMP ? " " : "",
           op == KIT_CG_OP_ICMP ? kit_cg_pred_name(pred) : "");
  sweep_group_begin();
  sweep_op1(op, pred, t, rng);
  sweep_group_end(what, t);
}
static void sweep_op1(KitCgOp op, KitCgPred pred, KitCgType t, Rng *rng) {
  uint64_t vals[64];
  int nv = sweep_values(t, vals);
  bool unary = op != KIT_CG_OP_ICMP && kit_cg_op_info[op].nargs == 1;
  KitCgType rt = op == KIT_CG_OP_ICMP ? T_I1 : t;
  static uint64_t sets[64 * 64 * 2];
  KitCgFunc *f;
  KitCgModule *m;
  /* both parameters */
  int ns = 0;
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < (unary ? 1 : nv); j++) {
      sets[2 * ns] = vals[i];
      sets[2 * ns + 1] = vals[j];
      ns++;
    }
  if (unary) {
    m = sweep_build(op, pred, t, SW_PP, 0, 0, &f, rt);
    for (int i = 0; i < nv; i++) sets[2 * i] = vals[i], sets[2 * i + 1] = 0;
    sweep_fn(m, f, sets, nv);
    kit_cg_module_free(m);
    for (int i = 0; i < nv; i++) { /* folded */
      m = sweep_build(op, pred, t, SW_CP, vals[i], 0, &f, rt);
      /* SW_CP with a unary op: the op reads the constant; the parameter is unused */
      uint64_t one[1] = {0};
      sweep_fn(m, f, one, 1);
      kit_cg_module_free(m);
    }
    return;
  }
  m = sweep_build(op, pred, t, SW_PP, 0, 0, &f, rt);
  sweep_fn(m, f, sets, ns);
  kit_cg_module_free(m);
  /* one side an immediate */
  for (int c = 0; c < nv; c++) {
    m = sweep_build(op, pred, t, SW_PC, 0, vals[c], &f, rt);
    sweep_fn(m, f, vals, nv);
    kit_cg_module_free(m);
    m = sweep_build(op, pred, t, SW_CP, vals[c], 0, &f, rt);
    sweep_fn(m, f, vals, nv);
    kit_cg_module_free(m);
  }
  /* both constant: a sample */
  for (int k = 0; k < 24; k++) {
    uint64_t cx = vals[rn(rng, (uint32_t)nv)], cy = vals[rn(rng, (uint32_t)nv)];
    m = sweep_build(op, pred, t, SW_CC, cx, cy, &f, rt);
    sweep_fn(m, f, NULL, 1);
    kit_cg_module_free(m);
  }
}

/* f(x) = conv(x) and f() = conv(const) for every integer conversion */
static void sweep_convs(void) {
  static const KitCgType ts[6] = {T_I1, T_I8, T_I16, T_I32, T_I64, T_PTR};
  for (int a = 0; a < 6; a++)
    for (int b = 0; b < 6; b++) {
      KitCgType from = ts[a], to = ts[b];
      KitCgOp ops[3];
      int nops = 0;
      if (from == T_PTR && to == T_PTR) continue;
      if (from == T_PTR) ops[nops++] = KIT_CG_OP_PTRTOINT;
      else if (to == T_PTR) ops[nops++] = KIT_CG_OP_INTTOPTR;
      else if (a > b) ops[nops++] = KIT_CG_OP_TRUNC;
      else if (a < b) ops[nops++] = KIT_CG_OP_ZEXT, ops[nops++] = KIT_CG_OP_SEXT;
      for (int o = 0; o < nops; o++) {
        sweep_group_begin();
        uint64_t vals[64];
        int nv = sweep_values(from == T_PTR ? T_I64 : from, vals);
        Dir d = fn_new("sweep", to, &from, 1);
        kit_cg_ret(&d.b, kit_cg_conv(&d.b, ops[o], to, 1));
        sweep_fn(d.m, d.f, vals, nv);
        kit_cg_module_free(d.m);
        for (int i = 0; i < nv; i++) {
          d = fn_new("sweep", to, NULL, 0);
          kit_cg_ret(&d.b, kit_cg_conv(&d.b, ops[o], to, kit_cg_iconst(&d.b, from, vals[i])));
          sweep_fn(d.m, d.f, NULL, 1);
          kit_cg_module_free(d.m);
        }
        char what[64];
        snprintf(what, sizeof what, "%s from %s to", kit_cg_op_info[ops[o]].name, kit_cg_type_name(from));
        sweep_group_end(what, to);
      }
    }
}

/* select with a parameter or constant condition and operands */
static void sweep_selects(void) {
  static const KitCgType ts[6] = {T_I1, T_I8, T_I16, T_I32, T_I64, T_PTR};
  for (int k = 0; k < 6; k++) {
    KitCgType t = ts[k];
    sweep_group_begin();
    for (int shape = 0; shape < 8; shape++) {
      KitCgType ps[3] = {T_I1, t, t};
      Dir d = fn_new("sweep", t, ps, 3);
      KitCgModule *m = d.m;
      KitCgFunc *f = d.f;
      KitCgBuilder bd = d.b;
      KitCgVal c = shape & 1 ? kit_cg_iconst(&bd, T_I1, shape >> 2 & 1) : 1;
      KitCgVal x = shape & 2 ? kit_cg_iconst(&bd, t, 0x8000000000000081ull) : 2;
      KitCgVal y = shape & 4 ? kit_cg_iconst(&bd, t, 0x7fffffffffff7ffeull) : 3;
      kit_cg_ret(&bd, kit_cg_select(&bd, c, x, y));
      uint64_t sets[4 * 3] = {0, 0x11, mask_of(t), 1, 0x11, mask_of(t), 0, mask_of(t), 0x22, 1, 0, 5};
      for (int i = 0; i < 12; i++) sets[i] &= mask_of(ps[i % 3]);
      sweep_fn(m, f, sets, 4);
      kit_cg_module_free(m);
    }
    sweep_group_end("select", t);
  }
}

static void sweep(void) {
  Rng rng = {7};
  static const KitCgType ts[5] = {T_I1, T_I8, T_I16, T_I32, T_I64};
  static const KitCgOp bins[] = {KIT_CG_OP_ADD,  KIT_CG_OP_SUB,  KIT_CG_OP_MUL,  KIT_CG_OP_AND,  KIT_CG_OP_OR,
                                 KIT_CG_OP_XOR,  KIT_CG_OP_SHL,  KIT_CG_OP_LSHR, KIT_CG_OP_ASHR, KIT_CG_OP_SMIN,
                                 KIT_CG_OP_SMAX, KIT_CG_OP_UMIN, KIT_CG_OP_UMAX, KIT_CG_OP_UDIV, KIT_CG_OP_SDIV,
                                 KIT_CG_OP_UREM, KIT_CG_OP_SREM, KIT_CG_OP_NEG,  KIT_CG_OP_NOT};
  for (unsigned o = 0; o < sizeof bins / sizeof bins[0]; o++)
    for (int k = 0; k < 5; k++) sweep_op(bins[o], 0, ts[k], &rng);
  for (int p = 0; p < 10; p++)
    for (int k = 0; k < 5; k++) sweep_op(KIT_CG_OP_ICMP, (KitCgPred)p, ts[k], &rng);
  sweep_convs();
  sweep_selects();
}

/* ---- regression cases: the .cg files of tests/x64/cases, each with "; args: ..." lines
 * ("buf" = the scratch buffer); the interpreter is the reference ---- */

static int case_fail, case_runs;
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_case_text(const char *name, const char *text, size_t n) {
  KitCgModule *m = kit_cg_parse(text, n, name, stderr);
  if (!m || kit_cg_verify(m, stderr)) {
    fprintf(stderr, "case %s: does not parse or verify\n", name);
    if (m) kit_cg_module_free(m);
    return 1;
  }
  KitCgSym s = kit_cg_sym_find(m, "f");
  if (s == UINT32_MAX) {
    fprintf(stderr, "case %s: no @f\n", name);
    kit_cg_module_free(m);
    return 1;
  }
  KitCgFunc *f = kit_cg_func_of(m, s);
  int bad = 0;
  for (const char *l = strstr(text, "; args:"); l; l = strstr(l + 1, "; args:")) {
    uint64_t args[6] = {0};
    const char *q = l + 7;
    for (uint32_t i = 0; i < f->nparams && i < 6; i++) {
      while (*q == ' ') q++;
      if (!strncmp(q, "buf", 3)) args[i] = (uint64_t)(uintptr_t)buf, q += 3;
      else args[i] = strtoull(q, (char **)&q, 0);
    }
    region_randomize(1);
    case_runs++;
    int before = failures;
    check_func(0, m, f, args, NULL, false);
    if (failures != before) {
      fprintf(stderr, "  (case %s)\n", name);
      bad++;
      failures = before; /* counted as a case failure */
    }
  }
  kit_cg_module_free(m);
  return bad;
}

static void run_cases(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  char *names[256];
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) && n < 256;) {
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
  printf("cases: %d files, %d runs, %d failing\n", n, case_runs, case_fail);
}

/* ---- main ------------------------------------------------------------------------------ */

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  helpers_init();
  region_init_fixed();
  const char *st = getenv("KIT_X64_SELFTEST");
  selftest = st ? atoi(st) : 0;
  nohb = getenv("KIT_X64_NOHB") != NULL;
  avoid_select = getenv("KIT_X64_AVOID_SELECT") != NULL;
  no_abi = getenv("KIT_X64_NO_ABI") != NULL;
  x64 = kit_baseline_new(resolve, NULL);
  if (!x64 && !selftest) {
    printf("x64 compiler unavailable\n");
    return 77;
  }
  signals_init();
  region_randomize(1);
  memcpy(region, region_init, REGION);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);

  if (sanity()) {
    printf("FAIL: the interpreter disagrees with C about the host helpers\n");
    return 1;
  }

  const char *textfile = getenv("KIT_X64_TEXT");
  if (textfile) { /* KIT_X64_TEXT=file.cg KIT_X64_ARGS=buf,1,0x80: run @f of a textual module */
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
    const char *as = getenv("KIT_X64_ARGS");
    for (uint32_t i = 0; i < f->nparams && i < 6; i++) {
      if (f->params[i].type == T_PTR) args[i] = (uint64_t)(uintptr_t)buf;
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
  const char *one = getenv("KIT_X64_SEED");
  const char *cnt = getenv("KIT_X64_COUNT");
  if (!one) {
    directed();
    printf("directed: %d failures (%lu compiled, %lu declined so far)\n", directed_fail, n_compiled, n_declined);
#ifdef KIT_X64_CASES
    run_cases(KIT_X64_CASES);
#endif
    sweep();
    printf("op sweep: %lu functions (%lu declined), %lu runs, %d mismatches\n", sweep_funcs, sweep_declined,
           sweep_runs, sweep_fail);
  }
  const char *fst = getenv("KIT_X64_FIRST");
  unsigned long first = fst ? strtoul(fst, NULL, 0) : 1, count = cnt ? strtoul(cnt, NULL, 0) : 3600;
  if (one) first = strtoul(one, NULL, 0), count = 1;
  unsigned long dir_compiled = n_compiled, dir_declined = n_declined;
  int dir_failures = failures;
  static const char *shapes[] = {"pressure", "straight", "calls", "cfg"};
  unsigned long per_shape[4][2], any_order_n = 0, any_order_declined = 0;
  memset(per_shape, 0, sizeof per_shape);
  for (unsigned long s = first; s < first + count; s++) {
    if (s % 500 == 0) { /* code memory lives with the compiler: renew it now and then */
      if (x64) kit_baseline_free(x64);
      x64 = kit_baseline_new(resolve, NULL);
    }
    GenFunc gf = gen_func(s);
    if (kit_cg_verify(gf.m, stderr)) {
      fprintf(stderr, "seed %lu: the generated module does not verify (generator bug)\n", s);
      kit_cg_print(gf.m, stderr);
      failures++;
      kit_cg_module_free(gf.m);
      continue;
    }
    region_randomize(s);
    if (one) kit_cg_print(gf.m, stderr);
    unsigned long dec = n_declined;
    check_func(s, gf.m, gf.f, gf.args, gf.dirty, one != NULL);
    if (gf.any_order) any_order_n++, any_order_declined += n_declined != dec;
    for (int k = 0; k < 4; k++)
      if (!strcmp(shapes[k], gf.shape)) per_shape[k][n_declined != dec]++;
    kit_cg_module_free(gf.m);
    if (failures > 2000) break;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  unsigned long rc = n_compiled - dir_compiled, rd = n_declined - dir_declined;
  printf("random: %lu functions, %lu compiled, %lu declined (%.1f%%); mismatches %d, ABI mismatches %d; "
         "%.2f s; code %zu bytes\n",
         rc + rd, rc, rd, rc + rd ? 100.0 * (double)rd / (double)(rc + rd) : 0.0, failures - dir_failures,
         abi_failures, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
         x64 ? kit_baseline_code_size(x64) : (size_t)0);
  for (int k = 0; k < 4; k++)
    printf("  shape %-8s compiled %lu declined %lu\n", shapes[k], per_shape[k][0], per_shape[k][1]);
  for (int i = 0; i < nwhys; i++) printf("  declined %lu x: %s\n", whys[i].n, whys[i].why);
  printf("  %lu functions have blocks in a non-topological order, %lu of them declined (not counted against the 5%% limit)\n",
         any_order_n, any_order_declined);
  rd -= any_order_declined;
  if (x64) kit_baseline_free(x64);
  int bad = failures || abi_failures || directed_fail || sweep_fail || case_fail;
  if (!one && rc + rd >= 100 && rd * 20 > rc + rd) {
    printf("FAIL: more than 5%% of the random functions were declined\n");
    bad = 1;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
