/* tests/emu/guest/guard.c — loads, stores, FP and atomic accesses far outside
 * the guest address space, at its end and straddling it: each is a SIGSEGV
 * whose si_addr is the address the instruction used, with the faulting pc
 * and the registers as they were before it, and a faulting store writes
 * nothing. kit-emu clamps such addresses into a guard page behind its guest
 * window and recovers the address from the instruction (docs/emu.md, "The
 * guest window"); the window ends at 2^38, the end of the sv39 user range.
 * Every case runs several rounds so auto-tier runs reach the JIT.
 * `guard q` runs only the addresses qemu-riscv64 gets right, for comparing
 * with it: past its own guest space qemu reaches its host memory (no fault,
 * or si_addr 0 for non-canonical host addresses). */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#define END (1ull << 38)

static sigjmp_buf env;
static volatile uint64_t seen_addr, seen_pc, seen_t3, seen_t4;
static volatile int seen_code;

static void on_segv(int sig, siginfo_t *si, void *ucv) {
  ucontext_t *uc = ucv;
  seen_addr = (uint64_t)(uintptr_t)si->si_addr;
  seen_code = si->si_code;
  seen_pc = uc->uc_mcontext.__gregs[REG_PC];
  seen_t3 = uc->uc_mcontext.__gregs[28];
  seen_t4 = uc->uc_mcontext.__gregs[29];
  siglongjmp(env, sig);
}

/* t3 = the address argument, t4 = 42 set just before the access (a register
 * written in the same block must be visible in the frame) */
#define ACC(name, off, body)                                                                                      \
  __attribute__((noinline)) static void name(uint64_t a) {                                                       \
    __asm__ volatile("mv t3, %0\n\tli t4, 41\n\taddi t4, t4, 1\n\t" body                                          \
                     :                                                                                           \
                     : "r"(a)                                                                                    \
                     : "t3", "t4", "t5", "a4", "a5", "ft0", "memory");                                           \
  }                                                                                                              \
  static const int64_t name##_off = off;

ACC(ld0, 0, "ld t5, 0(t3)")
ACC(ld16, 16, "ld t5, 16(t3)")
ACC(lwm4, -4, "lw t5, -4(t3)")
ACC(lbu0, 0, "lbu t5, 0(t3)")
ACC(lhu2, 2, "lhu t5, 2(t3)")
ACC(ldself, 0, "ld t3, 0(t3)")
ACC(sd0, 0, "sd t4, 0(t3)")
ACC(sb8, 8, "sb t4, 8(t3)")
ACC(sw4, 4, "sw t4, 4(t3)")
ACC(fld0, 0, "fld ft0, 0(t3)")
ACC(fsw8, 8, "fsw ft0, 8(t3)")
ACC(cld, 8, "mv a4, t3\n\tc.ld a5, 8(a4)")
ACC(csw, 4, "mv a4, t3\n\tc.sw a5, 4(a4)")
ACC(amoadd, 0, "amoadd.d t5, t4, (t3)")
ACC(amoswapw, 0, "amoswap.w t5, t4, (t3)")
ACC(lrd, 0, "lr.d t5, (t3)")
ACC(lrw, 0, "lr.w t5, (t3)")

typedef struct Case {
  const char *name;
  void (*fn)(uint64_t);
  int64_t off;
  int size;
  int store;
} Case;

#define C(n, size, store) {#n, n, n##_off, size, store}
static const Case cases[] = {
    C(ld0, 8, 0),     C(ld16, 8, 0), C(lwm4, 4, 0), C(lbu0, 1, 0),   C(lhu2, 2, 0),     C(ldself, 8, 0),
    C(sd0, 8, 1),     C(sb8, 1, 1),  C(sw4, 4, 1),  C(fld0, 8, 0),   C(fsw8, 4, 1),     C(cld, 8, 0),
    C(csw, 4, 1),     C(amoadd, 8, 1), C(amoswapw, 4, 1), C(lrd, 8, 0), C(lrw, 4, 0),
};

/* effective addresses: past the end, far past it, non-canonical on the host,
 * the top of the 64-bit space, and a sum that wraps to a low address */
static const uint64_t targets[] = {
    END,         END + 8,       END + 0x10000, END + 0x123456, 1ull << 39, (1ull << 40) + 0x1230,
    1ull << 47,  1ull << 56,    0x8000000000000000ull, 0xffffffffffffff00ull, 0xfffffffffffffff8ull, 0x10,
};
static const uint64_t qemu_targets[] = {0xffffffffffffff00ull, 0xfffffffffffffff8ull, 0x10};

static unsigned bad;
static uint8_t *last; /* the last page below END, mapped, or NULL */

/* run fn at effective address ea; prints the outcome in round 0, checks that
 * later rounds (possibly jitted) agree */
static void one(const Case *c, uint64_t ea, int round, int straddle) {
  uint64_t a = ea - (uint64_t)c->off;
  if (last) memset(last + 4096 - 64, 0x5a, 64);
  seen_addr = seen_pc = seen_t3 = seen_t4 = 0;
  seen_code = 0;
  if (sigsetjmp(env, 1) == 0) {
    c->fn(a);
    printf("%s ea=%#llx: no fault\n", c->name, (unsigned long long)ea);
    bad++;
    return;
  }
  int64_t pcoff = (int64_t)(seen_pc - (uint64_t)(uintptr_t)c->fn);
  int wrote = 0;
  if (last)
    for (int i = 0; i < 64; i++) wrote |= last[4096 - 64 + i] != 0x5a;
  /* an access that begins below the end faults at the first byte past it */
  uint64_t want = straddle ? END : ea;
  int ok = seen_addr == want && seen_code == SEGV_MAPERR && seen_t3 == a && seen_t4 == 42 && !wrote;
  if (round == 0 || !ok)
    printf("%s ea=%#llx round %d: addr=%#llx%s code=%d pc=fn+%lld t3_ok=%d t4=%llu wrote=%d\n", c->name,
           (unsigned long long)ea, round, (unsigned long long)seen_addr, seen_addr == want ? "" : " (WRONG)",
           seen_code, (long long)pcoff, seen_t3 == a, (unsigned long long)seen_t4, wrote);
  if (!ok) bad++;
}

int main(int argc, char **argv) {
  int oracle = argc > 1 && argv[1][0] == 'q';
  const uint64_t *tg = oracle ? qemu_targets : targets;
  unsigned ntg = oracle ? sizeof qemu_targets / sizeof *tg : sizeof targets / sizeof *tg;
  static char altstack[65536];
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGSEGV, &sa, NULL);
  if (!oracle) {
    void *p = mmap((void *)(uintptr_t)(END - 4096), 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    last = p == (void *)(uintptr_t)(END - 4096) ? p : NULL;
    printf("last page below the end: %s\n", last ? "mapped" : "not mapped");
    if (!last) bad++;
  }
  for (int round = 0; round < 16; round++) {
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      const Case *c = &cases[i];
      for (unsigned t = 0; t < ntg; t++) one(c, tg[t], round, 0);
      /* straddling the end: the plain loads and stores (atomics must be aligned) */
      if (last && c->size > 1 && c->fn != amoadd && c->fn != amoswapw && c->fn != lrd && c->fn != lrw)
        one(c, END - (uint64_t)c->size / 2, round, 1);
    }
  }
  printf("%s\n", bad ? "FAILED" : "all faults exact");
  return bad != 0;
}
