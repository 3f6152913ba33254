/* emu/internal.h — the base of the emulator's stages: the KitEmu structure
 * they share and what every stage may call (base.c). Each stage declares
 * its own functions in its header (docs/emu.md has the table). Not part of
 * the public API. */
#ifndef KIT_EMU_INTERNAL_H
#define KIT_EMU_INTERNAL_H

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>

#include "aspace.h"
#include "kit/cg.h"
#include "kit/emu.h"
#include "kit/emu_tool.h"

#define KIT_EMU_NSIG 65
#define KIT_EMU_MAX_SIGFDS 32
/* of a pending signal: si_code, si_status (SIGCHLD), si_pid, si_uid */
typedef struct KitEmuSigInfo {
  int32_t code, status;
  uint32_t pid, uid;
} KitEmuSigInfo;
#define KIT_EMU_STACK_SIZE (8ull << 20)

/* the guest's registers by role (its calling convention: KitArch.cc) */
#define KIT_EMU_REG(emu, role) ((emu)->arch->cc.role)

typedef struct KitEmuSigAction {
  uint64_t handler, flags, mask; /* the kernel's generic struct sigaction (no sa_restorer) */
} KitEmuSigAction;

typedef struct KitEmuTcache KitEmuTcache; /* tcache.h */
typedef struct KitEmuTierImpl KitEmuTierState; /* tier.c */

struct KitEmuShadowPlane {
  KitEmu *emu;
  unsigned index;
};

typedef struct KitEmuExit KitEmuExit; /* tcache.h */
/* jitted code with chaining: entered with the exit slot it is reached through */
typedef int64_t (*KitEmuCode)(void *cpu, KitEmuExit *via);

/* pc -> LLVM code of the blocks indirect exits reached lately, one per
 * thread (its own indirect jumps probe it, relative to the CPU pointer):
 * compact (one cache line per probe, no block to dereference), filled on a
 * miss by the thread itself; other threads only empty its slots (an
 * invalidation), so a probe never sees one block's pc with another's code
 * (docs/emu.md, "Threads"). An empty slot holds a pc no jump can have (an
 * odd one: jalr clears bit 0), so that the inline probe, which compares
 * only the pc, never takes it for a block at guest pc 0 (a call through a
 * null pointer) */
#define KIT_EMU_CC_SIZE 4096u
#define KIT_EMU_CC_EMPTY 1u
typedef struct KitEmuCodeSlot {
  uint64_t pc;
  KitEmuCode code;
} KitEmuCodeSlot;

/* One guest thread (docs/emu.md, "Threads"): a host thread with its own
 * CPU state, signal mask and pending set. The block is one mapping: this
 * header, the CPU state at `cpu`, then the thread's part of every tool
 * scoreboard, so translated code (shared by all threads) reaches each of
 * them relative to the CPU pointer it is called with. */
#define KIT_EMU_MAX_THREADS 4096u      /* created over the run (vcpu numbers are not reused) */
#define KIT_EMU_TOOL_AREA (4u << 20)   /* per thread, for the tools' scoreboards */
/* the host signal that brings a thread back from a blocking call to its
 * dispatcher (a signal sent to it, the process's end); the guest's own use
 * of this number is emulated without the host's */
#define KIT_EMU_WAKE_SIG SIGRTMAX
typedef struct KitEmuThread {
  KitEmu *emu;
  unsigned vcpu; /* 0 for the first thread, then in order of creation */
  int tid;       /* the host thread's: the guest's gettid() */
  int parent_tid; /* the thread that created it (0 for the first) */
  pthread_t host;
  /* signals */
  uint64_t sigmask;
  uint64_t restore_mask; /* rt_sigsuspend: the mask the first handler's frame saves */
  bool has_restore_mask;
  uint64_t altstack_sp, altstack_size;
  uint32_t altstack_flags;
  _Atomic uint64_t pending; /* bit per signal sent to this thread (tgkill) by another */
  uint64_t sync_pending;    /* raised by the thread itself (tgkill on self, faults) */
  uint64_t fault_addr;      /* si_addr of the pending synchronous fault */
  int fault_code;
  sigjmp_buf fault_jmp;
  volatile sig_atomic_t in_guest;
  /* the guest pc of the block running: set before a tier-0 block, stored by
   * an LLVM block's prologue (chained ones too); a fault's retired count */
  uint64_t block_pc;
  /* set by whatever needs this thread's dispatcher soon (a host signal, a
   * write to translated code, a raised signal, an invalidation); jitted
   * blocks that chain check it on entry; cleared at each boundary */
  volatile int32_t chain_stop;
  /* the exit slot the last jitted block left through unchained (the
   * dispatcher links it), NULL when it left otherwise */
  struct KitEmuExit *last_exit;
  struct KitEmuBlock *running; /* the tier-0 block being interpreted (a fault abandons its frame) */
  _Atomic uint64_t seen;       /* the cache epoch at this thread's last boundary (tcache.c, reaping) */
  /* in a system call that let the execution lock go (kit_emu_blocking_begin):
   * the only translated code it can come back to is that of the blocks
   * holding the system call instruction at sys_pc, so reaping waits for
   * no other (a thread blocked for good in a futex or read would otherwise
   * keep every block invalidated since) */
  bool parked;
  uint64_t sys_pc;             /* the system call instruction running, 0 when none */
  _Atomic bool live;           /* runs guest code or waits in a system call; false once it exited */
  bool done;                   /* exit(2): this thread ends */
  bool ended;                  /* the tools were told it exited */
  int exit_code;               /* exit(2)'s */
  uint64_t ctid_clear;         /* CLONE_CHILD_CLEARTID, set_tid_address */
  uint64_t robust_list;        /* set_robust_list's head (guest address), walked at exit */
  uint64_t sys_next;           /* the pc after the system call running (a clone child starts there) */
  uint64_t gil_since;          /* when it took the execution lock (ns, CLOCK_MONOTONIC) */
  uint8_t *tool_area;          /* KIT_EMU_TOOL_AREA bytes, after the CPU state */
  /* runs jitted code without the execution lock (dispatch.c, parallel
   * threads); whatever it calls that needs the emulator takes it first
   * (kit_emu_gil_ensure) */
  bool unlocked;
  _Alignas(64) KitEmuCodeSlot cc[KIT_EMU_CC_SIZE];
  _Alignas(64) unsigned char cpu[];
} KitEmuThread;

/* the guest thread this host thread runs (NULL in the JIT worker and before the run) */
extern __thread KitEmuThread *kit_emu_self;

struct KitEmu {
  const KitArch *arch;
  KitEmuAspace as;
  KitEmuOptions opt;
  FILE *log;
  /* the tools (instrument.c) and the cache work they left for the
   * dispatcher's next boundary */
  struct KitEmuTools *tools;
  bool tools_pending;
  /* guest ranges from files, the ELF modules among them (modules.c); the
   * file the next kit_aspace_map maps (set by its caller: the loader, mmap) */
  struct KitEmuFiles *files;
  struct {
    const char *path;
    int fd;
    uint64_t off;
  } map_src;
  KitEmuShadowPlane planes[KIT_EMU_MAX_PLANES];

  /* the loaded program */
  char exe_path[4096];
  char sysroot[4096];
  char interp_path[8192]; /* the dynamic linker loaded, "" for a static program */
  uint64_t entry, interp_base, phdr, phnum, load_bias;
  uint64_t auxv[64]; /* the initial auxv as the loader laid it out (/proc/self/auxv) */
  /* the guest's argument and environment strings on its stack, as Linux's
   * mm->arg_start..arg_end, env_start..env_end (/proc/self/cmdline, environ) */
  uint64_t arg_start, arg_end, env_start, env_end;
  unsigned auxv_words;
  uint64_t sigreturn_tramp; /* guest page holding the arch's sigreturn code */

  /* signals: dispositions are the process's, masks and pending sets the threads' */
  KitEmuSigAction sigact[KIT_EMU_NSIG];
  _Atomic uint64_t async_pending; /* bit per signal sent to the process, set by the host handler */
  /* what the host handler (or kill of the process itself) said of each */
  KitEmuSigInfo async_info[KIT_EMU_NSIG];
  /* signalfd(2) descriptors (signal.c): each a host eventfd that the
   * handler, or whatever makes a signal of its mask pending, makes readable */
  struct { _Atomic int fd1; _Atomic uint64_t mask; } sigfds[KIT_EMU_MAX_SIGFDS]; /* fd1: the descriptor + 1, 0 free */
  /* pages written by the guest that held translated code (host fault
   * handler -> dispatcher); overflow means flush everything */
  uint64_t smc_pages[16];
  volatile sig_atomic_t smc_n, smc_overflow;
  /* the guest threads by vcpu (never freed: tools read their scoreboard
   * entries at exit), how many were made and how many still run */
  KitEmuThread *_Atomic threads[KIT_EMU_MAX_THREADS];
  _Atomic unsigned nthreads, nlive;
  /* The execution lock (docs/emu.md, "Threads"): the thread that holds it
   * runs guest code and owns the emulator's state; it is handed over in
   * ticket order at block boundaries when another waits, and let go around
   * system calls that may block. */
  pthread_mutex_t gil_mu;
  pthread_cond_t gil_cv;
  uint64_t gil_next, gil_serving; /* tickets (under gil_mu) */
  _Atomic unsigned gil_waiting;
  KitEmuThread *_Atomic gil_holder;
  unsigned gil_last; /* the vcpu that held it last */
  /* called (lock held) when another thread than the last takes it (instrument.c: the tools' switch event) */
  void (*on_switch)(KitEmu *emu, unsigned from, unsigned to);
  pthread_mutex_t mu;      /* thread bookkeeping: exits, all_done */
  pthread_cond_t all_done; /* the first thread waits on it after its exit(2) */
  bool main_waits;         /* ... and does (the process ends from its host thread) */
  /* the dispatcher loop (dispatch.c) a new thread runs, and the process's
   * end on a thread other than the first (emu.c): the os stage starts threads */
  int (*thread_loop)(KitEmu *emu);
  void (*process_end)(KitEmu *emu); /* does not return */

  /* the pass pipeline over lifted blocks */
  struct {
    KitEmuBlockPass fn;
    void *user;
  } passes[8];
  unsigned npasses;

  /* execution */
  KitEmuTcache *tc;
  KitEmuTierState *tier;
  /* threads run jitted code in parallel (dispatch.c; docs/emu.md,
   * "Threads"): no tool or pass in the run, not -d exec, not --serial-threads */
  bool parallel;
  _Atomic bool exited; /* the process ends (exit_group, the last thread's exit, a fatal signal) */
  int exit_status;
  uint64_t stack_size;   /* limits.c: from RLIMIT_STACK */
  KitEmuStats stats;
};

extern KitEmu *kit_emu_current;

/* the calling guest thread, the first one outside the guest threads (the
 * embedder, tools before the run) */
static inline KitEmuThread *kit_thr(const KitEmu *emu) {
  KitEmuThread *t = kit_emu_self;
  return t ? t : emu->threads[0];
}
static inline void *kit_emu_cpu(const KitEmu *emu) { return kit_thr(emu)->cpu; }
/* the thread whose CPU state cpu is */
static inline KitEmuThread *kit_thr_of_cpu(void *cpu) {
  return (KitEmuThread *)((char *)cpu - offsetof(KitEmuThread, cpu));
}
/* the thread of vcpu, NULL past the last one (or while its slot is filled) */
static inline KitEmuThread *kit_emu_thread_at(KitEmu *emu, unsigned vcpu) {
  return vcpu < atomic_load(&emu->nthreads) ? atomic_load(&emu->threads[vcpu]) : NULL;
}
/* the threads in vcpu order, those that exited too (test live):
 *   for (unsigned i = 0; (t = kit_emu_next_thread(emu, &i));) ... */
static inline KitEmuThread *kit_emu_next_thread(KitEmu *emu, unsigned *i) {
  while (*i < atomic_load(&emu->nthreads)) {
    KitEmuThread *t = atomic_load(&emu->threads[(*i)++]);
    if (t) return t;
  }
  return NULL;
}
/* thread.c: a new thread's block (its vcpu the next number), NULL past
 * KIT_EMU_MAX_THREADS or without memory */
KitEmuThread *kit_emu_thread_alloc(KitEmu *emu);
/* ask every thread's dispatcher to look (an invalidation, a tool change) */
void kit_emu_stop_all(KitEmu *emu);
/* the live thread with this tid, NULL if none */
KitEmuThread *kit_emu_thread_by_tid(KitEmu *emu, int tid);
/* bring t to its dispatcher soon, out of a blocking system call too */
void kit_emu_thread_wake(KitEmu *emu, KitEmuThread *t);
/* the execution lock: take it (in ticket order), let it go, and hand it
 * over at a boundary when another thread has waited long enough */
void kit_emu_gil_take(KitEmu *emu, KitEmuThread *t);
void kit_emu_gil_drop(KitEmu *emu);
void kit_emu_gil_yield(KitEmu *emu, KitEmuThread *t);
/* the calling guest thread holds the lock after this (it takes it if it
 * ran unlocked): every entry from jitted code into the emulator calls it */
static inline void kit_emu_gil_ensure(KitEmu *emu) {
  KitEmuThread *t = kit_emu_self;
  if (t && t->unlocked) {
    kit_emu_gil_take(emu, t);
    t->unlocked = false;
  }
}
/* around a host call that may block (syscall*.c): the lock let go while
 * other threads exist (guest pointers checked before); returns whether it was */
bool kit_emu_blocking_begin(KitEmu *emu);
void kit_emu_blocking_end(KitEmu *emu, bool dropped);
/* the host signals standing for those the calling thread's guest mask
 * blocks are blocked too (the old host mask in *hold), so that none of them
 * interrupts a blocking host call (Linux's blocked signals do not); false
 * when the guest blocks none (signal.c) */
bool kit_emu_keep_out(KitEmu *emu, sigset_t *hold);
/* the value of a host call made with the lock let go (errno kept) */
#define KIT_EMU_BLOCKING(emu, call)                                   \
  ({                                                                  \
    sigset_t kit_hold_;                                               \
    bool kit_masked_ = kit_emu_keep_out(emu, &kit_hold_);             \
    bool kit_dropped_ = kit_emu_blocking_begin(emu);                  \
    long kit_r_ = (long)(call);                                       \
    int kit_e_ = errno;                                               \
    kit_emu_blocking_end(emu, kit_dropped_);                          \
    if (kit_masked_) pthread_sigmask(SIG_SETMASK, &kit_hold_, NULL);  \
    errno = kit_e_;                                                   \
    kit_r_;                                                           \
  })
/* a fork child: its one thread (the caller) holds the lock, the others are gone */
void kit_emu_threads_after_fork(KitEmu *emu);

/* the most instructions in a block (a trace or a superblock too) */
#define KIT_EMU_MAX_BLOCK_INSNS 64

void kit_emu_warn(KitEmu *emu, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* the emulator's own fault signals (SEGV, BUS, ILL, FPE, TRAP) */
bool kit_emu_sync_only(int sig);
/* Raise a synchronous guest signal (fault, trap, self-kill); delivered before
 * the next block. */
void kit_emu_raise(KitEmu *emu, int sig, int code, uint64_t addr);

/* may jitted blocks jump to each other (docs/emu.md, "Chaining")? Not when
 * a tool needs the dispatcher, nor under -d exec */
static inline bool kit_emu_chaining(const KitEmu *emu) {
  return emu->opt.chain && !(emu->opt.debug & KIT_EMU_DEBUG_EXEC);
}

#endif
