/* emu/thread.c — the guest threads' blocks (internal.h, KitEmuThread):
 * made one per guest thread, each a single mapping holding the header, the
 * CPU state and its part of the tools' scoreboards; found by tid; asked to
 * come back to their dispatcher; and the execution lock they take turns
 * on (docs/emu.md, "Threads"). */
#include "internal.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__thread KitEmuThread *kit_emu_self;

/* how long a thread keeps the execution lock while another waits, and how
 * long a waiter lets it before asking it to its next boundary */
#define GIL_QUANTUM_NS 2000000u
#define GIL_NUDGE_NS 4000000u

static size_t round64(size_t n) { return (n + 63) & ~(size_t)63; }

KitEmuThread *kit_emu_thread_alloc(KitEmu *emu) {
  unsigned vcpu = atomic_load(&emu->nthreads);
  if (vcpu >= KIT_EMU_MAX_THREADS) return NULL;
  size_t cpu = round64(offsetof(KitEmuThread, cpu) + emu->arch->cpu_state_size) - offsetof(KitEmuThread, cpu);
  size_t size = offsetof(KitEmuThread, cpu) + cpu + KIT_EMU_TOOL_AREA;
  /* zero pages until touched: a scoreboard's entry costs only the threads that use it */
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return NULL;
  KitEmuThread *t = p;
  t->emu = emu;
  t->vcpu = vcpu;
  t->parent_tid = vcpu ? (int)syscall(SYS_gettid) : 0; /* the creating thread's tid is its host thread's */
  t->tool_area = t->cpu + cpu;
  t->altstack_flags = 2; /* SS_DISABLE */
  for (unsigned i = 0; i < KIT_EMU_CC_SIZE; i++) t->cc[i].pc = KIT_EMU_CC_EMPTY;
  atomic_store(&t->seen, UINT64_MAX); /* runs no block yet */
  atomic_store(&t->live, true);
  atomic_store(&emu->threads[vcpu], t);
  atomic_store(&emu->nthreads, vcpu + 1);
  atomic_fetch_add(&emu->nlive, 1);
  return t;
}

void kit_emu_stop_all(KitEmu *emu) {
  KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(emu, &i));) t->chain_stop = 1;
}

KitEmuThread *kit_emu_thread_by_tid(KitEmu *emu, int tid) {
  KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(emu, &i));)
    if (t->tid == tid && atomic_load(&t->live)) return t;
  return NULL;
}

void kit_emu_thread_wake(KitEmu *emu, KitEmuThread *t) {
  t->chain_stop = 1;
  if (t != kit_emu_self && atomic_load(&t->live) && t->tid) syscall(SYS_tgkill, getpid(), t->tid, KIT_EMU_WAKE_SIG);
  (void)emu;
}

/* ---- the execution lock ------------------------------------------------------------------ */

static uint64_t now_ns(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void kit_emu_gil_take(KitEmu *emu, KitEmuThread *t) {
  pthread_mutex_lock(&emu->gil_mu);
  uint64_t me = emu->gil_next++;
  if (emu->gil_serving != me) {
    atomic_fetch_add(&emu->gil_waiting, 1);
    while (emu->gil_serving != me) {
      uint64_t until = now_ns(CLOCK_REALTIME) + GIL_NUDGE_NS;
      struct timespec ts = {(time_t)(until / 1000000000u), (long)(until % 1000000000u)};
      if (pthread_cond_timedwait(&emu->gil_cv, &emu->gil_mu, &ts) == ETIMEDOUT) {
        /* the holder runs chained code without a boundary: ask for one */
        KitEmuThread *h = atomic_load(&emu->gil_holder);
        if (h) h->chain_stop = 1;
      }
    }
    atomic_fetch_sub(&emu->gil_waiting, 1);
  }
  atomic_store(&emu->gil_holder, t);
  pthread_mutex_unlock(&emu->gil_mu);
  t->gil_since = now_ns(CLOCK_MONOTONIC);
  if (emu->gil_last != t->vcpu) {
    unsigned from = emu->gil_last;
    emu->gil_last = t->vcpu;
    if (emu->on_switch) emu->on_switch(emu, from, t->vcpu);
  }
}

void kit_emu_gil_drop(KitEmu *emu) {
  pthread_mutex_lock(&emu->gil_mu);
  atomic_store(&emu->gil_holder, NULL);
  emu->gil_serving++;
  pthread_cond_broadcast(&emu->gil_cv);
  pthread_mutex_unlock(&emu->gil_mu);
}

void kit_emu_gil_yield(KitEmu *emu, KitEmuThread *t) {
  if (!atomic_load_explicit(&emu->gil_waiting, memory_order_relaxed)) return;
  if (now_ns(CLOCK_MONOTONIC) - t->gil_since < GIL_QUANTUM_NS) return;
  atomic_store(&t->seen, UINT64_MAX); /* at a boundary: it runs no block while it waits */
  kit_emu_gil_drop(emu);
  kit_emu_gil_take(emu, t);
}

bool kit_emu_blocking_begin(KitEmu *emu) {
  KitEmuThread *t = kit_emu_self;
  if (atomic_load(&emu->nthreads) < 2 || !t) return false;
  t->parked = t->sys_pc != 0; /* read by reaping, under the lock */
  kit_emu_gil_drop(emu);
  return true;
}

void kit_emu_blocking_end(KitEmu *emu, bool dropped) {
  if (!dropped) return;
  kit_emu_gil_take(emu, kit_emu_self);
  kit_emu_self->parked = false;
}

void kit_emu_threads_after_fork(KitEmu *emu) {
  KitEmuThread *self = kit_thr(emu);
  pthread_mutex_init(&emu->gil_mu, NULL);
  pthread_cond_init(&emu->gil_cv, NULL);
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&emu->mu, &ma);
  pthread_cond_init(&emu->all_done, NULL);
  emu->gil_next = emu->gil_serving + 1; /* the caller's ticket is being served */
  atomic_store(&emu->gil_waiting, 0);
  atomic_store(&emu->gil_holder, self);
  KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(emu, &i));)
    if (t != self) atomic_store(&t->live, false);
  atomic_store(&emu->nlive, 1);
  emu->main_waits = false;
  self->tid = (int)syscall(SYS_gettid);
  self->host = pthread_self();
}
