/* tests/emu/guest/sigctx.c — handlers that return: a SIGSEGV handler that
 * makes the page writable so the store is retried, and SIGTRAP (ebreak) and
 * SIGILL handlers that step over the instruction by editing the pc in
 * uc_mcontext; registers changed in the frame come back after rt_sigreturn. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
static char *volatile page;
static volatile int segvs, traps, ills;
static void on_segv(int sig, siginfo_t *si, void *ucv) {
  (void)sig, (void)ucv;
  segvs++;
  if ((char *)si->si_addr >= page && (char *)si->si_addr < page + 4096) mprotect(page, 4096, PROT_READ | PROT_WRITE);
}
static void skip(void *ucv) {
  ucontext_t *uc = ucv;
  uint16_t low = *(uint16_t *)uc->uc_mcontext.__gregs[REG_PC];
  uc->uc_mcontext.__gregs[REG_PC] += (low & 3) == 3 ? 4 : 2;
}
static void on_trap(int sig, siginfo_t *si, void *ucv) {
  (void)sig, (void)si;
  traps++;
  skip(ucv);
}
static void on_ill(int sig, siginfo_t *si, void *ucv) {
  (void)sig;
  ills++;
  ucontext_t *uc = ucv;
  printf("sigill code=%d addr_is_pc=%d\n", si->si_code, (uintptr_t)si->si_addr == uc->uc_mcontext.__gregs[REG_PC]);
  uc->uc_mcontext.__gregs[REG_A0 + 0] = 1234; /* a0 after the skipped instruction */
  skip(ucv);
}
static void install(int sig, void (*fn)(int, siginfo_t *, void *)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = fn;
  sa.sa_flags = SA_SIGINFO;
  sigaction(sig, &sa, NULL);
}
int main(void) {
  install(SIGSEGV, on_segv);
  install(SIGTRAP, on_trap);
  install(SIGILL, on_ill);
  page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  *(volatile char *)&page[100] = 7;
  printf("segv retried: segvs=%d value=%d\n", segvs, page[100]);
  __asm__ volatile("ebreak");
  __asm__ volatile("ebreak");
  printf("traps=%d\n", traps);
  long a0;
  __asm__ volatile("li a0, 5\n\t.word 0\n\tmv %0, a0" : "=r"(a0) : : "a0");
  printf("ills=%d a0=%ld\n", ills, a0);
  double d = 1.5;
  __asm__ volatile("ebreak");
  printf("fp survives: %g\n", d * 2);
  return 0;
}
