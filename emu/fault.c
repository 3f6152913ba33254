/* emu/fault.c — a host fault inside the guest window (or a memory tool's
 * refusal) turned into the guest's terms: the faulting pc (the baseline
 * tier's side table), the guest address (the seam's clamp undone), the
 * instructions the stopped block retired, self-modifying code; then the
 * guest signal is raised and the dispatcher takes over. */
#include "fault.h"
#include "instrument.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_BLOCK_INSNS KIT_EMU_MAX_BLOCK_INSNS

void kit_emu_block_fault(KitEmu *emu, uint32_t retired) {
  if (emu->arch->retire) emu->arch->retire(kit_emu_cpu(emu), retired);
  /* the tools' instruction counts of what did not retire */
  const KitEmuBlock *b = kit_tcache_lookup(emu->tc, kit_thr(emu)->block_pc);
  if (b && b->code && b->code_insns) kit_emu_instr_fault(emu, b->code_insns, b->code_ninsns, retired);
  else if (b) kit_emu_instr_fault(emu, b->insns, b->ninsns, retired);
}

/* a block's pcs are unique, so the count is the faulting pc's index among
 * the instructions the running code was made from: the jitted ones (a trace
 * may hold more than the block), else the block decoded again (faults are
 * rare) */
uint32_t kit_emu_fault_retired(KitEmu *emu) {
  KitDecodedInsn buf[MAX_BLOCK_INSNS];
  uint64_t pc = emu->arch->get_pc(kit_emu_cpu(emu));
  const KitEmuBlock *b = kit_tcache_lookup(emu->tc, kit_thr(emu)->block_pc);
  if (b && b->code && b->code_insns) /* what the LLVM code was made from: possibly a trace */
    for (unsigned i = 0; i < b->code_ninsns; i++)
      if (b->code_insns[i].pc == pc) return i;
  unsigned n = kit_emu_decode_block(emu, kit_thr(emu)->block_pc, buf, emu->opt.single_step ? 1 : MAX_BLOCK_INSNS);
  for (unsigned i = 0; i < n; i++)
    if (buf[i].pc == pc) return i;
  return 0;
}

/* the failing side of a memory tool's check: the block returns here with a
 * SIGSEGV pending (the pc field holds the faulting instruction's pc: the seam
 * stores it before every access) */
int64_t kit_emu_mem_fault(void *cpu, int64_t addr) {
  KitEmu *emu = kit_emu_current;
  kit_emu_gil_ensure(emu);
  kit_emu_block_fault(emu, kit_emu_fault_retired(emu));
  const KitEmuRegion *r = (uint64_t)addr < emu->as.size ? kit_aspace_find(&emu->as, (uint64_t)addr) : NULL;
  kit_emu_raise(emu, SIGSEGV, r ? 2 : 1, (uint64_t)addr);
  return (int64_t)emu->arch->get_pc(cpu);
}

/* Called from the host fault handler (async-signal-safe: lookups and
 * arithmetic). In the guard the host address says nothing about a clamped
 * access, so the faulting instruction does: the pc field is exact and the
 * lifter flushed the registers before the access. An access that began
 * inside the window and ran past its end keeps the host's address (the
 * first byte past the end), as before the clamp. */
static uint64_t guest_fault_addr(KitEmu *emu, uint64_t ga) {
  if (ga < emu->as.size || !emu->arch->mem_addr) return ga;
  KitDecodedInsn in;
  uint64_t ea;
  if (kit_emu_decode_at(emu, emu->arch->get_pc(kit_emu_cpu(emu)), &in) <= 0 || !emu->arch->mem_addr(kit_emu_cpu(emu), &in, &ea))
    return ga;
  return ea >= emu->as.size ? ea : ga;
}

static void on_fault(int sig, siginfo_t *si, void *ucv) {
  KitEmu *emu = kit_emu_current;
  KitEmuThread *t = kit_emu_self; /* only a guest thread's faults are the guest's (not the JIT worker's) */
  uintptr_t a = (uintptr_t)si->si_addr, base = emu ? (uintptr_t)emu->as.base : 0;
  if (emu && t && t->in_guest && a >= base && a < base + emu->as.size + KIT_EMU_GUARD) {
    /* jitted code running in parallel holds no lock of the emulator's (nor
     * libc's): the fault is handled, and the guest signal raised, under
     * the execution lock */
    bool took = t->unlocked;
    kit_emu_gil_ensure(emu);
    uint64_t ga = a - base;
    if (ga < emu->as.size && kit_aspace_is_code(&emu->as, ga)) {
      const KitEmuRegion *r = kit_aspace_find(&emu->as, ga);
      if (r && (r->prot & KIT_EMU_PROT_WRITE)) { /* self-modifying code: retry the store */
        uint64_t page = ga & ~(KIT_EMU_PAGE - 1);
        kit_aspace_unmark_code(&emu->as, page);
        if (emu->smc_n < 16) emu->smc_pages[emu->smc_n++] = page;
        else emu->smc_overflow = 1;
        t->chain_stop = 1;
        if (took) { /* back to the store, in parallel again */
          kit_emu_gil_drop(emu);
          t->unlocked = true;
        }
        return;
      }
    }
#if defined(__x86_64__)
    uint64_t fpc; /* baseline code keeps the pc of its accesses in a side table */
    if (kit_tier_fault_pc(emu, (uintptr_t)((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP], &fpc))
      emu->arch->set_pc(t->cpu, fpc);
#else
    (void)ucv;
#endif
    ga = guest_fault_addr(emu, ga); /* a clamped out-of-window access: its own address */
    const KitEmuRegion *r = ga < emu->as.size ? kit_aspace_find(&emu->as, ga) : NULL;
    t->in_guest = 0;
    kit_emu_raise(emu, sig == SIGBUS ? SIGBUS : SIGSEGV, r ? 2 /* SEGV_ACCERR */ : 1 /* SEGV_MAPERR */, ga);
    siglongjmp(t->fault_jmp, 1);
  }
  static const char msg[] = "kit-emu: internal error: host fault outside the guest\n";
  if (write(fileno(stderr), msg, sizeof msg - 1) < 0) {}
  signal(sig, SIG_DFL); /* returning re-executes the access and dies with the host signal */
}

void kit_emu_fault_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
}
