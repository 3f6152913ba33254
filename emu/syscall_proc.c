/* emu/syscall_proc.c — process, time and signal system calls: ids,
 * limits, uname, clocks, fork-style clone (threads are syscall_thread.c's),
 * wait4, kill (a signal to ourselves is delivered by the emulator). */
#include "syscall.h"
#include "rlimits.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { /* Linux's clone flags */
  LINUX_CLONE_VFORK = 0x4000, LINUX_CLONE_SETTLS = 0x80000,
  LINUX_CLONE_PARENT_SETTID = 0x100000, LINUX_CLONE_CHILD_SETTID = 0x1000000,
};


static int64_t put(KitEmu *emu, uint64_t va, const void *p, size_t n) {
  if (!va) return 0;
  return kit_aspace_write(&emu->as, va, p, n) < 0 ? -EFAULT : 0;
}

/* the host's number of a call that passes through with scalar arguments */
static long host_nr(uint64_t nr) {
  switch (nr) {
  case KIT_SYS_setuid: return SYS_setuid;
  case KIT_SYS_setgid: return SYS_setgid;
  case KIT_SYS_setfsuid: return SYS_setfsuid;
  case KIT_SYS_setfsgid: return SYS_setfsgid;
  case KIT_SYS_setreuid: return SYS_setreuid;
  case KIT_SYS_setregid: return SYS_setregid;
  case KIT_SYS_setresuid: return SYS_setresuid;
  case KIT_SYS_setresgid: return SYS_setresgid;
  case KIT_SYS_personality: return SYS_personality;
  case KIT_SYS_membarrier: return SYS_membarrier;
  case KIT_SYS_sched_getscheduler: return SYS_sched_getscheduler;
  case KIT_SYS_sched_get_priority_max: return SYS_sched_get_priority_max;
  case KIT_SYS_sched_get_priority_min: return SYS_sched_get_priority_min;
  case KIT_SYS_getpriority: return SYS_getpriority;
  case KIT_SYS_setpriority: return SYS_setpriority;
  case KIT_SYS_munlockall: return SYS_munlockall;
  default: abort();
  }
}

static int64_t do_clone(KitEmu *emu, const uint64_t a[6]) {
  uint64_t flags = a[0];
  /* vfork: the parent goes on when the child execs or exits, as on Linux:
   * the child holds a close-on-exec pipe's write end, whose end the parent
   * waits for (the child's memory is its own here, a fork's) */
  int vf[2] = {-1, -1};
  if ((flags & LINUX_CLONE_VFORK) && pipe2(vf, O_CLOEXEC) < 0) return -errno;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    if (vf[0] >= 0) close(vf[0]), close(vf[1]);
    return -e;
  }
  if (pid == 0) {
    if (vf[0] >= 0) close(vf[0]);
    kit_emu_threads_after_fork(emu);
    kit_tier_after_fork(emu);
    if (a[1]) emu->arch->set_reg(kit_emu_cpu(emu), KIT_EMU_REG(emu, sp), a[1]);
    if (flags & LINUX_CLONE_SETTLS) emu->arch->set_reg(kit_emu_cpu(emu), KIT_EMU_REG(emu, tp), a[3]);
    pid_t me = getpid();
    if (flags & LINUX_CLONE_CHILD_SETTID) put(emu, a[4], &me, 4);
    if (flags & LINUX_CLONE_PARENT_SETTID) put(emu, a[2], &me, 4);
    return 0;
  }
  if (flags & LINUX_CLONE_PARENT_SETTID) put(emu, a[2], &pid, 4);
  if (vf[0] >= 0) {
    close(vf[1]);
    char c;
    while (KIT_EMU_BLOCKING(emu, read(vf[0], &c, 1)) < 0 && errno == EINTR) {
    }
    close(vf[0]);
  }
  return pid;
}

/* kill() of our own process: pending on the process (SI_USER) for a thread
 * that does not block it, or one waiting for it (sigwait, a signalfd); the
 * caller looks at its next boundary, so with one thread the handler runs
 * before the instruction after the call, as raise needs */
static int64_t self_signal(KitEmu *emu, int sig) {
  if (sig < 0 || sig >= KIT_EMU_NSIG) return -EINVAL;
  if (!sig) return 0;
  emu->async_info[sig] = (KitEmuSigInfo){0 /* SI_USER */, 0, (uint32_t)getpid(), (uint32_t)getuid()};
  atomic_fetch_or(&emu->async_pending, 1ull << (sig - 1));
  kit_emu_signalfd_notify(emu, sig);
  KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(emu, &i));)
    if (atomic_load(&t->live)) kit_emu_thread_wake(emu, t);
  return 0;
}

int64_t kit_emu_sys_proc(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled) {
  *handled = true;
  switch (nr) {
  case KIT_SYS_getpid: return getpid();
  case KIT_SYS_getppid: return getppid();
  case KIT_SYS_getuid: return getuid();
  case KIT_SYS_geteuid: return geteuid();
  case KIT_SYS_getgid: return getgid();
  case KIT_SYS_getegid: return getegid();
  case KIT_SYS_getpgid: return neg(getpgid((pid_t)a[0]));
  case KIT_SYS_setpgid: return neg(setpgid((pid_t)a[0], (pid_t)a[1]));
  case KIT_SYS_getsid: return neg(getsid((pid_t)a[0]));
  case KIT_SYS_setsid: return neg(setsid());
  case KIT_SYS_rseq: return -ENOSYS;
  case KIT_SYS_clone3: return -ENOSYS; /* glibc falls back to clone */
  case KIT_SYS_prctl: return -EINVAL;
  case KIT_SYS_prlimit64:
  case KIT_SYS_getrlimit:
  case KIT_SYS_setrlimit: {
    int res = (int)(nr == KIT_SYS_prlimit64 ? a[1] : a[0]);
    uint64_t nv = nr == KIT_SYS_prlimit64 ? a[2] : nr == KIT_SYS_setrlimit ? a[1] : 0;
    uint64_t ov = nr == KIT_SYS_prlimit64 ? a[3] : nr == KIT_SYS_getrlimit ? a[1] : 0;
    if (nr == KIT_SYS_prlimit64 && a[0] && (pid_t)a[0] != getpid()) return -EPERM;
    uint64_t want[2], cur[2];
    if (nv && kit_aspace_read(&emu->as, nv, want, sizeof want) < 0) return -EFAULT;
    int64_t r = kit_emu_rlimit(res, nv ? want : NULL, cur);
    if (r < 0) return r;
    return put(emu, ov, cur, sizeof cur);
  }
  case KIT_SYS_getrusage: {
    struct rusage ru;
    if (getrusage((int)a[0], &ru) < 0) return -errno;
    return put(emu, a[1], &ru, sizeof ru);
  }
  case KIT_SYS_uname: {
    struct utsname u;
    uname(&u);
    snprintf(u.machine, sizeof u.machine, "%s", emu->arch->name);
    return a[0] ? put(emu, a[0], &u, sizeof u) : -EFAULT;
  }
  case KIT_SYS_sysinfo: {
    struct sysinfo si;
    sysinfo(&si);
    return a[0] ? put(emu, a[0], &si, sizeof si) : -EFAULT;
  }
  case KIT_SYS_sched_getaffinity: { /* the host's CPUs (one guest thread runs on any of them) */
    void *h = kit_emu_gw(emu, a[2], a[1]);
    if (!h) return -EFAULT;
    return neg(syscall(SYS_sched_getaffinity, (pid_t)a[0], (size_t)a[1], h)); /* any process's (taskset -p) */
  }
  case KIT_SYS_getrandom: {
    void *h = kit_emu_gw(emu, a[0], a[1]);
    if (!h && a[1]) return -EFAULT;
    return neg(getrandom(h, a[1], (unsigned)a[2]));
  }
  case KIT_SYS_clock_gettime:
  case KIT_SYS_clock_getres: {
    struct timespec ts;
    if ((nr == KIT_SYS_clock_gettime ? clock_gettime : clock_getres)((clockid_t)a[0], &ts) < 0) return -errno;
    return put(emu, a[1], &ts, sizeof ts);
  }
  case KIT_SYS_gettimeofday: {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    int64_t r = put(emu, a[0], &tv, sizeof tv);
    if (r == 0 && a[1]) r = put(emu, a[1], (uint64_t[1]){0}, 8);
    return r;
  }
  case KIT_SYS_nanosleep:
  case KIT_SYS_clock_nanosleep: {
    const uint64_t *req = nr == KIT_SYS_nanosleep ? &a[0] : &a[2];
    uint64_t rem = nr == KIT_SYS_nanosleep ? a[1] : a[3];
    struct timespec ts, left = {0};
    if (kit_aspace_read(&emu->as, *req, &ts, sizeof ts) < 0) return -EFAULT;
    int r = nr == KIT_SYS_nanosleep ? (KIT_EMU_BLOCKING(emu, nanosleep(&ts, &left)) < 0 ? -errno : 0)
                                    : -(int)KIT_EMU_BLOCKING(emu, clock_nanosleep((clockid_t)a[0], (int)a[1], &ts, &left));
    if (r == -EINTR) put(emu, rem, &left, sizeof left);
    return r;
  }
  case KIT_SYS_getitimer:
  case KIT_SYS_setitimer: {
    struct itimerval nv, ov;
    if (nr == KIT_SYS_getitimer) {
      if (getitimer((int)a[0], &ov) < 0) return -errno;
      return put(emu, a[1], &ov, sizeof ov);
    }
    if (kit_aspace_read(&emu->as, a[1], &nv, sizeof nv) < 0) return -EFAULT;
    if (setitimer((int)a[0], &nv, &ov) < 0) return -errno;
    return put(emu, a[2], &ov, sizeof ov);
  }
  case KIT_SYS_wait4: {
    int st = 0;
    struct rusage ru;
    pid_t r = (pid_t)KIT_EMU_BLOCKING(emu, wait4((pid_t)a[0], &st, (int)a[2], a[3] ? &ru : NULL));
    if (r < 0) return -errno;
    if (r > 0 && put(emu, a[1], &st, 4) < 0) return -EFAULT;
    if (a[3] && put(emu, a[3], &ru, sizeof ru) < 0) return -EFAULT;
    return r;
  }
  case KIT_SYS_waitid: { /* siginfo_t and struct rusage: one layout */
    void *info = a[2] ? kit_emu_gw(emu, a[2], 128) : NULL, *ru = a[4] ? kit_emu_gw(emu, a[4], sizeof(struct rusage)) : NULL;
    if ((a[2] && !info) || (a[4] && !ru)) return -EFAULT;
    return neg(KIT_EMU_BLOCKING(emu, syscall(SYS_waitid, (int)a[0], (pid_t)a[1], info, (int)a[3], ru)));
  }
  case KIT_SYS_times: {
    struct tms t;
    clock_t c = times(&t);
    if (c == (clock_t)-1) return -errno;
    return put(emu, a[0], &t, sizeof t) < 0 ? -EFAULT : (int64_t)c;
  }
  /* credentials: the raw calls, which change the calling thread only (glibc
   * makes every guest thread call them, as on Linux) */
  case KIT_SYS_setuid: case KIT_SYS_setgid: case KIT_SYS_setfsuid: case KIT_SYS_setfsgid:
  case KIT_SYS_setreuid: case KIT_SYS_setregid: case KIT_SYS_setresuid: case KIT_SYS_setresgid:
  case KIT_SYS_personality: case KIT_SYS_membarrier: case KIT_SYS_sched_getscheduler:
  case KIT_SYS_sched_get_priority_max: case KIT_SYS_sched_get_priority_min: case KIT_SYS_getpriority:
  case KIT_SYS_setpriority: case KIT_SYS_munlockall:
    return neg(syscall(host_nr(nr), a[0], a[1], a[2]));
  case KIT_SYS_mlockall:
    return neg(mlockall((int)a[0]));
  case KIT_SYS_getresuid:
  case KIT_SYS_getresgid: {
    uint32_t v[3];
    if (syscall(nr == KIT_SYS_getresuid ? SYS_getresuid : SYS_getresgid, &v[0], &v[1], &v[2]) < 0) return -errno;
    for (int k = 0; k < 3; k++)
      if (put(emu, a[k], &v[k], 4) < 0) return -EFAULT;
    return 0;
  }
  case KIT_SYS_getgroups:
  case KIT_SYS_setgroups: {
    if (a[0] > 65536) return -EINVAL;
    void *g = a[0] ? (nr == KIT_SYS_getgroups ? kit_emu_gw(emu, a[1], a[0] * 4) : kit_emu_gr(emu, a[1], a[0] * 4)) : NULL;
    if (a[0] && !g) return -EFAULT;
    return neg(syscall(nr == KIT_SYS_getgroups ? SYS_getgroups : SYS_setgroups, (int)a[0], g));
  }
  case KIT_SYS_getcpu: {
    unsigned cpu, node;
    if (syscall(SYS_getcpu, &cpu, &node, NULL) < 0) return -errno;
    return put(emu, a[0], &cpu, 4) < 0 || put(emu, a[1], &node, 4) < 0 ? -EFAULT : 0;
  }
  case KIT_SYS_sched_setaffinity: {
    const void *m = kit_emu_gr(emu, a[2], a[1]);
    if (!m && a[1]) return -EFAULT;
    return neg(syscall(SYS_sched_setaffinity, (pid_t)a[0], a[1], m));
  }
  case KIT_SYS_sched_getparam:
  case KIT_SYS_sched_setparam:
  case KIT_SYS_sched_setscheduler: { /* struct sched_param: one int */
    uint64_t va = nr == KIT_SYS_sched_setscheduler ? a[2] : a[1];
    void *p = nr == KIT_SYS_sched_getparam ? kit_emu_gw(emu, va, 4) : kit_emu_gr(emu, va, 4);
    if (!p) return -EFAULT;
    if (nr == KIT_SYS_sched_setscheduler) return neg(syscall(SYS_sched_setscheduler, (pid_t)a[0], (int)a[1], p));
    return neg(syscall(nr == KIT_SYS_sched_getparam ? SYS_sched_getparam : SYS_sched_setparam, (pid_t)a[0], p));
  }
  case KIT_SYS_sched_rr_get_interval: {
    struct timespec ts;
    if (syscall(SYS_sched_rr_get_interval, (pid_t)a[0], &ts) < 0) return -errno;
    return put(emu, a[1], &ts, sizeof ts);
  }
  case KIT_SYS_capget:
  case KIT_SYS_capset: { /* a header {version, pid} and up to two 12-byte data sets */
    void *h = kit_emu_gw(emu, a[0], 8), *d = a[1] ? kit_emu_gw(emu, a[1], 24) : NULL;
    if (!h || (a[1] && !d)) return -EFAULT;
    return neg(syscall(nr == KIT_SYS_capget ? SYS_capget : SYS_capset, h, d));
  }
  case KIT_SYS_mlock:
  case KIT_SYS_munlock:
  case KIT_SYS_mincore: { /* the guest range's host pages */
    if (!kit_aspace_check(&emu->as, a[0], a[1] ? a[1] : 1, 0)) return -ENOMEM;
    void *h = kit_aspace_host(&emu->as, a[0]);
    if (nr == KIT_SYS_mlock) return neg(mlock(h, a[1]));
    if (nr == KIT_SYS_munlock) return neg(munlock(h, a[1]));
    void *vec = kit_emu_gw(emu, a[2], (a[1] + 4095) / 4096);
    if (!vec) return -EFAULT;
    return neg(mincore(h, a[1], vec));
  }
  case KIT_SYS_kill:
    if ((pid_t)a[0] == getpid()) return self_signal(emu, (int)a[1]);
    return neg(kill((pid_t)a[0], (int)a[1]));
  case KIT_SYS_rt_sigaction:
    if (a[3] != 8) return -EINVAL;
    return kit_emu_sys_sigaction(emu, (int)a[0], a[1], a[2]);
  case KIT_SYS_rt_sigprocmask:
    if (a[3] != 8) return -EINVAL;
    return kit_emu_sys_sigprocmask(emu, (int)a[0], a[1], a[2]);
  case KIT_SYS_rt_sigpending: {
    KitEmuThread *t = kit_thr(emu);
    uint64_t p = (atomic_load(&emu->async_pending) | atomic_load(&t->pending) | t->sync_pending) & t->sigmask;
    return put(emu, a[0], &p, 8);
  }
  case KIT_SYS_rt_sigtimedwait:
    if (a[3] != 8) return -EINVAL;
    return kit_emu_sys_sigtimedwait(emu, a[0], a[1], a[2]);
  case KIT_SYS_signalfd4:
    return kit_emu_sys_signalfd(emu, (int)a[0], a[1], a[2], (int)a[3]);
  case KIT_SYS_rt_sigsuspend:
    return kit_emu_sys_sigsuspend(emu, a[0]);
  case KIT_SYS_sigaltstack:
    return kit_emu_sys_sigaltstack(emu, a[0], a[1]);
  case KIT_SYS_clone:
    return do_clone(emu, a);
  case KIT_SYS_execve:
    return kit_emu_sys_execve(emu, a[0], a[1], a[2]);
  default:
    *handled = false;
    return 0;
  }
}
