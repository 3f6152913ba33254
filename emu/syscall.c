/* emu/syscall.c — the system call choke point: kit_emu_ecall (what lifted
 * code calls), the tool hooks around every call, -d syscall warnings, and
 * dispatch to the per-area files (fs, mem, proc). */
#include "syscall.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

const char *kit_emu_syscall_name(uint64_t nr) {
  switch (nr) {
#define KIT_EMU_SYSNAME(n, name) \
  case n: return #name;
    KIT_EMU_SYSCALLS(KIT_EMU_SYSNAME)
#undef KIT_EMU_SYSNAME
  default: return NULL;
  }
}

void kit_emu_warn(KitEmu *emu, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("kit-emu: ", emu->log);
  vfprintf(emu->log, fmt, ap);
  fputc('\n', emu->log);
  va_end(ap);
}

int64_t kit_emu_syscall(KitEmu *emu, uint64_t nr, const uint64_t a[6], uint64_t pc) {
  bool handled = false;
  int64_t r = kit_emu_sys_fs(emu, nr, a, &handled);
  if (!handled) r = kit_emu_sys_mem(emu, nr, a, &handled);
  if (!handled) r = kit_emu_sys_proc(emu, nr, a, &handled);
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
    return true;
  default:
    return false;
  }
}

/* a0..a5 in, a0 out, continue at pc + 4; rt_sigreturn continues where the
 * frame says and leaves a0 alone, exit leaves the CPU as it was. */
int64_t kit_emu_ecall(void *cpu, int64_t pc) {
  KitEmu *emu = kit_emu_current;
  const KitArch *ar = emu->arch;
  KitEmuSyscallRequest req = {.nr = ar->get_reg(cpu, RV_A7), .pc = (uint64_t)pc};
  for (int i = 0; i < 6; i++) req.args[i] = ar->get_reg(cpu, RV_A0 + i);
  if (emu->hooks.on_syscall_entry) emu->hooks.on_syscall_entry(emu->hooks.user, emu, &req);
  uint64_t next = (uint64_t)pc + 4;
  bool sigreturn = req.nr == KIT_SYS_rt_sigreturn;
  KitEmuSyscallResult res = {0};
  if (sigreturn) {
    next = kit_emu_sys_sigreturn(emu);
    res.ret = (int64_t)ar->get_reg(cpu, RV_A0);
  } else {
    res.ret = kit_emu_syscall(emu, req.nr, req.args, (uint64_t)pc);
  }
  if (emu->opt.debug & KIT_EMU_DEBUG_SYSCALL)
    fprintf(emu->log, "kit-emu: syscall %llu(%s) = %lld\n", (unsigned long long)req.nr,
            kit_emu_syscall_name(req.nr) ? kit_emu_syscall_name(req.nr) : "?", (long long)res.ret);
  if (emu->hooks.on_syscall_exit) emu->hooks.on_syscall_exit(emu->hooks.user, emu, &req, &res);
  if (res.ret == -EINTR && restartable(req.nr) && kit_emu_restart_after_signal(emu)) {
    /* like Linux: back to the ecall with a0 untouched, after the handler */
    ar->set_pc(cpu, (uint64_t)pc);
    return pc;
  }
  if (!sigreturn && !emu->exited) ar->set_reg(cpu, RV_A0, (uint64_t)res.ret);
  ar->set_pc(cpu, next);
  return (int64_t)next;
}
