/* emu/signal.c — guest signals: dispositions and masks, the host handler
 * that records asynchronous signals (host faults are fault.c's), delivery
 * at block boundaries with the arch's rt_sigframe, rt_sigreturn, and
 * default actions that end the process. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include "instrument.h"
#include "syscall.h"

/* Linux's dispositions, sigaction flags and sigaltstack flags */
enum { LINUX_SIG_DFL = 0, LINUX_SIG_IGN = 1 };
enum { LINUX_SA_SIGINFO = 4, LINUX_SA_ONSTACK = 0x08000000, LINUX_SA_RESTART = 0x10000000,
       LINUX_SA_NODEFER = 0x40000000, LINUX_SA_RESETHAND = 0x80000000u };
enum { LINUX_SS_ONSTACK = 1, LINUX_SS_DISABLE = 2 };
/* the largest signal frame an arch may lay out */
#define MAX_SIGFRAME 4096

static uint64_t bit(int sig) { return 1ull << (sig - 1); }

static bool default_ignores(int sig) {
  return sig == SIGCHLD || sig == SIGWINCH || sig == SIGURG || sig == SIGCONT;
}

/* the default action stops the process, which the emulator does not do */
static bool default_stops(int sig) { return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU; }

/* the signals whose delivery does nothing now: at their default action,
 * which ignores them or stops (all of them below 32) */
static uint64_t discarded(const KitEmu *emu) {
  uint64_t m = 0;
  for (int sig = 1; sig < 32; sig++)
    if ((default_ignores(sig) || default_stops(sig)) && emu->sigact[sig].handler == LINUX_SIG_DFL) m |= bit(sig);
  return m;
}

/* what is pending for thread t: its own signals and the process's */
static uint64_t pending_for(KitEmu *emu, const KitEmuThread *t) {
  return t->sync_pending | atomic_load(&t->pending) | atomic_load(&emu->async_pending);
}

/* is a signal pending that would run a handler or end the process? (an
 * ignored one ends no wait, as on Linux) */
static bool deliverable(KitEmu *emu, KitEmuThread *t) {
  return pending_for(emu, t) & ~t->sigmask & ~discarded(emu);
}

/* every host signal but the faults, which must reach the fault handler */
static void all_but_faults(sigset_t *s) {
  sigfillset(s);
  sigdelset(s, SIGSEGV), sigdelset(s, SIGBUS), sigdelset(s, SIGILL), sigdelset(s, SIGFPE);
}

/* A signal for the process: pending until a thread that does not block it
 * reaches a boundary (the one running guest code is asked to look). */
static void on_async(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  KitEmu *emu = kit_emu_current;
  if (emu) {
    emu->async_info[sig] = (KitEmuSigInfo){si->si_code, sig == SIGCHLD ? si->si_status : 0, (uint32_t)si->si_pid,
                                           (uint32_t)si->si_uid};
    atomic_fetch_or(&emu->async_pending, bit(sig));
    kit_emu_signalfd_notify(emu, sig);
    KitEmuThread *h = atomic_load(&emu->gil_holder);
    if (h) h->chain_stop = 1;
    if (kit_emu_self) kit_emu_self->chain_stop = 1;
  }
}

/* KIT_EMU_WAKE_SIG: back to the dispatcher (a blocking host call returns EINTR) */
static void on_wake(int sig) {
  (void)sig;
  if (kit_emu_self) kit_emu_self->chain_stop = 1;
}

/* the host disposition that makes a guest disposition come true */
static void sync_host(KitEmu *emu, int sig) {
  KitEmuThread *t = kit_thr(emu);
  if (sig <= 0 || sig >= KIT_EMU_NSIG || sig == SIGKILL || sig == SIGSTOP || kit_emu_sync_only(sig) ||
      sig == KIT_EMU_WAKE_SIG)
    return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  uint64_t h = emu->sigact[sig].handler;
  if (h == LINUX_SIG_IGN) sa.sa_handler = SIG_IGN;
  /* the host's default action only while one thread's mask decides (with
   * several, a thread that blocks it must not die of it) */
  else if (h == LINUX_SIG_DFL && !(t->sigmask & bit(sig)) && atomic_load(&emu->nthreads) == 1) sa.sa_handler = SIG_DFL;
  else {
    /* no SA_RESTART: a blocking host call must come back (EINTR) so the guest
     * handler can run; kit_emu_syscall_insn restarts it when the guest asked */
    sa.sa_sigaction = on_async;
    sa.sa_flags = SA_SIGINFO;
  }
  sigaction(sig, &sa, NULL);
}

void kit_emu_thread_signals_init(void) {
  /* the fault handler's stack (a guest stack overflow faults on the guest's) */
  size_t size = 64 * 1024;
  void *p = malloc(size);
  stack_t ss = {.ss_sp = p, .ss_size = size};
  if (p) sigaltstack(&ss, NULL);
}

void kit_emu_signals_threaded(KitEmu *emu) {
  for (int s = 1; s < KIT_EMU_NSIG; s++) sync_host(emu, s);
}

void kit_emu_signals_init(KitEmu *emu) {
  KitEmuThread *t = kit_thr(emu);
  kit_emu_thread_signals_init();
  kit_emu_fault_install();
  struct sigaction wake;
  memset(&wake, 0, sizeof wake);
  sigemptyset(&wake.sa_mask);
  wake.sa_handler = on_wake; /* no SA_RESTART */
  sigaction(KIT_EMU_WAKE_SIG, &wake, NULL);
  /* the mask kit-emu was started with is the guest's (as execve keeps it);
   * the host's is open, so the emulator sees what arrives */
  sigset_t cur, none;
  sigemptyset(&none);
  if (pthread_sigmask(SIG_SETMASK, &none, &cur) == 0)
    for (int s = 1; s < 64; s++)
      if (s != SIGKILL && s != SIGSTOP && !kit_emu_sync_only(s) && s != KIT_EMU_WAKE_SIG && sigismember(&cur, s) == 1)
        t->sigmask |= bit(s);
  /* inherited dispositions: an ignored signal stays ignored, like after exec */
  for (int s = 1; s < KIT_EMU_NSIG; s++) {
    struct sigaction old;
    if (s < 32 && !kit_emu_sync_only(s) && sigaction(s, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      emu->sigact[s].handler = LINUX_SIG_IGN;
  }
  t->altstack_flags = LINUX_SS_DISABLE;
}

int64_t kit_emu_sys_sigaction(KitEmu *emu, int sig, uint64_t act, uint64_t oldact) {
  if (sig <= 0 || sig >= KIT_EMU_NSIG) return -EINVAL;
  if (oldact && kit_aspace_write(&emu->as, oldact, &emu->sigact[sig], sizeof(KitEmuSigAction)) < 0) return -EFAULT;
  if (act) {
    if (sig == SIGKILL || sig == SIGSTOP) return -EINVAL;
    KitEmuSigAction na;
    if (kit_aspace_read(&emu->as, act, &na, sizeof na) < 0) return -EFAULT;
    na.mask &= ~(bit(SIGKILL) | bit(SIGSTOP));
    emu->sigact[sig] = na;
    sync_host(emu, sig);
  }
  return 0;
}

int64_t kit_emu_sys_sigprocmask(KitEmu *emu, int how, uint64_t set, uint64_t oldset) {
  KitEmuThread *t = kit_thr(emu);
  uint64_t old = t->sigmask, m;
  if (set) {
    if (kit_aspace_read(&emu->as, set, &m, 8) < 0) return -EFAULT;
    if (how == 0) t->sigmask |= m;        /* SIG_BLOCK */
    else if (how == 1) t->sigmask &= ~m;  /* SIG_UNBLOCK */
    else if (how == 2) t->sigmask = m;    /* SIG_SETMASK */
    else return -EINVAL;
    t->sigmask &= ~(bit(SIGKILL) | bit(SIGSTOP));
    for (int s = 1; s < 32; s++)
      if ((old ^ t->sigmask) & bit(s)) sync_host(emu, s);
  }
  if (oldset && kit_aspace_write(&emu->as, oldset, &old, 8) < 0) return -EFAULT;
  return 0;
}

static bool on_altstack(KitEmu *emu, uint64_t sp) {
  KitEmuThread *t = kit_thr(emu);
  return !(t->altstack_flags & LINUX_SS_DISABLE) && sp > t->altstack_sp &&
         sp <= t->altstack_sp + t->altstack_size;
}

int64_t kit_emu_sys_sigaltstack(KitEmu *emu, uint64_t ss, uint64_t old) {
  KitEmuThread *t = kit_thr(emu);
  uint64_t sp = emu->arch->get_reg(kit_emu_cpu(emu), KIT_EMU_REG(emu, sp));
  if (old) {
    struct { uint64_t sp; int32_t flags, pad; uint64_t size; } o = {
        t->altstack_sp, (int32_t)(on_altstack(emu, sp) ? LINUX_SS_ONSTACK : t->altstack_flags), 0,
        t->altstack_size};
    if (kit_aspace_write(&emu->as, old, &o, sizeof o) < 0) return -EFAULT;
  }
  if (ss) {
    struct { uint64_t sp; int32_t flags, pad; uint64_t size; } n;
    if (kit_aspace_read(&emu->as, ss, &n, sizeof n) < 0) return -EFAULT;
    if (on_altstack(emu, sp)) return -EPERM;
    if (n.flags & LINUX_SS_DISABLE) {
      t->altstack_flags = LINUX_SS_DISABLE;
      return 0;
    }
    if (n.flags & ~0x80000000) return -EINVAL; /* SS_AUTODISARM is the only other flag */
    if (n.size < 2048) return -ENOMEM;
    t->altstack_sp = n.sp;
    t->altstack_size = n.size;
    t->altstack_flags = 0;
  }
  return 0;
}

bool kit_emu_restart_after_signal(KitEmu *emu) {
  KitEmuThread *t = kit_thr(emu);
  uint64_t pending = (atomic_load(&emu->async_pending) | atomic_load(&t->pending)) & ~t->sigmask;
  if (!pending) return false;
  int sig = __builtin_ctzll(pending) + 1;
  uint64_t h = emu->sigact[sig].handler;
  return h != LINUX_SIG_DFL && h != LINUX_SIG_IGN && (emu->sigact[sig].flags & LINUX_SA_RESTART);
}

_Noreturn void kit_emu_die_by_signal(KitEmu *emu, int sig) {
  kit_emu_ev_exit(emu, 128 + sig);
  fflush(NULL);
  /* no core of a process that reserved a 256 GiB guest window */
  struct rlimit rl = {0, 0};
  setrlimit(RLIMIT_CORE, &rl);
  signal(sig, SIG_DFL);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  sigprocmask(SIG_UNBLOCK, &s, NULL);
  raise(sig);
  _exit(128 + sig);
}

/* the tools' signal event: handler 0 when the default action ends the guest */
static void tell_tools(KitEmu *emu, int sig, bool is_sync, uint64_t handler) {
  KitEmuThread *t = kit_thr(emu);
  if (!emu->tools) return;
  bool fault = is_sync && kit_emu_sync_only(sig);
  KitEmuSignal s = {.signo = sig, .code = fault ? t->fault_code : is_sync ? -6 : 0, .addr = fault ? t->fault_addr : 0,
                    .pc = emu->arch->get_pc(kit_emu_cpu(emu)), .fatal = !handler, .handler = handler};
  kit_emu_ev_signal(emu, &s);
}

static void sigfd_refresh(KitEmu *emu);
static void deliver(KitEmu *emu, int sig, bool is_sync) {
  KitEmuThread *t = kit_thr(emu);
  sigfd_refresh(emu); /* sig is taken: a signalfd that only had it is no longer readable */
  const KitArch *ar = emu->arch;
  void *cpu = kit_emu_cpu(emu);
  KitEmuSigAction act = emu->sigact[sig];
  bool blocked_sync = is_sync && kit_emu_sync_only(sig) && (t->sigmask & bit(sig));
  if (act.handler == LINUX_SIG_IGN && !(is_sync && kit_emu_sync_only(sig))) return;
  if (act.handler == LINUX_SIG_DFL || act.handler == LINUX_SIG_IGN || blocked_sync) {
    if (default_ignores(sig) && !blocked_sync) return;
    if (default_stops(sig)) return;
    if (emu->opt.debug & (KIT_EMU_DEBUG_EXEC | KIT_EMU_DEBUG_SYSCALL))
      fprintf(emu->log, "kit-emu: guest killed by signal %d at pc 0x%llx (fault address 0x%llx)\n", sig,
              (unsigned long long)ar->get_pc(cpu), (unsigned long long)t->fault_addr);
    tell_tools(emu, sig, is_sync, 0);
    kit_emu_die_by_signal(emu, sig);
  }
  tell_tools(emu, sig, is_sync, act.handler);
  uint64_t sp = ar->get_reg(cpu, ar->cc.sp);
  if ((act.flags & LINUX_SA_ONSTACK) && !(t->altstack_flags & LINUX_SS_DISABLE) && !on_altstack(emu, sp))
    sp = t->altstack_sp + t->altstack_size;
  uint64_t fsp = (sp - ar->sigframe_size) & ~(uint64_t)(ar->sigframe_align - 1);
  void *f = kit_emu_gw(emu, fsp, ar->sigframe_size);
  if (!f) { /* no room for the frame: Linux forces SIGSEGV's default action */
    kit_emu_die_by_signal(emu, SIGSEGV);
  }
  memset(f, 0, ar->sigframe_size);
  KitArchSignal si = {.signo = sig, .handler = act.handler, .restorer = emu->sigreturn_tramp};
  if (is_sync && kit_emu_sync_only(sig)) {
    si.code = t->fault_code;
    si.has_addr = true;
    si.addr = t->fault_addr;
  } else {
    /* the process's signals: what the host handler was told */
    const KitEmuSigInfo *in = &emu->async_info[sig];
    si.code = is_sync ? -6 /* SI_TKILL */ : in->code;
    si.pid = is_sync ? (uint32_t)getpid() : in->pid;
    si.uid = is_sync ? (uint32_t)getuid() : in->uid;
  }
  si.ss_sp = t->altstack_sp;
  si.ss_flags = (int32_t)t->altstack_flags;
  si.ss_size = t->altstack_size;
  si.mask = t->has_restore_mask ? t->restore_mask : t->sigmask;
  t->has_restore_mask = false;
  if (!(act.flags & LINUX_SA_NODEFER)) t->sigmask |= bit(sig);
  t->sigmask |= act.mask;
  t->sigmask &= ~(bit(SIGKILL) | bit(SIGSTOP));
  if (act.flags & LINUX_SA_RESETHAND) {
    emu->sigact[sig].handler = LINUX_SIG_DFL;
    sync_host(emu, sig);
  }
  ar->sigframe_build(cpu, f, fsp, &si);
}

/* One signal per boundary: the next pending one is delivered before the
 * handler's first block, which nests the frames as Linux does. Faults go
 * first and ignore the mask (a blocked fault takes its default action). */
void kit_emu_deliver_signals(KitEmu *emu) {
  KitEmuThread *t = kit_thr(emu);
  uint64_t sync = t->sync_pending;
  uint64_t faults = bit(SIGSEGV) | bit(SIGBUS) | bit(SIGILL) | bit(SIGFPE) | bit(SIGTRAP);
  uint64_t deliverable = (sync & ~t->sigmask) | (sync & faults);
  bool is_sync = deliverable != 0;
  if (is_sync) {
    int sig = __builtin_ctzll(deliverable) + 1;
    t->sync_pending &= ~bit(sig);
    deliver(emu, sig, true);
    return;
  }
  /* sent to this thread by another (tgkill), then the process's */
  uint64_t mine = atomic_load(&t->pending) & ~t->sigmask;
  if (mine) {
    int sig = __builtin_ctzll(mine) + 1;
    atomic_fetch_and(&t->pending, ~bit(sig));
    deliver(emu, sig, true);
    return;
  }
  uint64_t proc = atomic_load(&emu->async_pending);
  uint64_t set = proc & ~t->sigmask;
  if (set) {
    int sig = __builtin_ctzll(set) + 1;
    if (atomic_fetch_and(&emu->async_pending, ~bit(sig)) & bit(sig)) deliver(emu, sig, false);
    return;
  }
  /* blocked here: a thread that does not block it takes it, out of its wait */
  KitEmuThread *o;
  for (unsigned i = 0; proc && (o = kit_emu_next_thread(emu, &i));) {
    if (o != t && atomic_load(&o->live) && !o->done && (proc & ~o->sigmask) && !o->chain_stop) {
      kit_emu_thread_wake(emu, o);
      break;
    }
  }
}

/* take the lowest signal of set pending on this thread or the process */
static int take_pending(KitEmu *emu, KitEmuThread *t, uint64_t set, KitEmuSigInfo *info) {
  uint64_t mine = (t->sync_pending | atomic_load(&t->pending)) & set;
  if (mine) {
    int sig = __builtin_ctzll(mine) + 1;
    t->sync_pending &= ~bit(sig);
    atomic_fetch_and(&t->pending, ~bit(sig));
    *info = (KitEmuSigInfo){-6 /* SI_TKILL */, 0, (uint32_t)getpid(), (uint32_t)getuid()};
    return sig;
  }
  uint64_t proc = atomic_load(&emu->async_pending) & set;
  while (proc) {
    int sig = __builtin_ctzll(proc) + 1;
    if (atomic_fetch_and(&emu->async_pending, ~bit(sig)) & bit(sig)) {
      *info = emu->async_info[sig];
      return sig;
    }
    proc &= ~bit(sig);
  }
  return 0;
}

/* rt_sigtimedwait (sigwait, sigwaitinfo, sigtimedwait): a signal of set
 * (the guest blocks them, so they stay pending) is taken instead of
 * delivered; waits with the lock let go, up to the timeout */
int64_t kit_emu_sys_sigtimedwait(KitEmu *emu, uint64_t set_va, uint64_t info_va, uint64_t ts_va) {
  KitEmuThread *t = kit_thr(emu);
  uint64_t set;
  if (kit_aspace_read(&emu->as, set_va, &set, 8) < 0) return -EFAULT;
  set &= ~(bit(SIGKILL) | bit(SIGSTOP));
  struct timespec limit = {0, 0}, *lp = NULL;
  if (ts_va) {
    if (kit_aspace_read(&emu->as, ts_va, &limit, sizeof limit) < 0) return -EFAULT;
    if (limit.tv_nsec < 0 || limit.tv_nsec >= 1000000000) return -EINVAL;
    lp = &limit;
  }
  struct timespec now, end = {0, 0};
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (lp) {
    end.tv_sec = now.tv_sec + limit.tv_sec, end.tv_nsec = now.tv_nsec + limit.tv_nsec;
    if (end.tv_nsec >= 1000000000) end.tv_sec++, end.tv_nsec -= 1000000000;
  }
  sigset_t all, old;
  all_but_faults(&all);
  KitEmuSigInfo info = {0, 0, 0, 0};
  int sig;
  bool dropped = false;
  for (;;) {
    pthread_sigmask(SIG_BLOCK, &all, &old);
    if ((sig = take_pending(emu, t, set, &info)) || emu->exited || deliverable(emu, t)) {
      pthread_sigmask(SIG_SETMASK, &old, NULL);
      break;
    }
    struct timespec left = {0, 0};
    if (lp) {
      clock_gettime(CLOCK_MONOTONIC, &now);
      left.tv_sec = end.tv_sec - now.tv_sec, left.tv_nsec = end.tv_nsec - now.tv_nsec;
      if (left.tv_nsec < 0) left.tv_sec--, left.tv_nsec += 1000000000;
      if (left.tv_sec < 0) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        break;
      }
    }
    if (!dropped) dropped = kit_emu_blocking_begin(emu);
    ppoll(NULL, 0, lp ? &left : NULL, &old); /* the host signals open only while it waits */
    pthread_sigmask(SIG_SETMASK, &old, NULL);
  }
  kit_emu_blocking_end(emu, dropped);
  if (!sig) return emu->exited || !lp ? -EINTR : -EAGAIN; /* another signal came first, or the time ran out */
  sigfd_refresh(emu);
  if (info_va) {
    /* Linux's siginfo: kill's pid and uid, and SIGCHLD's status after them */
    struct { int32_t signo, err, code, pad; uint32_t pid, uid; int32_t status; uint8_t rest[100]; } si = {
        .signo = sig, .code = info.code, .pid = info.pid, .uid = info.uid, .status = info.status};
    if (kit_aspace_write(&emu->as, info_va, &si, sizeof si) < 0) return -EFAULT;
  }
  return sig;
}

/* the host signals that stand for the guest's blocked ones: all the host
 * handler only records (not the emulator's fault signals or its wake-up) */
static void host_blocked(uint64_t guest_mask, sigset_t *s) {
  for (int sig = 1; sig < KIT_EMU_NSIG; sig++)
    if ((guest_mask & bit(sig)) && sig != SIGKILL && sig != SIGSTOP && !kit_emu_sync_only(sig) &&
        sig != KIT_EMU_WAKE_SIG)
      sigaddset(s, sig);
}

/* what the host keeps out of a blocking call: the guest's blocked signals
 * and, once a second thread made the ignored ones host-caught (sync_host),
 * those too */
static uint64_t sigfd_watched(KitEmu *emu);
static uint64_t kept_out(KitEmu *emu, const KitEmuThread *t) {
  uint64_t m = t->sigmask | (atomic_load(&emu->nthreads) > 1 ? discarded(emu) : 0);
  /* not what a signalfd watches: its handler must run to make the descriptor readable */
  return m ? m & ~sigfd_watched(emu) : 0;
}

bool kit_emu_keep_out(KitEmu *emu, sigset_t *hold) {
  KitEmuThread *t = kit_thr(emu);
  uint64_t m = t ? kept_out(emu, t) : 0;
  if (!m) return false;
  sigset_t s;
  sigemptyset(&s);
  host_blocked(m, &s);
  return pthread_sigmask(SIG_BLOCK, &s, hold) == 0;
}

int64_t kit_emu_masked_wait(KitEmu *emu, uint64_t mask_va, uint64_t size,
                            long (*wait)(const sigset_t *host_mask, void *ctx), void *ctx) {
  KitEmuThread *t = kit_thr(emu);
  uint64_t old = t->sigmask, m = old;
  if (mask_va) {
    if (size != 8) return -EINVAL;
    if (kit_aspace_read(&emu->as, mask_va, &m, 8) < 0) return -EFAULT;
  }
  t->sigmask = m & ~(bit(SIGKILL) | bit(SIGSTOP));
  sigset_t all, hold, during;
  all_but_faults(&all);
  pthread_sigmask(SIG_BLOCK, &all, &hold);
  during = hold;
  host_blocked(kept_out(emu, t), &during);
  long r = -EINTR;
  if (!deliverable(emu, t) && !emu->exited) {
    bool dropped = kit_emu_blocking_begin(emu);
    r = wait(&during, ctx);
    if (r < 0) r = -errno;
    kit_emu_blocking_end(emu, dropped);
  }
  pthread_sigmask(SIG_SETMASK, &hold, NULL); /* what came during the wait is recorded now */
  if (r == -EINTR && mask_va && deliverable(emu, t)) {
    t->restore_mask = old; /* the handler runs under m; its frame saves the old mask */
    t->has_restore_mask = true;
  } else {
    t->sigmask = old;
  }
  return r;
}

int64_t kit_emu_sys_sigsuspend(KitEmu *emu, uint64_t mask_va) {
  KitEmuThread *t = kit_thr(emu);
  uint64_t m;
  if (kit_aspace_read(&emu->as, mask_va, &m, 8) < 0) return -EFAULT;
  t->restore_mask = t->sigmask;
  t->has_restore_mask = true;
  t->sigmask = m & ~(bit(SIGKILL) | bit(SIGSTOP));
  /* the handler runs at the next block boundary, under mask m; its frame
   * saves the old mask so rt_sigreturn puts it back. Host signals are
   * blocked between the test and the wait, so none is lost in between. */
  sigset_t all, old;
  all_but_faults(&all);
  bool dropped = kit_emu_blocking_begin(emu);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  while (!emu->exited && !deliverable(emu, t))
    sigsuspend(&old);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  kit_emu_blocking_end(emu, dropped);
  return -EINTR;
}

uint64_t kit_emu_sys_sigreturn(KitEmu *emu) {
  KitEmuThread *t = kit_thr(emu);
  const KitArch *ar = emu->arch;
  uint64_t sp = ar->get_reg(kit_emu_cpu(emu), ar->cc.sp);
  _Alignas(16) uint8_t frame[MAX_SIGFRAME];
  if (ar->sigframe_size > sizeof frame || kit_aspace_read(&emu->as, sp, frame, ar->sigframe_size) < 0) {
    kit_emu_raise(emu, SIGSEGV, 1, sp);
    return ar->get_pc(kit_emu_cpu(emu));
  }
  uint64_t mask;
  uint64_t pc = ar->sigframe_restore(kit_emu_cpu(emu), frame, &mask);
  t->sigmask = mask & ~(bit(SIGKILL) | bit(SIGSTOP));
  for (int s = 1; s < 32; s++) sync_host(emu, s);
  return pc;
}

/* ---- signalfd ---------------------------------------------------------------------- */

/* Each guest signalfd is a host eventfd with the guest's flags; a signal of
 * its mask made pending (the host handler, kill of ourselves, tgkill) adds
 * to it, so poll, select and epoll see it readable; read takes the pending
 * signals of the mask as signalfd_siginfo records. The signals watched stay
 * open to the host handler during blocking calls (kept_out), and such a call
 * interrupted by one with nothing to deliver runs again (kit_emu_syscall_insn). */

static uint64_t sigfd_watched(KitEmu *emu) {
  uint64_t m = 0;
  for (unsigned i = 0; i < KIT_EMU_MAX_SIGFDS; i++)
    if (atomic_load(&emu->sigfds[i].fd1)) m |= atomic_load(&emu->sigfds[i].mask);
  return m;
}

/* the eventfd readable (async-signal-safe; errno kept) */
static void sigfd_poke(int fd) {
  int e = errno;
  uint64_t one = 1;
  ssize_t w = write(fd, &one, sizeof one);
  (void)w;
  errno = e;
}

void kit_emu_signalfd_notify(KitEmu *emu, int sig) { /* from a signal handler too */
  for (unsigned i = 0; i < KIT_EMU_MAX_SIGFDS; i++) {
    int fd1 = atomic_load(&emu->sigfds[i].fd1);
    if (fd1 && (atomic_load(&emu->sigfds[i].mask) & bit(sig))) sigfd_poke(fd1 - 1);
  }
}

/* the eventfd's count back to 0 (under the execution lock: no other guest thread reads it) */
static void sigfd_drain(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  uint64_t v;
  if (poll(&p, 1, 0) == 1 && (p.revents & POLLIN)) {
    ssize_t r = read(fd, &v, sizeof v);
    (void)r;
  }
}

static uint64_t sigfd_pending(KitEmu *emu, uint64_t mask);
/* after signals were taken (read, delivered, sigwait): each descriptor
 * readable exactly when a signal of its mask is still pending */
static void sigfd_refresh(KitEmu *emu) {
  for (unsigned i = 0; i < KIT_EMU_MAX_SIGFDS; i++) {
    int fd1 = atomic_load(&emu->sigfds[i].fd1);
    if (!fd1) continue;
    sigfd_drain(fd1 - 1);
    if (sigfd_pending(emu, atomic_load(&emu->sigfds[i].mask))) sigfd_poke(fd1 - 1);
  }
}

static int sigfd_slot(KitEmu *emu, int fd) {
  if (fd < 0) return -1;
  for (unsigned i = 0; i < KIT_EMU_MAX_SIGFDS; i++)
    if (atomic_load(&emu->sigfds[i].fd1) == fd + 1) return (int)i;
  return -1;
}

bool kit_emu_is_signalfd(KitEmu *emu, int fd) {
  return sigfd_slot(emu, fd) >= 0;
}

bool kit_emu_signal_restart(KitEmu *emu) {
  return sigfd_watched(emu) && !emu->exited && !deliverable(emu, kit_thr(emu));
}

void kit_emu_signalfd_closed(KitEmu *emu, int lo, int hi) {
  for (unsigned i = 0; i < KIT_EMU_MAX_SIGFDS; i++) {
    int fd1 = atomic_load(&emu->sigfds[i].fd1);
    if (fd1 && fd1 - 1 >= lo && fd1 - 1 <= hi) atomic_store(&emu->sigfds[i].fd1, 0);
  }
}

/* those of mask pending now, in the caller's thread or the process */
static uint64_t sigfd_pending(KitEmu *emu, uint64_t mask) { return pending_for(emu, kit_thr(emu)) & mask; }

int64_t kit_emu_sys_signalfd(KitEmu *emu, int fd, uint64_t mask_va, uint64_t size, int flags) {
  uint64_t m;
  if (size != 8 || (flags & ~(O_NONBLOCK | O_CLOEXEC))) return -EINVAL;
  if (kit_aspace_read(&emu->as, mask_va, &m, 8) < 0) return -EFAULT;
  m &= ~(bit(SIGKILL) | bit(SIGSTOP));
  int slot;
  if (fd != -1) {
    if ((slot = sigfd_slot(emu, fd)) < 0) return fcntl(fd, F_GETFD) < 0 ? -EBADF : -EINVAL;
    atomic_store(&emu->sigfds[slot].mask, m);
  } else {
    slot = 0;
    while (slot < KIT_EMU_MAX_SIGFDS && atomic_load(&emu->sigfds[slot].fd1)) slot++;
    if (slot == KIT_EMU_MAX_SIGFDS) return -EMFILE;
    fd = eventfd(0, (flags & O_NONBLOCK ? EFD_NONBLOCK : 0) | (flags & O_CLOEXEC ? EFD_CLOEXEC : 0));
    if (fd < 0) return -errno;
    atomic_store(&emu->sigfds[slot].mask, m);
    atomic_store(&emu->sigfds[slot].fd1, fd + 1);
  }
  uint64_t already = sigfd_pending(emu, m);
  if (already) kit_emu_signalfd_notify(emu, __builtin_ctzll(already) + 1); /* readable at once */
  return fd;
}

int64_t kit_emu_signalfd_read(KitEmu *emu, int fd, uint64_t buf_va, uint64_t len) {
  int slot = sigfd_slot(emu, fd);
  if (slot < 0) return -EBADF;
  if (len < 128) return -EINVAL;
  KitEmuThread *t = kit_thr(emu);
  for (;;) {
    uint64_t mask = atomic_load(&emu->sigfds[slot].mask), n = 0;
    KitEmuSigInfo in;
    int sig;
    while (n + 128 <= len && (sig = take_pending(emu, t, mask, &in))) {
      /* struct signalfd_siginfo: signo, errno, code, pid, uid, fd, tid, band,
       * overrun, trapno, status (at 40), int, ptr, utime, stime, addr, ... */
      uint32_t rec[32] = {0};
      rec[0] = (uint32_t)sig, rec[2] = (uint32_t)in.code, rec[3] = in.pid, rec[4] = in.uid;
      rec[10] = (uint32_t)in.status;
      if (kit_aspace_write(&emu->as, buf_va + n, rec, sizeof rec) < 0) return n ? (int64_t)n : -EFAULT;
      n += 128;
    }
    sigfd_refresh(emu); /* this one and the others watching what was taken */
    if (n) return (int64_t)n;
    if (fcntl(fd, F_GETFL) & O_NONBLOCK) return -EAGAIN;
    struct pollfd p = {fd, POLLIN, 0};
    if (KIT_EMU_BLOCKING(emu, poll(&p, 1, -1)) < 0 && errno == EINTR && (emu->exited || deliverable(emu, t)))
      return -EINTR; /* a signal with a handler (or the end) came first */
  }
}
