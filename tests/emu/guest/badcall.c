/* tests/emu/guest/badcall.c — calls and tail calls (jalr with and without a
 * link, with an offset, compressed) to a null, a wild (unmapped) and a
 * non-executable target: each is a SIGSEGV at the target pc for the guest's
 * handler (si_addr = pc, the link register as the jump left it), many times
 * over so that every tier runs the jumping block. `badcall die KIND` makes the
 * last call without a handler: the default action kills the guest. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

/* each jumps to a0; ra afterwards is the label after the jump (a call) or
 * the label the stub loaded into ra before it (a tail call) */
extern void call_jalr(uintptr_t), call_jalr_off(uintptr_t), call_cjalr(uintptr_t), tail_jr(uintptr_t),
    tail_cjr(uintptr_t);
extern char call_jalr_ret[], call_jalr_off_ret[], call_cjalr_ret[], tail_mark[];
__asm__(".option push\n.option norvc\n"
        ".globl call_jalr\ncall_jalr:\n  jalr ra, 0(a0)\ncall_jalr_ret:\n  ret\n"
        ".globl call_jalr_off\ncall_jalr_off:\n  addi a0, a0, -24\n  jalr ra, 24(a0)\ncall_jalr_off_ret:\n  ret\n"
        ".globl tail_jr\ntail_jr:\n  la ra, tail_mark\n  jalr zero, 0(a0)\n"
        ".globl tail_mark\ntail_mark:\n  ret\n"
        ".option rvc\n"
        ".globl call_cjalr\ncall_cjalr:\n  c.jalr a0\ncall_cjalr_ret:\n  ret\n"
        ".globl tail_cjr\ntail_cjr:\n  la ra, tail_mark\n  c.jr a0\n"
        ".option pop\n");

static struct {
  const char *name;
  void (*jump)(uintptr_t);
  const char *ra;
} kinds[] = {
    {"jalr", call_jalr, call_jalr_ret},     {"jalr_off", call_jalr_off, call_jalr_off_ret},
    {"c.jalr", call_cjalr, call_cjalr_ret}, {"jr", tail_jr, tail_mark},
    {"c.jr", tail_cjr, tail_mark},
};

static sigjmp_buf env;
static volatile uintptr_t got_addr, got_pc, got_ra;
static volatile int got_code;

static void on_segv(int sig, siginfo_t *si, void *uc) {
  (void)sig;
  got_addr = (uintptr_t)si->si_addr;
  got_code = si->si_code;
  got_pc = ((ucontext_t *)uc)->uc_mcontext.__gregs[0];
  got_ra = ((ucontext_t *)uc)->uc_mcontext.__gregs[1];
  siglongjmp(env, 1);
}

static uintptr_t target(const char *what, char *data) {
  if (!strcmp(what, "null")) return 0;
  if (!strcmp(what, "low")) return 0x10;
  if (!strcmp(what, "wild")) return 0x1234567000;
  if (!strcmp(what, "data")) return (uintptr_t)data;
  if (!strcmp(what, "stack")) return (uintptr_t)&what;
  return 0x123456789abc0;
}

int main(int argc, char **argv) {
  static const char *whats[] = {"null", "low", "wild", "data", "stack", "high"};
  char *data = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memset(data, 0x13, 4096); /* nops, were it executable */
  if (argc > 2 && !strcmp(argv[1], "die")) {
    printf("dying on %s\n", argv[2]);
    fflush(stdout);
    call_jalr(target(argv[2], data));
    return 0;
  }
  struct sigaction sa = {0};
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigaction(SIGSEGV, &sa, NULL);
  for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    for (unsigned w = 0; w < sizeof whats / sizeof whats[0]; w++) {
      uintptr_t t = target(whats[w], data);
      static volatile int bad;
      bad = 0;
      for (int i = 0; i < 300; i++) {
        got_addr = got_pc = got_ra = 1;
        got_code = -1;
        if (sigsetjmp(env, 1) == 0) {
          kinds[k].jump(t);
          bad |= 1;
        } else {
          bad |= (got_addr != t) << 1 | (got_pc != t) << 2 | (got_ra != (uintptr_t)kinds[k].ra) << 3;
        }
      }
      printf("%-8s %-5s si_code %d%s%s%s%s\n", kinds[k].name, whats[w], got_code, bad & 1 ? " returned" : "",
             bad & 2 ? " si_addr!=pc" : "", bad & 4 ? " uc_pc!=target" : "", bad & 8 ? " ra wrong" : "");
    }
  return 0;
}
