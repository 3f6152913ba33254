/* tests/emupeer/wildwrite.c — a guest that touches every address it can form
 * by walking bits: for each bit b, 1<<b, (1<<b)-1, ~(1<<b), -(1<<b), plus the
 * edges of the sv39 window (2^38 - 1..8, 2^38, past the 64 KiB guard) and
 * pointers near its own stack, globals and heap. At each address it tries a
 * load of every width, then stores back what it read (so mapped memory is
 * not changed), an FP store and an atomic add of zero.
 *
 *   wildwrite walk   catch every SIGSEGV/SIGBUS with a handler (siglongjmp),
 *                    check the rules below, print a summary, exit 0 (1 when a
 *                    rule is broken); `walk -v` lists every access
 *   wildwrite die    no handler: the first faulting access kills the guest
 *                    (the wrapper expects status 139)
 *
 * Rules checked in walk mode: an address at or above 2^38 (outside the guest
 * window) or in the first page always faults, with si_addr = the address for
 * an access that starts there; the program's own stack, globals and heap
 * never fault and keep their contents. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sigjmp_buf jb;
static volatile uintptr_t fault_addr;
static volatile int fault_sig;
static void on_fault(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  fault_sig = sig;
  fault_addr = (uintptr_t)si->si_addr;
  siglongjmp(jb, 1);
}

static uint64_t global_words[64] = {1, 2, 3};

enum { K_LB, K_LH, K_LW, K_LD, K_SB, K_SH, K_SW, K_SD, K_FSD, K_AMO, K_N };
static const char *kname[K_N] = {"lb", "lh", "lw", "ld", "sb", "sh", "sw", "sd", "fsd", "amoadd.d"};

/* one access; returns 0 or the faulting signal */
static int try_access(int k, uintptr_t a, uint64_t *val) {
  fault_sig = 0;
  if (sigsetjmp(jb, 1)) return fault_sig;
  uint64_t v = *val;
  switch (k) {
  case K_LB: __asm__ volatile("lb %0, 0(%1)" : "=r"(v) : "r"(a) : "memory"); break;
  case K_LH: __asm__ volatile("lh %0, 0(%1)" : "=r"(v) : "r"(a) : "memory"); break;
  case K_LW: __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(a) : "memory"); break;
  case K_LD: __asm__ volatile("ld %0, 0(%1)" : "=r"(v) : "r"(a) : "memory"); break;
  case K_SB: __asm__ volatile("sb %0, 0(%1)" ::"r"(v), "r"(a) : "memory"); break;
  case K_SH: __asm__ volatile("sh %0, 0(%1)" ::"r"(v), "r"(a) : "memory"); break;
  case K_SW: __asm__ volatile("sw %0, 0(%1)" ::"r"(v), "r"(a) : "memory"); break;
  case K_SD: __asm__ volatile("sd %0, 0(%1)" ::"r"(v), "r"(a) : "memory"); break;
  case K_FSD: {
    double d;
    memcpy(&d, &v, 8);
    __asm__ volatile("fsd %0, 0(%1)" ::"f"(d), "r"(a) : "memory");
    break;
  }
  case K_AMO: {
    uint64_t old;
    __asm__ volatile("amoadd.d %0, zero, (%1)" : "=r"(old) : "r"(a & ~(uintptr_t)7) : "memory");
    break;
  }
  }
  *val = v;
  return 0;
}

int main(int argc, char **argv) {
  int walk = argc > 1 && !strcmp(argv[1], "walk");
  int verbose = argc > 2 && !strcmp(argv[2], "-v");
  if (walk) {
    struct sigaction sa = {0};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
  }
  uint64_t stack_words[8] = {11, 12, 13};
  uint64_t *heap = malloc(4096);
  for (int i = 0; i < 512; i++) heap[i] = (uint64_t)i * 0x9e3779b97f4a7c15ull;
  uint64_t heap_sum = 0;
  for (int i = 0; i < 512; i++) heap_sum += heap[i];

  static uintptr_t addrs[1024];
  int n = 0;
  const uintptr_t W = (uintptr_t)1 << 38;
  for (int b = 0; b < 64; b++) {
    uintptr_t p = (uintptr_t)1 << b;
    addrs[n++] = p;
    addrs[n++] = p - 1;
    addrs[n++] = ~p;
    addrs[n++] = -p;
  }
  for (uintptr_t k = 1; k <= 8; k++) addrs[n++] = W - k;
  addrs[n++] = W + 65536;
  addrs[n++] = W + 65536 + 4096;
  addrs[n++] = (uintptr_t)&stack_words[1];
  addrs[n++] = (uintptr_t)&global_words[1];
  addrs[n++] = (uintptr_t)&heap[7];

  int bad = 0, faults = 0, ok = 0;
  for (int i = 0; i < n; i++) {
    uintptr_t a = addrs[i];
    uint64_t val = 0;
    int readable = 0;
    for (int k = 0; k < K_N; k++) {
      if (k == K_SB && !readable) val = 0;
      int sig = try_access(k, a, &val);
      if (k <= K_LD && !sig) readable = 1;
      int own = a == (uintptr_t)&stack_words[1] || a == (uintptr_t)&global_words[1] || a == (uintptr_t)&heap[7];
      int must_fault = a >= W || a < 4096;
      if (sig) faults++;
      else ok++;
      if (verbose) printf("%s %#lx: %s\n", kname[k], (unsigned long)a, sig ? "fault" : "ok");
      if (own && sig) {
        printf("BAD: %s at own memory %#lx faulted (signal %d)\n", kname[k], (unsigned long)a, sig);
        bad++;
      }
      if (must_fault && !sig) {
        printf("BAD: %s at %#lx succeeded; it is outside the guest window or in page 0\n", kname[k],
               (unsigned long)a);
        bad++;
      }
      /* an access that starts outside the window reports its own address
       * (amoadd.d uses the aligned address) */
      uintptr_t expect = k == K_AMO ? (a & ~(uintptr_t)7) : a;
      if (sig && a >= W && fault_addr != expect) {
        printf("BAD: %s at %#lx: si_addr %#lx\n", kname[k], (unsigned long)a, (unsigned long)fault_addr);
        bad++;
      }
      if (sig && sig != SIGSEGV && sig != SIGBUS) {
        printf("BAD: %s at %#lx: signal %d\n", kname[k], (unsigned long)a, sig);
        bad++;
      }
    }
  }
  uint64_t sum = 0;
  for (int i = 0; i < 512; i++) sum += heap[i];
  if (sum != heap_sum || stack_words[0] != 11 || stack_words[2] != 13 || global_words[2] != 3) {
    printf("BAD: own memory changed\n");
    bad++;
  }
  printf("%d addresses, %d accesses: %d faulted, %d succeeded, %d rule violations\n", n, n * K_N, faults, ok, bad);
  return bad != 0;
}
