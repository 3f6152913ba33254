/* arch/rv64/linux.c — the riscv64 Linux ABI the emulator's os stage asks
 * KitArch for: system call registers (a7, a0..a5 in, a0 out), the
 * rt_sigframe and its restore, the sigreturn trampoline, auxv bits. */
#include <stddef.h>
#include <string.h>

#include "rv64.h"

enum { A0 = 10, A7 = 17 };

void kit_rv64_syscall_args(const void *cpu, uint64_t *nr, uint64_t args[6]) {
  const KitRv64Cpu *c = cpu;
  *nr = c->x[A7];
  for (int i = 0; i < 6; i++) args[i] = c->x[A0 + i];
}

void kit_rv64_syscall_result(void *cpu, int64_t ret) { ((KitRv64Cpu *)cpu)->x[A0] = (uint64_t)ret; }

/* riscv's own calls, numbered after asm-generic's arch-specific base (244) */
const KitArchSyscall kit_rv64_extra_syscalls[2] = {
    {258, "riscv_hwprobe", KIT_ARCH_SYS_ENOSYS},
    {259, "riscv_flush_icache", KIT_ARCH_SYS_ICACHE_FLUSH},
};

/* riscv64 Linux: struct rt_sigframe { siginfo_t info; struct ucontext uc; } */
typedef struct RvSigFrame {
  struct {
    int32_t signo, errno_, code, pad;
    uint64_t f[14]; /* union: si_addr, or si_pid/si_uid */
  } info;
  struct {
    uint64_t flags, link;
    uint64_t ss_sp;
    int32_t ss_flags, ss_pad;
    uint64_t ss_size;
    uint64_t sigmask;
    uint8_t unused[120];
    uint8_t align_pad[8];   /* mcontext is 16-byte aligned (the q-extension state) */
    uint64_t gregs[32];     /* pc, x1..x31 */
    uint64_t fpregs[32];
    uint32_t fcsr;
    uint32_t fp_reserved[67]; /* rest of the __riscv_q_ext_state union */
  } uc;
} RvSigFrame;
_Static_assert(offsetof(RvSigFrame, uc) == 128, "siginfo is 128 bytes");
_Static_assert(offsetof(RvSigFrame, uc.gregs) == 128 + 176, "uc_mcontext at offset 176");
_Static_assert(sizeof(RvSigFrame) == KIT_RV64_SIGFRAME_SIZE, "riscv64 rt_sigframe size");

/* the handler gets (sig, &info, &uc) in a0..a2 and returns to ra */
void kit_rv64_sigframe_build(void *cpu, void *frame, uint64_t at, const KitArchSignal *sig) {
  KitRv64Cpu *c = cpu;
  RvSigFrame *f = frame;
  f->info.signo = sig->signo;
  f->info.code = sig->code;
  if (sig->has_addr) {
    f->info.f[0] = sig->addr;
  } else {
    uint32_t ids[2] = {sig->pid, sig->uid};
    memcpy(&f->info.f[0], ids, sizeof ids);
  }
  f->uc.ss_sp = sig->ss_sp;
  f->uc.ss_flags = sig->ss_flags;
  f->uc.ss_size = sig->ss_size;
  f->uc.sigmask = sig->mask;
  f->uc.gregs[0] = c->pc;
  memcpy(&f->uc.gregs[1], &c->x[1], 31 * sizeof c->x[0]);
  memcpy(f->uc.fpregs, c->f, sizeof c->f);
  f->uc.fcsr = c->fcsr;
  c->x[2] = at;                                      /* sp */
  c->x[A0] = (uint64_t)sig->signo;
  c->x[A0 + 1] = at + offsetof(RvSigFrame, info);
  c->x[A0 + 2] = at + offsetof(RvSigFrame, uc);
  c->x[1] = sig->restorer;                           /* ra */
  c->pc = sig->handler;
}

uint64_t kit_rv64_sigframe_restore(void *cpu, const void *frame, uint64_t *mask) {
  KitRv64Cpu *c = cpu;
  const RvSigFrame *f = frame;
  memcpy(&c->x[1], &f->uc.gregs[1], 31 * sizeof c->x[0]);
  memcpy(c->f, f->uc.fpregs, sizeof c->f);
  c->fcsr = f->uc.fcsr & 0xff;
  *mask = f->uc.sigmask;
  return f->uc.gregs[0];
}

/* li a7, 139 (rt_sigreturn): 0x08b00893; ecall: 0x00000073 (little-endian) */
const uint8_t kit_rv64_sigreturn_code[8] = {0x93, 0x08, 0xb0, 0x08, 0x73, 0x00, 0x00, 0x00};
