/* emu/syscall_thread.c — guest threads (docs/emu.md, "Threads"): clone with
 * CLONE_THREAD starts a host thread with its own CPU state; exit ends one
 * thread, exit_group the process; futex on guest addresses is the host's
 * futex on the same memory (the guest window is host memory, and guest
 * tids are host tids, so the PI forms work too); tkill/tgkill reach a thread
 * of the guest; set_tid_address and CLONE_CHILD_CLEARTID wake a joiner. */
#include "instrument.h"
#include "syscall.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { /* Linux's clone flags */
  LINUX_CLONE_VM = 0x100, LINUX_CLONE_THREAD = 0x10000, LINUX_CLONE_SETTLS = 0x80000,
  LINUX_CLONE_PARENT_SETTID = 0x100000, LINUX_CLONE_CHILD_CLEARTID = 0x200000,
  LINUX_CLONE_CHILD_SETTID = 0x1000000,
};

static uint64_t bit(int sig) { return 1ull << (sig - 1); }

typedef struct Start {
  KitEmuThread *t;
  uint64_t flags, ctid;
  sem_t ready;
} Start;

/* the first thread is there to end the process (running, or waiting in its exit) */
static bool first_there(KitEmu *emu) {
  return atomic_load(&emu->threads[0]->live) || emu->main_waits;
}

static void tell_all_done(KitEmu *emu) {
  pthread_mutex_lock(&emu->mu);
  pthread_cond_broadcast(&emu->all_done);
  pthread_mutex_unlock(&emu->mu);
}

/* The process ends (exit_group, the last exit) while this thread is not
 * the first: the first ends it on its host thread; this one waits, out of
 * the way (and wakes the first again, in case the first wake came just
 * before it blocked). */
static _Noreturn void park(KitEmu *emu, KitEmuThread *t) {
  atomic_store(&t->seen, UINT64_MAX);
  if (!first_there(emu)) emu->process_end(emu); /* a fork child made by this thread */
  kit_emu_gil_drop(emu);
  for (;;) {
    kit_emu_thread_wake(emu, emu->threads[0]);
    tell_all_done(emu);
    usleep(20000);
  }
}

/* The robust futexes the thread still holds (set_robust_list), as Linux's
 * exit_robust_list: each lock word whose owner tid is this thread's gets
 * FUTEX_OWNER_DIED, and a waiter is woken. */
static void robust_release(KitEmu *emu, KitEmuThread *t) {
  struct { uint64_t next; int64_t offset; uint64_t pending; } head;
  if (!t->robust_list || kit_aspace_read(&emu->as, t->robust_list, &head, sizeof head) < 0) return;
  uint64_t entry = head.next;
  for (unsigned n = 0; entry && entry != t->robust_list && n < 2048; n++) {
    uint64_t next;
    if (kit_aspace_read(&emu->as, entry, &next, 8) < 0) break;
    uint32_t *w = kit_emu_gw(emu, entry + (uint64_t)head.offset, 4);
    uint32_t v = w ? __atomic_load_n(w, __ATOMIC_SEQ_CST) : 0;
    while (w && (v & FUTEX_TID_MASK) == (uint32_t)t->tid) {
      uint32_t nv = (v & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
      if (__atomic_compare_exchange_n(w, &v, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        if (v & FUTEX_WAITERS) syscall(SYS_futex, w, FUTEX_WAKE, 1, NULL, NULL, 0);
        break;
      }
    }
    entry = next;
  }
}

/* what a thread leaves behind (execution lock held): the tools told, the
 * joiner woken (CLONE_CHILD_CLEARTID), the process ended if it was the last */
static void thread_end(KitEmu *emu, KitEmuThread *t) {
  if (!t->ended) {
    t->ended = true;
    kit_emu_ev_thread(emu, t->vcpu, false);
  }
  robust_release(emu, t);
  if (t->ctid_clear) {
    uint32_t *w = kit_emu_gw(emu, t->ctid_clear, 4);
    if (w) {
      __atomic_store_n(w, 0, __ATOMIC_SEQ_CST);
      syscall(SYS_futex, w, FUTEX_WAKE, 1, NULL, NULL, 0);
    }
  }
  atomic_store(&t->live, false);
  if (atomic_fetch_sub(&emu->nlive, 1) == 1 && !emu->exited) {
    emu->exit_status = t->exit_code;
    emu->exited = true;
    if (!emu->main_waits) emu->process_end(emu);
    tell_all_done(emu);
  }
  kit_emu_gil_drop(emu);
}

static void *thread_main(void *arg) {
  Start *s = arg;
  KitEmuThread *t = s->t;
  KitEmu *emu = t->emu;
  kit_emu_self = t;
  t->tid = (int)syscall(SYS_gettid);
  t->host = pthread_self();
  if (s->flags & LINUX_CLONE_CHILD_SETTID) kit_aspace_write(&emu->as, s->ctid, &t->tid, 4);
  if (s->flags & LINUX_CLONE_CHILD_CLEARTID) t->ctid_clear = s->ctid;
  sem_post(&s->ready); /* s is the parent's: gone from here on */
  kit_emu_thread_signals_init();
  kit_emu_gil_take(emu, t);
  kit_emu_ev_thread(emu, t->vcpu, true);
  emu->thread_loop(emu);
  if (emu->exited) park(emu, t);
  thread_end(emu, t);
  return NULL;
}

static int64_t clone_thread(KitEmu *emu, const uint64_t a[6]) {
  uint64_t flags = a[0];
  if ((flags & (LINUX_CLONE_VM | LINUX_CLONE_THREAD)) != (LINUX_CLONE_VM | LINUX_CLONE_THREAD)) return -EINVAL;
  KitEmuThread *self = kit_thr(emu);
  KitEmuThread *t = kit_emu_thread_alloc(emu);
  if (!t) return -EAGAIN;
  if (atomic_load(&emu->nthreads) == 2) kit_emu_signals_threaded(emu);
  const KitArch *ar = emu->arch;
  memcpy(t->cpu, self->cpu, ar->cpu_state_size);
  ar->syscall_result(t->cpu, 0);
  ar->set_pc(t->cpu, self->sys_next);
  if (a[1]) ar->set_reg(t->cpu, KIT_EMU_REG(emu, sp), a[1]);
  if (flags & LINUX_CLONE_SETTLS) ar->set_reg(t->cpu, KIT_EMU_REG(emu, tp), a[3]);
  t->sigmask = self->sigmask; /* the alternate stack is not inherited (CLONE_VM) */
  Start s = {.t = t, .flags = flags, .ctid = a[4]};
  sem_init(&s.ready, 0, 0);
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&at, 8u << 20);
  pthread_t h;
  int e = pthread_create(&h, &at, thread_main, &s);
  pthread_attr_destroy(&at);
  if (e) {
    t->ended = true;
    atomic_store(&t->live, false);
    atomic_fetch_sub(&emu->nlive, 1);
    return -EAGAIN;
  }
  while (sem_wait(&s.ready) < 0 && errno == EINTR) {}
  sem_destroy(&s.ready);
  if (flags & LINUX_CLONE_PARENT_SETTID) kit_aspace_write(&emu->as, a[2], &t->tid, 4);
  return t->tid;
}

/* exit(2): this thread ends; the process lives on until its last thread is
 * gone, and the first thread, whose host thread ends it, waits for that */
static int64_t thread_exit(KitEmu *emu, int status) {
  KitEmuThread *t = kit_thr(emu);
  t->exit_code = status;
  if (t->vcpu != 0 || atomic_load(&emu->nlive) == 1) {
    t->done = true; /* the dispatcher stops; thread_end or kit_emu_run finishes */
    if (atomic_load(&emu->nlive) == 1 && !emu->exited) {
      emu->exit_status = status;
      emu->exited = true;
    }
    return 0;
  }
  t->ended = true;
  kit_emu_ev_thread(emu, t->vcpu, false);
  if (t->ctid_clear) {
    uint32_t *w = kit_emu_gw(emu, t->ctid_clear, 4);
    if (w) {
      __atomic_store_n(w, 0, __ATOMIC_SEQ_CST);
      syscall(SYS_futex, w, FUTEX_WAKE, 1, NULL, NULL, 0);
    }
  }
  emu->main_waits = true;
  atomic_store(&t->live, false);
  atomic_fetch_sub(&emu->nlive, 1);
  atomic_store(&t->seen, UINT64_MAX);
  kit_emu_gil_drop(emu);
  pthread_mutex_lock(&emu->mu);
  while (!emu->exited) pthread_cond_wait(&emu->all_done, &emu->mu);
  pthread_mutex_unlock(&emu->mu);
  kit_emu_gil_take(emu, t);
  return 0;
}

static void exit_group(KitEmu *emu, int status) {
  if (!emu->exited) emu->exit_status = status;
  emu->exited = true;
  KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(emu, &i));) kit_emu_thread_wake(emu, t);
  tell_all_done(emu);
}

/* A signal for the thread tid of this process: raised here for the caller,
 * else pending on the thread and the thread woken. */
static int64_t thread_signal(KitEmu *emu, int tid, int sig) {
  if (sig < 0 || sig >= KIT_EMU_NSIG) return -EINVAL;
  KitEmuThread *t = kit_emu_thread_by_tid(emu, tid);
  if (!t) return -ESRCH; /* (a thread of another process: the caller passes it on) */
  if (!sig) return 0;
  if (t == kit_thr(emu)) {
    kit_emu_raise(emu, sig, -6 /* SI_TKILL */, 0);
    kit_emu_signalfd_notify(emu, sig);
    return 0;
  }
  atomic_fetch_or(&t->pending, bit(sig));
  kit_emu_signalfd_notify(emu, sig);
  kit_emu_thread_wake(emu, t);
  return 0;
}

/* the futex word and the second one as host pointers; the timeout's, or the
 * integer val2 of the forms that take one there */
static int64_t futex(KitEmu *emu, const uint64_t a[6]) {
  int cmd = (int)(a[1] & FUTEX_CMD_MASK);
  uint32_t *w = kit_emu_gw(emu, a[0], 4), *w2 = NULL;
  if (!w) return -EFAULT;
  uintptr_t arg4 = (uintptr_t)a[3];
  switch (cmd) {
  case FUTEX_WAIT: case FUTEX_WAIT_BITSET: case FUTEX_LOCK_PI: case FUTEX_LOCK_PI2: case FUTEX_WAIT_REQUEUE_PI:
    if (a[3] && !(arg4 = (uintptr_t)kit_emu_gr(emu, a[3], 16))) return -EFAULT;
    break;
  case FUTEX_WAKE: case FUTEX_WAKE_BITSET: case FUTEX_UNLOCK_PI: case FUTEX_TRYLOCK_PI:
    break;
  case FUTEX_REQUEUE: case FUTEX_CMP_REQUEUE: case FUTEX_WAKE_OP: case FUTEX_CMP_REQUEUE_PI:
    break;
  default:
    return -ENOSYS;
  }
  if (cmd == FUTEX_REQUEUE || cmd == FUTEX_CMP_REQUEUE || cmd == FUTEX_WAKE_OP || cmd == FUTEX_CMP_REQUEUE_PI ||
      cmd == FUTEX_WAIT_REQUEUE_PI)
    if (!(w2 = kit_emu_gw(emu, a[4], 4))) return -EFAULT;
  long r = KIT_EMU_BLOCKING(emu, syscall(SYS_futex, w, (int)a[1], (uint32_t)a[2], arg4, w2, (uint32_t)a[5]));
  return r < 0 ? -errno : r;
}

int64_t kit_emu_sys_thread(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled) {
  *handled = true;
  switch (nr) {
  case KIT_SYS_clone:
    if (!(a[0] & LINUX_CLONE_THREAD)) break;
    return clone_thread(emu, a);
  case KIT_SYS_exit:
    return thread_exit(emu, (int)(a[0] & 0xff));
  case KIT_SYS_exit_group:
    exit_group(emu, (int)(a[0] & 0xff));
    return 0;
  case KIT_SYS_futex: return futex(emu, a);
  case KIT_SYS_set_tid_address:
    kit_thr(emu)->ctid_clear = a[0];
    return kit_thr(emu)->tid;
  case KIT_SYS_gettid: return kit_thr(emu)->tid;
  case KIT_SYS_set_robust_list:
    if (a[1] != 24) return -EINVAL; /* sizeof(struct robust_list_head) */
    kit_thr(emu)->robust_list = a[0];
    return 0;
  case KIT_SYS_sched_yield:
    return KIT_EMU_BLOCKING(emu, sched_yield()); /* lets another guest thread run */
  case KIT_SYS_tkill:
    if (!kit_emu_thread_by_tid(emu, (int)a[0])) return syscall(SYS_tkill, (pid_t)a[0], (int)a[1]) < 0 ? -errno : 0;
    return thread_signal(emu, (int)a[0], (int)a[1]);
  case KIT_SYS_tgkill:
    if ((pid_t)a[0] != getpid())
      return syscall(SYS_tgkill, (pid_t)a[0], (pid_t)a[1], (int)a[2]) < 0 ? -errno : 0;
    return thread_signal(emu, (int)a[1], (int)a[2]);
  default:
    break;
  }
  *handled = false;
  return 0;
}
