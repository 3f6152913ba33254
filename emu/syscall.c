/* emu/syscall.c — the system call choke point: kit_emu_syscall_insn (what
 * lifted code calls; the arch says where number, arguments and result
 * live), the tool hooks around every call, -d syscall warnings, and
 * dispatch to the per-area files (fs, mem, net, proc) and the arch's own calls. */
#include "instrument.h"
#include "syscall.h"

#include <errno.h>
#include <stdlib.h>

/* the arch's own call numbered nr, NULL if it has none */
static const KitArchSyscall *arch_syscall(const KitArch *ar, uint64_t nr) {
  for (unsigned i = 0; ar && i < ar->nextra_syscalls; i++)
    if (ar->extra_syscalls[i].nr == nr) return &ar->extra_syscalls[i];
  return NULL;
}

const char *kit_emu_syscall_name(uint64_t nr) {
  switch (nr) {
#define KIT_EMU_SYSNAME(n, name) \
  case n: return #name;
    KIT_EMU_SYSCALLS(KIT_EMU_SYSNAME)
#undef KIT_EMU_SYSNAME
  default: break;
  }
  const KitArchSyscall *s = kit_emu_current ? arch_syscall(kit_emu_current->arch, nr) : NULL;
  return s ? s->name : NULL;
}

/* what the emulator does for the arch's own calls */
static int64_t sys_arch(KitEmu *emu, uint64_t nr, bool *handled) {
  const KitArchSyscall *s = arch_syscall(emu->arch, nr);
  *handled = s != NULL;
  if (s && s->action == KIT_ARCH_SYS_ICACHE_FLUSH) {
    kit_tcache_sync_shared(emu->tc);
    return 0;
  }
  return -ENOSYS;
}

int64_t kit_emu_syscall(KitEmu *emu, uint64_t nr, const uint64_t a[6], uint64_t pc) {
  bool handled = false;
  int64_t r = kit_emu_sys_thread(emu, nr, a, &handled);
  if (!handled) r = kit_emu_sys_fs(emu, nr, a, &handled);
  if (!handled) r = kit_emu_sys_mem(emu, nr, a, &handled);
  if (!handled) r = kit_emu_sys_proc(emu, nr, a, &handled);
  if (!handled) r = kit_emu_sys_net(emu, nr, a, &handled);
  if (!handled) r = sys_arch(emu, nr, &handled);
  if (!handled) {
    if (emu->opt.debug & KIT_EMU_DEBUG_SYSCALL) {
      const char *name = kit_emu_syscall_name(nr);
      kit_emu_warn(emu, "unsupported syscall %llu (%s) at pc 0x%llx: -ENOSYS", (unsigned long long)nr,
                   name ? name : "unknown", (unsigned long long)pc);
    }
    r = -ENOSYS;
  }
  return r;
}

/* calls Linux restarts after an SA_RESTART handler (the sleeps and waits
 * that report EINTR regardless are not among them) */
static bool restartable(uint64_t nr) {
  switch (nr) {
  case KIT_SYS_read: case KIT_SYS_write: case KIT_SYS_readv: case KIT_SYS_writev: case KIT_SYS_pread64:
  case KIT_SYS_pwrite64: case KIT_SYS_wait4: case KIT_SYS_openat: case KIT_SYS_ioctl: case KIT_SYS_fcntl:
  case KIT_SYS_getrandom: case KIT_SYS_sendfile: case KIT_SYS_fsync: case KIT_SYS_ftruncate:
  case KIT_SYS_accept: case KIT_SYS_accept4: case KIT_SYS_connect: case KIT_SYS_sendto: case KIT_SYS_recvfrom:
  case KIT_SYS_sendmsg: case KIT_SYS_recvmsg: /* signal(7): unless the socket has a timeout */
    return true;
  default:
    return false;
  }
}

/* Arguments and result where the arch keeps them, continue at next (the
 * instruction after the one at pc); rt_sigreturn continues where the frame
 * says and leaves the result register alone, exit leaves the CPU as it
 * was. */
int64_t kit_emu_syscall_insn(void *cpu, int64_t pc, int64_t next_pc) {
  KitEmu *emu = kit_emu_current;
  kit_emu_gil_ensure(emu); /* from code running in parallel */
  const KitArch *ar = emu->arch;
  KitEmuSyscall sc = {.pc = (uint64_t)pc};
  KitEmuThread *self = kit_thr_of_cpu(cpu);
  self->sys_next = (uint64_t)next_pc; /* where a clone child starts */
  self->sys_pc = (uint64_t)pc;
  ar->syscall_args(cpu, &sc.nr, sc.args);
  int64_t ret = 0;
  bool answered = emu->tools && kit_emu_ev_syscall(emu, &sc, &ret); /* a tool may answer it itself */
  uint64_t next = (uint64_t)next_pc;
  bool sigreturn = !answered && sc.nr == KIT_SYS_rt_sigreturn;
  if (sigreturn) {
    next = kit_emu_sys_sigreturn(emu);
    ret = (int64_t)ar->get_reg(cpu, ar->cc.ret);
  } else if (!answered) {
    ret = kit_emu_syscall(emu, sc.nr, sc.args, (uint64_t)pc);
  }
  if (emu->opt.debug & KIT_EMU_DEBUG_SYSCALL)
    fprintf(emu->log, "kit-emu: syscall %llu(%s) = %lld\n", (unsigned long long)sc.nr,
            kit_emu_syscall_name(sc.nr) ? kit_emu_syscall_name(sc.nr) : "?", (long long)ret);
  if (emu->tools) kit_emu_ev_syscall_ret(emu, &sc, ret);
  self->sys_pc = 0;
  if (ret == -EINTR && !answered &&
      ((restartable(sc.nr) && kit_emu_restart_after_signal(emu)) || kit_emu_signal_restart(emu))) {
    /* like Linux: back to the system call instruction with its arguments untouched, after the handler */
    ar->set_pc(cpu, (uint64_t)pc);
    return pc;
  }
  if (!sigreturn && !emu->exited) ar->syscall_result(cpu, ret);
  ar->set_pc(cpu, next);
  return (int64_t)next;
}
