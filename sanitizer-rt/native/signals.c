/* signals.c — deadly signal handlers (SIGSEGV/SIGBUS/SIGFPE when handle_segv
 * etc. are set): "AddressSanitizer:DEADLYSIGNAL", the SEGV report with the
 * access kind from the page-fault error code, the stack from the context. */
#define _GNU_SOURCE
#include "native.h"
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

static void handler(int sig, siginfo_t *si, void *uc_) {
  ucontext_t *uc = uc_;
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  uintptr_t bp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  uintptr_t addr = (uintptr_t)si->si_addr;
  const char *kind = sig == SIGSEGV ? "SEGV" : sig == SIGBUS ? "BUS" : "FPE";
  int pid = kit_san_pid();
  static const char dead[] = "AddressSanitizer:DEADLYSIGNAL\n";
  if (kit_san_in_report) {
    /* A fault while reporting: do not recurse into the report writer. */
    _exit(kit_san_opts.exitcode);
  }
  kit_san_printf("%s", dead);
  kit_san_report_begin();
  /* A fault just below (or a little above) sp is the stack running out. */
  if (sig == SIGSEGV && addr + 512 > sp && addr < sp + 0xffff) {
    kit_san_printf("==%d==ERROR: AddressSanitizer: stack-overflow on address 0x%012lx (pc "
                   "0x%012lx bp 0x%012lx sp 0x%012lx T%d)\n", pid, (unsigned long)addr,
                   (unsigned long)pc, (unsigned long)bp, (unsigned long)sp, kit_san_tid());
    uintptr_t frames[KIT_SAN_MAX_FRAMES];
    size_t n = kit_san_unwind(pc, bp, frames, 247);
    kit_san_print_stack(frames, n);
    kit_san_print_summary("stack-overflow", frames[0]);
    kit_san_report_end(true);
  }
  bool high = sig == SIGSEGV && si->si_code == SI_KERNEL;
  int access = sig == SIGSEGV ? (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0 : -1;
  kit_san_report_deadly(kind, pc, bp, sp, addr, high, access);
}

/* Each thread needs its own: a stack overflow can only be reported from elsewhere. */
void kit_native_altstack_install(void) {
  size_t alt = 1 << 16;
  void *stk = mmap(0, alt, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stk != MAP_FAILED) {
    stack_t ss = {.ss_sp = stk, .ss_size = alt, .ss_flags = 0};
    sigaltstack(&ss, NULL);
  }
}

void kit_native_signals_install(void) {
  static bool done;
  if (done)
    return;
  done = true;
  kit_native_altstack_install();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  if (kit_san_opts.handle_segv)
    sigaction(SIGSEGV, &sa, NULL);
  if (kit_san_opts.handle_sigbus)
    sigaction(SIGBUS, &sa, NULL);
  if (kit_san_opts.handle_sigfpe)
    sigaction(SIGFPE, &sa, NULL);
}
