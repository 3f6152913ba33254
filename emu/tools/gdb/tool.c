/* emu/tools/gdb/tool.c — kit-emu -g: the GDB remote stub as a tool on the
 * public tool API, the protocol engine of this directory (stub.c) serving a
 * KitGdbTarget made of the live guest.
 *
 * The guest stops by blocking inside one of the tool's callbacks while the
 * engine talks to gdb on the socket; returning from the callback resumes it.
 * Where the callbacks are (docs/gdb.md, "How it works"):
 *  - a block gdb has no business in has none: with no breakpoint, watchpoint
 *    or step the guest runs as without -g;
 *  - "fine" blocks — those holding a breakpoint's pc, every block while gdb
 *    steps or after a Ctrl-C — have a callback
 *    before each instruction: a plain one at a breakpoint (and after each
 *    access), elsewhere a conditional one on `attn`, a shared word the
 *    generated code tests inline (no call while it is 0), which a step or
 *    a Ctrl-C sets; and a memory callback on
 *    each load and store (gdb may set a watchpoint while the guest is
 *    stopped in the block, whose rest runs as it was translated). A stop
 *    inside such a block can be stepped from;
 *  - while watchpoints exist, the other blocks have the memory callbacks
 *    and a callback after each access, nothing else;
 *  - a Ctrl-C (a thread polls the socket for 0x03 while the guest runs)
 *    asks for every block to be translated again (kit_emu_request_flush):
 *    the new ones are fine, and the guest stops at the first instruction.
 * Inserting or removing a breakpoint retranslates only the blocks that hold
 * its pc (kit_emu_flush_code); steps, watchpoints and Ctrl-C retranslate
 * everything when they begin and end.
 * A watchpoint's memory callback runs before the access and stops there, at
 * the accessing instruction, as a RISC-V trigger does; gdb steps over it and
 * reads the new value (qemu-user answers Z2/Z3/Z4 empty).
 * Threads: the guest thread that calls in holds the execution lock while it
 * is stopped, so every other thread stays where it is (at a block boundary
 * or in a system call): all-stop. gdb sees the live threads by Linux tid,
 * reads and writes any thread's registers (Hg), and steps one thread
 * (vCont;s:TID) while the others run; only that thread's next instruction
 * callback ends the step. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "../tools.h"
#include "gdb_tool.h"
#include "rsp.h"

enum { NREGS = 68, MAX_WATCH = 256 };

typedef struct Watch {
  KitGdbPoint type;
  uint64_t addr, len;
} Watch;

/* Where the guest stopped: what the callback it blocks in will do next. */
typedef enum StopAt { AT_INSN, AT_START, AT_EVENT } StopAt;

typedef struct Gdb {
  KitEmu *emu;
  KitEmuTool *tool;
  KitGdbStub *stub;
  int fd;
  pid_t pid;             /* kit-emu's process (a fork child is another) */
  KitGdbReg regs[NREGS];
  const KitArchReg *arch[NREGS]; /* the emulator's register for each of gdb's (fflags, frm: fcsr) */
  unsigned nregs;        /* gdb's registers (KitArch.gdb) */
  const char *arch_name; /* gdb's name of the arch */
  /* the word the generated code tests: nonzero asks every conditional callback in */
  uint64_t attn;
  atomic_bool interrupt; /* Ctrl-C seen by the poller */
  bool stepping;         /* gdb asked for one instruction */
  bool fine_all;         /* every block has instruction callbacks */
  bool fine_dirty;       /* blocks were made fine for a Ctrl-C: a flush when the guest goes on */
  bool recheck;          /* breakpoints changed while a block runs: its instructions call in */
  unsigned step_vcpu;    /* the thread gdb steps (the others run on: scheduler-locking off) */
  bool skip_once;        /* skip_vcpu's next callback at skip_pc is the position gdb resumed from */
  unsigned skip_vcpu;
  uint64_t skip_pc;
  uint64_t *sys_next;    /* per vcpu: the pc after the system call it is in, 0 when in none */
  size_t nsys_next;
  uint64_t *bps;
  size_t nbps, capbps;
  Watch watches[MAX_WATCH];
  size_t nwatches;
  bool catching, catch_any;
  uint64_t *catch_nrs;
  size_t ncatch;
  int fatal_sig;         /* the guest ends by this signal (0: it exits) */
  bool gone;             /* gdb detached or the connection closed */
  char *asan_report;     /* the last sanitizer report, for `monitor asan report` */
  uint8_t *auxv;
  size_t auxv_len;
  pthread_t poller;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool running;          /* the poller may read the socket */
} Gdb;

static Gdb g_state;

/* ---- gdb's and Linux's signal numbers (gdb/signals.def) ----------------------------------- */

static const struct {
  int linux_sig, gdb_sig;
} sigmap[] = {{1, 1},   {2, 2},   {3, 3},   {4, 4},   {5, 5},   {6, 6},   {7, 10},  {8, 8},   {9, 9},
              {10, 30}, {11, 11}, {12, 31}, {13, 13}, {14, 14}, {15, 15}, {17, 20}, {18, 19}, {19, 17},
              {20, 18}, {21, 21}, {22, 22}, {23, 16}, {24, 24}, {25, 25}, {26, 26}, {27, 27}, {28, 28},
              {29, 23}, {30, 32}, {31, 12}};

static int to_gdb_sig(int sig) {
  for (size_t i = 0; i < sizeof sigmap / sizeof sigmap[0]; i++)
    if (sigmap[i].linux_sig == sig) return sigmap[i].gdb_sig;
  return 143; /* GDB_SIGNAL_UNKNOWN */
}

/* ---- retranslation ------------------------------------------------------------------------ */

static void update_attn(Gdb *g) {
  uint64_t v = atomic_load(&g->interrupt) || g->stepping || g->recheck;
  __atomic_store_n(&g->attn, v, __ATOMIC_RELAXED);
}

static void flush_all(Gdb *g) { kit_emu_flush_code(g->emu, 0, UINT64_MAX); }

static void set_fine_all(Gdb *g, bool on) {
  if (g->fine_all == on) return;
  g->fine_all = on;
  flush_all(g);
}

static bool bp_at(const Gdb *g, uint64_t pc) {
  for (size_t i = 0; i < g->nbps; i++)
    if (g->bps[i] == pc) return true;
  return false;
}

/* ---- the guest's side: callbacks ------------------------------------------------------------ */

static void stop(Gdb *g, KitGdbStop st, StopAt at);
static uint64_t other_pc(Gdb *g, unsigned vcpu);
static void on_exit_cb(KitEmu *emu, int status, void *user);
static bool forked_off(Gdb *g);

static void on_insn(KitEmu *emu, unsigned vcpu, void *user) {
  (void)emu;
  Gdb *g = &g_state;
  uint64_t pc = (uint64_t)(uintptr_t)user;
  if (g->gone) return;
  if (g->skip_once && vcpu == g->skip_vcpu) {
    g->skip_once = false;
    if (pc == g->skip_pc) return;
  }
  KitGdbStop st = {.kind = KIT_GDB_STOP_SIGNAL, .sig = 5, .tid = (uint64_t)kit_emu_thread_id(g->emu)};
  if (atomic_exchange(&g->interrupt, false)) {
    st.sig = 2; /* SIGINT, as gdb reports a Ctrl-C */
  } else if (g->stepping && vcpu == g->step_vcpu) {
    /* the step is done (another thread's instructions are not the step's) */
  } else if (bp_at(g, pc)) {
    st.kind = KIT_GDB_STOP_SWBREAK;
  } else {
    update_attn(g);
    return;
  }
  stop(g, st, AT_INSN);
}

/* a fine block's entry, when attn is set */
static void on_entry(KitEmu *emu, unsigned vcpu, void *user) {
  (void)emu, (void)vcpu, (void)user;
  Gdb *g = &g_state;
  if (g->gone) return;
  g->recheck = false; /* a block that starts now was translated after the change */
  update_attn(g);
}

/* a load or store, before it happens: a watchpoint's stop is here, at the
 * accessing instruction, as a RISC-V debug trigger fires; gdb then steps
 * over it (KitArch.gdb's watch_before: "non-steppable" watchpoints) and compares
 * the values */
static KitEmuVerdict on_mem(KitEmu *emu, unsigned vcpu, const KitEmuMemAccess *a, void *user) {
  (void)emu, (void)vcpu, (void)user;
  Gdb *g = &g_state;
  if (g->gone) return KIT_EMU_ALLOW;
  for (size_t i = 0; i < g->nwatches; i++) {
    const Watch *w = &g->watches[i];
    if (a->addr >= w->addr + w->len || w->addr >= a->addr + a->size) continue;
    KitGdbStopKind k;
    if (w->type == KIT_GDB_WATCH_WRITE && a->is_store) k = KIT_GDB_STOP_WATCH;
    else if (w->type == KIT_GDB_WATCH_READ && !a->is_store) k = KIT_GDB_STOP_RWATCH;
    else if (w->type == KIT_GDB_WATCH_ACCESS) k = KIT_GDB_STOP_AWATCH;
    else continue;
    stop(g, (KitGdbStop){.kind = k, .tid = (uint64_t)kit_emu_thread_id(g->emu), .addr = a->addr > w->addr ? a->addr : w->addr},
         AT_EVENT);
    break;
  }
  return KIT_EMU_ALLOW;
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  Gdb *g = &g_state;
  if (g->gone) return;
  size_t n = kit_emu_tb_n_insns(tb);
  bool fine = g->fine_all;
  for (size_t i = 0; !fine && i < n; i++) fine = bp_at(g, kit_emu_insn_pc(kit_emu_tb_insn(tb, i)));
  if (!fine && atomic_load(&g->interrupt)) fine = g->fine_dirty = true; /* a Ctrl-C's flush */
  /* with watchpoints a block that is not fine watches its accesses only:
   * the stop is in the memory callback, and the step gdb takes from it ends
   * at the next instruction's callback */
  if (!fine && !g->nwatches) return; /* the guest runs it as without -g */
  KitEmuU64 attn = kit_emu_u64_shared(&g->attn);
  if (fine) kit_emu_tb_cond_cb(tb, on_entry, KIT_EMU_COND_NE, attn, 0, NULL);
  bool after_access = false;
  for (size_t i = 0; i < n; i++) {
    KitEmuInsn *in = kit_emu_tb_insn(tb, i);
    uint64_t pc = kit_emu_insn_pc(in);
    void *u = (void *)(uintptr_t)pc;
    /* after an access a plain call: the generated code may have read attn
     * before the memory callback (a stop, a step from it) changed it */
    if (bp_at(g, pc) || after_access) kit_emu_insn_exec_cb(in, on_insn, u);
    else if (fine) kit_emu_insn_cond_cb(in, on_insn, KIT_EMU_COND_NE, attn, 0, u);
    after_access = (kit_emu_insn_class(in) & (KIT_EMU_INSN_LOAD | KIT_EMU_INSN_STORE | KIT_EMU_INSN_ATOMIC)) != 0;
    /* a fine block watches its accesses, watchpoints or not: gdb may set one
     * while stopped in it, and the rest of this block runs as it is now */
    if (after_access) kit_emu_insn_mem_cb(in, on_mem, KIT_EMU_MEM_RW, NULL);
  }
}

static bool caught(const Gdb *g, uint64_t nr) {
  if (!g->catching) return false;
  if (g->catch_any) return true;
  for (size_t i = 0; i < g->ncatch; i++)
    if (g->catch_nrs[i] == nr) return true;
  return false;
}

/* a thread in a system call shows gdb the pc after its system call instruction, as Linux
 * (and qemu) do: its own state holds the pc of the block it left */
static void set_sys_next(Gdb *g, unsigned vcpu, uint64_t pc) {
  if (vcpu >= g->nsys_next) {
    if (!pc) return;
    size_t n = vcpu + 16;
    uint64_t *p = realloc(g->sys_next, n * sizeof *p);
    if (!p) return;
    memset(p + g->nsys_next, 0, (n - g->nsys_next) * sizeof *p);
    g->sys_next = p, g->nsys_next = n;
  }
  g->sys_next[vcpu] = pc;
}

static bool on_syscall(KitEmu *emu, unsigned vcpu, KitEmuSyscall *sc, int64_t *ret, void *user) {
  (void)ret, (void)user;
  Gdb *g = &g_state;
  set_sys_next(g, vcpu, sc->pc + 4);
  if (!g->gone && caught(g, sc->nr))
    stop(g, (KitGdbStop){.kind = KIT_GDB_STOP_SYSCALL_ENTRY, .sysno = sc->nr, .tid = (uint64_t)kit_emu_thread_id(emu)},
         AT_EVENT);
  return false;
}

static void on_syscall_ret(KitEmu *emu, unsigned vcpu, const KitEmuSyscall *sc, int64_t ret, void *user) {
  (void)ret, (void)user;
  Gdb *g = &g_state;
  set_sys_next(g, vcpu, 0);
  if (!g->gone && caught(g, sc->nr))
    stop(g, (KitGdbStop){.kind = KIT_GDB_STOP_SYSCALL_RETURN, .sysno = sc->nr, .tid = (uint64_t)kit_emu_thread_id(emu)},
         AT_EVENT);
}

static void on_signal(KitEmu *emu, unsigned vcpu, const KitEmuSignal *s, void *user) {
  (void)vcpu, (void)user;
  Gdb *g = &g_state;
  if (g->gone) return;
  if (s->fatal) g->fatal_sig = s->signo;
  stop(g, (KitGdbStop){.kind = KIT_GDB_STOP_SIGNAL, .sig = to_gdb_sig(s->signo), .tid = (uint64_t)kit_emu_thread_id(emu)},
       AT_EVENT);
}

/* The sanitizer runtime's report hook, as ASan's interface names it
 * (sanitizer/asan_interface.h): called with the report's text once it is
 * printed, before a fatal report ends the process. The guest stops at the
 * bad access (the pc the report names), as under Valgrind's vgdb. */
void __asan_set_error_report_callback(void (*callback)(const char *));

static void on_asan_report(const char *text) {
  Gdb *g = &g_state;
  if (g->gone || !g->stub) return;
  free(g->asan_report);
  g->asan_report = strdup(text);
  stop(g, (KitGdbStop){.kind = KIT_GDB_STOP_SIGNAL, .sig = 5, .tid = (uint64_t)kit_emu_thread_id(g->emu)}, AT_EVENT);
  if (g->gone || !strstr(text, "==ABORTING")) return;
  /* a fatal report: the runtime ends the process now, without the exit
   * event; gdb hears how from here (ASan's exitcode, or SIGABRT with
   * abort_on_error) */
  int code = 1;
  bool abort_now = false;
  const char *o = getenv("ASAN_OPTIONS");
  for (const char *p = o; p && *p; p += strcspn(p, ":, ")) {
    p += strspn(p, ":, ");
    if (!strncmp(p, "exitcode=", 9)) code = atoi(p + 9);
    else if (!strncmp(p, "abort_on_error=", 15)) abort_now = p[15] == '1' || p[15] == 't';
  }
  g->fatal_sig = abort_now ? 6 : 0;
  on_exit_cb(g->emu, code, NULL);
}

/* the process start: the auxiliary vector from the initial stack, then the
 * first stop, before the first instruction */
static void on_start(KitEmu *emu, unsigned vcpu, void *user) {
  (void)vcpu, (void)user;
  Gdb *g = &g_state;
  if (g->auxv || g->gone) return; /* later threads */
  uint8_t *base;
  uint64_t size, guard;
  kit_emu_guest_window(emu, &base, &size, &guard);
  uint64_t sp = kit_emu_reg_read(emu, kit_emu_reg_role(emu, KIT_EMU_ROLE_SP));
  /* argc, argv[], NULL, envp[], NULL, then (type, value) pairs up to AT_NULL */
  uint64_t p = sp, v;
  if (kit_emu_guest_accessible(emu, p, 8, KIT_EMU_PROT_READ)) {
    memcpy(&v, base + p, 8);
    p += 8 * (v + 2);
    for (int k = 0; k < 100000 && kit_emu_guest_accessible(emu, p, 8, KIT_EMU_PROT_READ); k++) {
      memcpy(&v, base + p, 8);
      p += 8;
      if (!v) break;
    }
    uint64_t start = p;
    for (int k = 0; k < 128 && kit_emu_guest_accessible(emu, p, 16, KIT_EMU_PROT_READ); k++) {
      memcpy(&v, base + p, 8);
      p += 16;
      if (!v) break;
    }
    g->auxv_len = p - start;
    g->auxv = malloc(g->auxv_len ? g->auxv_len : 1);
    if (g->auxv) memcpy(g->auxv, base + start, g->auxv_len);
  }
  stop(g, (KitGdbStop){.kind = KIT_GDB_STOP_SIGNAL, .sig = 5, .tid = (uint64_t)kit_emu_thread_id(emu)}, AT_START);
}

/* a thread gdb steps ends (pthread_exit, the thread function's return
 * stepped into): there is no instruction left to stop after, so the step
 * becomes a continue of the others; gdb hears of the next stop or the end */
static void on_thread_end(KitEmu *emu, unsigned vcpu, void *user) {
  (void)emu, (void)user;
  Gdb *g = &g_state;
  if (g->gone) return;
  if (vcpu < g->nsys_next) g->sys_next[vcpu] = 0;
  if (g->stepping && vcpu == g->step_vcpu) {
    g->stepping = false;
    set_fine_all(g, false);
    update_attn(g);
  }
}

static void on_exit_cb(KitEmu *emu, int status, void *user) {
  (void)emu, (void)user;
  Gdb *g = &g_state;
  if (g->gone || !g->stub || forked_off(g)) return;
  pthread_mutex_lock(&g->mu);
  g->running = false;
  g->gone = true;
  pthread_mutex_unlock(&g->mu);
  KitGdbStop st = g->fatal_sig ? (KitGdbStop){.kind = KIT_GDB_STOP_KILLED, .sig = to_gdb_sig(g->fatal_sig)}
                               : (KitGdbStop){.kind = KIT_GDB_STOP_EXITED, .status = status};
  kit_gdb_stub_ended(g->stub, &st);
  shutdown(g->fd, SHUT_RDWR);
}

/* ---- stopping: the engine serves gdb until it resumes the guest --------------------------- */

static void end_session(Gdb *g) {
  g->gone = true;
  g->stepping = false;
  g->nbps = 0;
  g->nwatches = 0;
  g->catching = false;
  atomic_store(&g->interrupt, false);
  update_attn(g);
  kit_emu_tool_detach(g->tool); /* its blocks go: the guest runs on as without -g */
  shutdown(g->fd, SHUT_RDWR);
}

/* a fork child of the guest: gdb debugs the parent; the child lets go of
 * the connection (closing its copy only) and runs without the stub */
static bool forked_off(Gdb *g) {
  if (getpid() == g->pid) return false;
  g->gone = true;
  close(g->fd);
  kit_emu_tool_detach(g->tool);
  return true;
}

static int vcpu_of(Gdb *g, uint64_t tid);

/* which thread a step is for: the one stopped here, or (vCont;s:TID, Hc)
 * another one, waiting at a block boundary or in a system call, whose
 * next instruction callback is at its pc, the instruction not run yet */
static void step_target(Gdb *g, uint64_t tid, StopAt at, uint64_t pc) {
  unsigned self = kit_emu_vcpu(g->emu);
  int v = tid ? vcpu_of(g, tid) : -1;
  g->step_vcpu = v < 0 ? self : (unsigned)v;
  g->skip_vcpu = g->step_vcpu;
  if (g->step_vcpu == self) {
    g->skip_once = at == AT_START;
    g->skip_pc = pc;
  } else {
    g->skip_once = true;
    g->skip_pc = other_pc(g, g->step_vcpu); /* in a system call: the instruction after it runs, as under qemu */
  }
}

static void stop(Gdb *g, KitGdbStop st, StopAt at) {
  if (forked_off(g)) return;
  pthread_mutex_lock(&g->mu);
  g->running = false;
  pthread_mutex_unlock(&g->mu);
  uint64_t pc = kit_emu_reg_read(g->emu, kit_emu_reg_find(g->emu, "pc"));
  KitGdbResume r = kit_gdb_stub_stopped(g->stub, &st);
  switch (r.kind) {
  case KIT_GDB_KILL:
    fflush(NULL);
    _exit(128 + 9);
  case KIT_GDB_DETACH:
    end_session(g);
    return;
  case KIT_GDB_STEP:
    g->stepping = true;
    set_fine_all(g, true);
    step_target(g, r.tid, at, pc);
    break;
  case KIT_GDB_CONTINUE:
    g->stepping = false;
    if (g->fine_dirty) flush_all(g);
    g->fine_dirty = false;
    set_fine_all(g, false);
    break;
  }
  /* the callback at the pc gdb resumes from runs again when the guest had
   * not reached that instruction's own callback yet */
  if (r.kind != KIT_GDB_STEP) {
    g->skip_once = at == AT_START;
    g->skip_vcpu = kit_emu_vcpu(g->emu);
    g->skip_pc = pc;
  }
  update_attn(g);
  pthread_mutex_lock(&g->mu);
  g->running = true;
  pthread_cond_signal(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

/* the poller: 0x03 from gdb while the guest runs */
static void *poll_main(void *arg) {
  Gdb *g = arg;
  for (;;) {
    pthread_mutex_lock(&g->mu);
    while (!g->running && !g->gone) pthread_cond_wait(&g->cv, &g->mu);
    bool gone = g->gone;
    pthread_mutex_unlock(&g->mu);
    if (gone) return NULL;
    struct pollfd p = {.fd = g->fd, .events = POLLIN};
    int n = poll(&p, 1, 100);
    if (n <= 0) continue;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL)) return NULL; /* the next stop finds it closed */
    pthread_mutex_lock(&g->mu);
    bool more = true;
    if (g->running && !g->gone) {
      if (kit_gdb_stub_interrupted(g->stub)) {
        atomic_store(&g->interrupt, true);
        __atomic_store_n(&g->attn, 1, __ATOMIC_RELAXED);
        kit_emu_request_flush(g->emu); /* the blocks come back instrumented: on_tb sees the interrupt */
      } else {
        char c;
        more = recv(g->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) != 0; /* 0: gdb closed the connection */
      }
    }
    pthread_mutex_unlock(&g->mu);
    if (!more) return NULL;
    /* until the guest takes it (at its next block), asking again: a
     * request that crossed the dispatcher's own flush may have been lost */
    for (int k = 0; atomic_load(&g->interrupt) && k < 50; k++) usleep(1000);
    pthread_mutex_lock(&g->mu);
    if (g->running && atomic_load(&g->interrupt)) kit_emu_request_flush(g->emu);
    pthread_mutex_unlock(&g->mu);
  }
}

/* ---- the target: registers, memory, points, objects -------------------------------------------- */

/* gdb's thread id (the Linux tid; 0: the thread stopped here) as a vcpu, -1 for none alive */
static int vcpu_of(Gdb *g, uint64_t tid) {
  if (tid == 0) return (int)kit_emu_vcpu(g->emu);
  unsigned n = kit_emu_n_threads(g->emu);
  for (unsigned v = 0; v < n; v++)
    if (kit_emu_thread_tid(g->emu, v) > 0 && (uint64_t)kit_emu_thread_tid(g->emu, v) == tid) return (int)v;
  return -1;
}

/* the pc of a thread other than the one stopped here, as gdb sees it */
static uint64_t other_pc(Gdb *g, unsigned vcpu) {
  if (vcpu < g->nsys_next && g->sys_next[vcpu]) return g->sys_next[vcpu];
  return kit_emu_thread_reg_read(g->emu, vcpu, g->arch[32]);
}

static int reg(void *user, uint64_t tid, unsigned regno, uint8_t *buf, bool write) {
  Gdb *g = user;
  if (regno >= g->nregs || !g->arch[regno]) return -1;
  int vcpu = vcpu_of(g, tid);
  if (vcpu < 0) return -1;
  /* the thread stopped here, whose state is live; another one as it left guest code */
  bool self = (unsigned)vcpu == kit_emu_vcpu(g->emu);
  unsigned bytes = g->regs[regno].bits / 8;
  const KitArchGdbReg *d = &kit_emu_arch(g->emu)->gdb->regs[regno];
  bool is_pc = g->arch[regno]->group == KIT_ARCH_REG_PC;
  uint64_t mask = d->width ? ((1ull << d->width) - 1) << d->shift : ~0ull;
  uint64_t v = 0, cur = self ? kit_emu_reg_read(g->emu, g->arch[regno])
                             : kit_emu_thread_reg_read(g->emu, (unsigned)vcpu, g->arch[regno]);
  if (!self && is_pc) cur = other_pc(g, (unsigned)vcpu);
  if (!write) {
    v = (cur & mask) >> d->shift;
    memcpy(buf, &v, bytes);
    return 0;
  }
  memcpy(&v, buf, bytes);
  if (d->fixed) return 0; /* the zero register stays 0 */
  if (is_pc && v != cur) return -1; /* moving the pc of a stopped block: not supported */
  v = (cur & ~mask) | ((v << d->shift) & mask);
  if (self) kit_emu_reg_write(g->emu, g->arch[regno], v);
  else kit_emu_thread_reg_write(g->emu, (unsigned)vcpu, g->arch[regno], v);
  return 0;
}

static int read_mem(void *user, uint64_t addr, void *buf, size_t n) {
  Gdb *g = user;
  uint8_t *base;
  uint64_t size, guard;
  kit_emu_guest_window(g->emu, &base, &size, &guard);
  if (addr >= size || n > size - addr || !kit_emu_guest_accessible(g->emu, addr, n, KIT_EMU_PROT_READ)) return -1;
  memcpy(buf, base + addr, n);
  return 0;
}

static int write_mem(void *user, uint64_t addr, const void *buf, size_t n) {
  Gdb *g = user;
  uint8_t *base;
  uint64_t size, guard;
  kit_emu_guest_window(g->emu, &base, &size, &guard);
  if (addr >= size || n > size - addr || !kit_emu_guest_accessible(g->emu, addr, n, KIT_EMU_PROT_WRITE)) return -1;
  /* through the kernel: a page the emulator protects (translated code) is
   * an error here, never a fault of kit-emu */
  struct iovec local = {.iov_base = (void *)buf, .iov_len = n}, remote = {.iov_base = base + addr, .iov_len = n};
  if (process_vm_writev(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)n) return -1;
  kit_emu_flush_code(g->emu, addr, n); /* code that was there is translated again */
  return 0;
}

static int point(void *user, KitGdbPoint type, uint64_t addr, uint64_t len, bool insert) {
  Gdb *g = user;
  if (type == KIT_GDB_SW_BREAK || type == KIT_GDB_HW_BREAK) {
    if (insert) {
      if (bp_at(g, addr)) return 0;
      if (g->nbps == g->capbps) {
        size_t cap = g->capbps ? 2 * g->capbps : 16;
        uint64_t *p = realloc(g->bps, cap * sizeof *p);
        if (!p) return -1;
        g->bps = p, g->capbps = cap;
      }
      g->bps[g->nbps++] = addr;
    } else {
      for (size_t i = 0; i < g->nbps; i++)
        if (g->bps[i] == addr) g->bps[i] = g->bps[--g->nbps];
    }
    kit_emu_flush_code(g->emu, addr, 1);
    g->recheck = true; /* the block that runs now may hold addr */
    return 0;
  }
  if (!len || len > 1u << 20) return -1;
  size_t before = g->nwatches;
  if (insert) {
    if (g->nwatches == MAX_WATCH) return -1;
    g->watches[g->nwatches++] = (Watch){type, addr, len};
  } else {
    for (size_t i = 0; i < g->nwatches; i++)
      if (g->watches[i].type == type && g->watches[i].addr == addr && g->watches[i].len == len) {
        g->watches[i] = g->watches[--g->nwatches];
        break;
      }
  }
  if (!before != !g->nwatches) flush_all(g); /* memory callbacks come or go */
  return 0;
}

/* the live guest threads by their Linux tids, in the order they were made */
static size_t threads(void *user, uint64_t *tids, size_t cap) {
  Gdb *g = user;
  size_t k = 0;
  unsigned n = kit_emu_n_threads(g->emu);
  for (unsigned v = 0; v < n; v++) {
    int tid = kit_emu_thread_tid(g->emu, v);
    if (tid <= 0) continue;
    if (k < cap) tids[k] = (uint64_t)tid;
    k++;
  }
  if (k == 0 && cap) tids[k++] = (uint64_t)kit_emu_thread_id(g->emu); /* before the run */
  return k;
}

static bool thread_alive(void *user, uint64_t tid) { return vcpu_of(user, tid) >= 0; }

typedef struct Text {
  char *s;
  size_t len, cap;
} Text;

static void add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(Text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (t->len + (size_t)n + 1 > t->cap) {
    size_t cap = (t->len + (size_t)n + 1) * 2;
    char *s = realloc(t->s, cap);
    if (!s) return;
    t->s = s, t->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

/* text for XML attributes: the few characters that need escaping */
static void add_escaped(Text *t, const char *s) {
  for (; *s; s++) {
    if (*s == '&') add(t, "&amp;");
    else if (*s == '<') add(t, "&lt;");
    else if (*s == '>') add(t, "&gt;");
    else if (*s == '"') add(t, "&quot;");
    else add(t, "%c", *s);
  }
}

static bool read_u64(Gdb *g, uint64_t a, uint64_t *v) { return read_mem(g, a, v, 8) == 0; }

/* a NUL-terminated guest string, at most cap-1 bytes */
static void read_str(Gdb *g, uint64_t a, char *out, size_t cap) {
  size_t i = 0;
  for (; i + 1 < cap && read_mem(g, a + i, out + i, 1) == 0 && out[i]; i++) {
  }
  out[i] = 0;
}

/* The dynamic linker's list of loaded objects (its r_debug and link_map,
 * glibc's layout on LP64): what gdb reads itself from memory against qemu. */
static uint64_t auxv_get(const Gdb *g, uint64_t type) {
  for (size_t i = 0; g->auxv && i + 16 <= g->auxv_len; i += 16) {
    uint64_t t, v;
    memcpy(&t, g->auxv + i, 8);
    memcpy(&v, g->auxv + i + 8, 8);
    if (t == type) return v;
  }
  return 0;
}

/* where the dynamic linker keeps its r_debug: the DT_DEBUG entry of the
 * executable's dynamic section (found from AT_PHDR), as gdb looks for it */
static uint64_t find_r_debug(Gdb *g) {
  enum { AT_PHDR = 3, AT_PHNUM = 5, PT_DYNAMIC = 2, PT_PHDR = 6, DT_DEBUG = 21 };
  uint64_t phdr = auxv_get(g, AT_PHDR), phnum = auxv_get(g, AT_PHNUM), dyn = 0, bias = kit_emu_exe_bias(g->emu);
  for (uint64_t i = 0; phdr && i < phnum && i < 256; i++) {
    uint64_t type, vaddr;
    if (!read_u64(g, phdr + 56 * i, &type) || !read_u64(g, phdr + 56 * i + 16, &vaddr)) return 0;
    if ((uint32_t)type == PT_PHDR) bias = phdr - vaddr;
    if ((uint32_t)type == PT_DYNAMIC) dyn = vaddr;
  }
  if (!dyn) return 0;
  for (uint64_t at = dyn + bias, k = 0; k < 1024; k++, at += 16) {
    uint64_t tag, val;
    if (!read_u64(g, at, &tag) || !read_u64(g, at + 8, &val) || !tag) return 0;
    if (tag == DT_DEBUG) return val;
  }
  return 0;
}

static void *libraries_svr4(Gdb *g, size_t *len) {
  Text t = {0};
  uint64_t r_debug = find_r_debug(g);
  uint64_t map = 0, version = 0;
  if (r_debug && read_u64(g, r_debug, &version) && (uint32_t)version) read_u64(g, r_debug + 8, &map);
  add(&t, "<library-list-svr4 version=\"1.0\"");
  if (map) add(&t, " main-lm=\"0x%" PRIx64 "\"", map);
  add(&t, ">");
  for (int k = 0; map && k < 4096; k++) {
    uint64_t l_addr, l_name, l_ld, l_next;
    if (!read_u64(g, map, &l_addr) || !read_u64(g, map + 8, &l_name) || !read_u64(g, map + 16, &l_ld) ||
        !read_u64(g, map + 24, &l_next))
      break;
    char name[4096];
    read_str(g, l_name, name, sizeof name);
    if (k > 0) { /* the first is the executable (main-lm) */
      add(&t, "<library name=\"");
      add_escaped(&t, name);
      add(&t, "\" lm=\"0x%" PRIx64 "\" l_addr=\"0x%" PRIx64 "\" l_ld=\"0x%" PRIx64 "\" lmid=\"0x0\"/>", map, l_addr,
          l_ld);
    }
    map = l_next;
  }
  add(&t, "</library-list-svr4>");
  *len = t.len;
  return t.s;
}

static void *xfer(void *user, const char *object, const char *annex, size_t *len) {
  Gdb *g = user;
  (void)annex;
  if (!strcmp(object, "auxv")) {
    if (!g->auxv) return NULL;
    void *p = malloc(g->auxv_len ? g->auxv_len : 1);
    if (p) memcpy(p, g->auxv, g->auxv_len);
    *len = g->auxv_len;
    return p;
  }
  if (!strcmp(object, "exec-file")) {
    const char *path = kit_emu_exe_path(g->emu);
    if (!path) return NULL;
    *len = strlen(path);
    return strdup(path);
  }
  if (!strcmp(object, "libraries-svr4")) return libraries_svr4(g, len);
  if (!strcmp(object, "threads")) {
    Text t = {0};
    uint64_t tids[1024];
    size_t n = threads(g, tids, 1024);
    add(&t, "<?xml version=\"1.0\"?>\n<threads>\n");
    for (size_t i = 0; i < n && i < 1024; i++)
      add(&t, "  <thread id=\"p%x.%" PRIx64 "\" core=\"0\"/>\n", (unsigned)getpid(), tids[i]);
    add(&t, "</threads>\n");
    *len = t.len;
    return t.s;
  }
  return NULL;
}

/* gdb's vFile:open: the executable, or a file the guest has mapped, found
 * by its host path ending in the guest's (the sysroot's copy of
 * /lib/libc.so.6); nothing else of the host */
typedef struct FindMapped {
  const char *path;
  char *host;
} FindMapped;

static void find_mapped(KitEmu *emu, const KitEmuMapping *m, void *user) {
  (void)emu;
  FindMapped *f = user;
  if (f->host || m->kind != KIT_EMU_MAPPING_FILE || !m->path) return;
  size_t a = strlen(m->path), b = strlen(f->path);
  if (!strcmp(m->path, f->path) || (f->path[0] == '/' && a > b && !strcmp(m->path + a - b, f->path)))
    f->host = strdup(m->path);
}

static int open_file(void *user, const char *path) {
  Gdb *g = user;
  const char *exe = kit_emu_exe_path(g->emu);
  FindMapped f = {path, NULL};
  if (exe && !strcmp(path, exe)) f.host = strdup(exe);
  else kit_emu_mappings(g->emu, find_mapped, &f);
  if (!f.host) return -ENOENT;
  int fd = open(f.host, O_RDONLY | O_CLOEXEC);
  int err = errno;
  free(f.host);
  return fd < 0 ? -err : fd;
}

static int catch_syscalls(void *user, bool enable, bool any, const uint64_t *nrs, size_t n) {
  Gdb *g = user;
  free(g->catch_nrs);
  g->catch_nrs = NULL, g->ncatch = 0;
  g->catching = enable, g->catch_any = any;
  if (enable && n) {
    g->catch_nrs = malloc(n * sizeof *nrs);
    if (!g->catch_nrs) return -1;
    memcpy(g->catch_nrs, nrs, n * sizeof *nrs);
    g->ncatch = n;
  }
  return 0;
}

static void map_line(KitEmu *emu, const KitEmuMapping *m, void *user) {
  (void)emu;
  Text *t = user;
  add(t, "0x%012" PRIx64 "-0x%012" PRIx64 " %c%c%c %s\n", m->va, m->va + m->len, m->prot & KIT_EMU_PROT_READ ? 'r' : '-',
      m->prot & KIT_EMU_PROT_WRITE ? 'w' : '-', m->prot & KIT_EMU_PROT_EXEC ? 'x' : '-',
      m->path                                ? m->path
      : m->kind == KIT_EMU_MAPPING_HEAP  ? "[heap]"
      : m->kind == KIT_EMU_MAPPING_STACK ? "[stack]"
                                         : "");
}

static char *monitor(void *user, const char *cmd) {
  Gdb *g = user;
  Text t = {0};
  if (!strcmp(cmd, "help")) {
    add(&t, "kit-emu monitor commands:\n  help         this text\n  mappings     the guest's memory map\n"
            "  points       the breakpoints and watchpoints the stub holds\n"
            "  asan report  the last AddressSanitizer report (--sanitize=address)\n");
  } else if (!strcmp(cmd, "asan report")) {
    add(&t, "%s", g->asan_report ? g->asan_report : "no AddressSanitizer report yet\n");
  } else if (!strcmp(cmd, "mappings")) {
    kit_emu_mappings(g->emu, map_line, &t);
  } else if (!strcmp(cmd, "points")) {
    for (size_t i = 0; i < g->nbps; i++) add(&t, "break 0x%" PRIx64 "\n", g->bps[i]);
    static const char *const kind[] = {"", "", "watch", "rwatch", "awatch"};
    for (size_t i = 0; i < g->nwatches; i++)
      add(&t, "%s 0x%" PRIx64 " len %" PRIu64 "\n", kind[g->watches[i].type], g->watches[i].addr, g->watches[i].len);
    if (!t.s) add(&t, "none\n");
  } else {
    return NULL;
  }
  return t.s;
}

/* ---- set-up ------------------------------------------------------------------------------------ */

/* gdb's registers as the arch describes them (KitArch.gdb) */
static int build_regs(Gdb *g, FILE *err) {
  const KitArchGdb *d = kit_emu_arch(g->emu)->gdb;
  if (!d || d->nregs > NREGS) {
    fprintf(err, "kit-emu: -g: no gdb target description for %s\n", kit_emu_arch(g->emu)->name);
    return -1;
  }
  g->nregs = d->nregs;
  g->arch_name = d->arch;
  for (unsigned i = 0; i < d->nregs; i++) {
    const KitArchGdbReg *r = &d->regs[i];
    g->regs[i] = (KitGdbReg){r->name, r->bits, r->type, r->group, r->feature};
    g->arch[i] = kit_emu_reg_find(g->emu, r->reg);
    if (!g->arch[i]) {
      fprintf(err, "kit-emu: -g: the guest has no register %s for gdb's %s\n", r->reg, r->name);
      return -1;
    }
  }
  return 0;
}

/* listen at where (a port, or a Unix socket path) and take one connection */
static int await_gdb(const char *where, FILE *err) {
  int ls;
  bool unix_path = strchr(where, '/') != NULL;
  if (unix_path) {
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(where) >= sizeof a.sun_path) {
      fprintf(err, "kit-emu: -g %s: the socket path is too long\n", where);
      return -1;
    }
    strcpy(a.sun_path, where);
    ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    unlink(where);
    if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 1) < 0) {
      fprintf(err, "kit-emu: -g %s: %s\n", where, strerror(errno));
      if (ls >= 0) close(ls);
      return -1;
    }
  } else {
    char *end;
    unsigned long port = strtoul(where, &end, 10);
    if (!*where || *end || port > 65535) {
      fprintf(err, "kit-emu: -g takes a port number (0-65535) or a socket path, not '%s'\n", where);
      return -1;
    }
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (ls >= 0) setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 1) < 0) {
      fprintf(err, "kit-emu: -g %s: cannot listen on port %lu: %s\n", where, port, strerror(errno));
      if (ls >= 0) close(ls);
      return -1;
    }
    if (port == 0) { /* the kernel chose: say which */
      socklen_t sl = sizeof a;
      getsockname(ls, (struct sockaddr *)&a, &sl);
      fprintf(err, "kit-emu: waiting for gdb on port %u\n", ntohs(a.sin_port));
      fflush(err);
    }
  }
  int fd;
  do fd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) fprintf(err, "kit-emu: -g %s: %s\n", where, strerror(errno));
  close(ls);
  if (unix_path) unlink(where);
  if (fd >= 0 && !unix_path) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd;
}

int kit_emu_tool_gdb_main(KitEmuTool *tool, const char *where, FILE *err) {
  Gdb *g = &g_state;
  g->emu = kit_emu_tool_emu(tool);
  if (build_regs(g, err) < 0) return -1;
  int fd = await_gdb(where, err);
  return fd < 0 ? -1 : kit_emu_tool_gdb_main_fd(tool, fd, err);
}

int kit_emu_tool_gdb_main_fd(KitEmuTool *tool, int fd, FILE *err) {
  Gdb *g = &g_state;
  g->tool = tool;
  g->emu = kit_emu_tool_emu(tool);
  if (build_regs(g, err) < 0) return -1;
  g->fd = kit_emu_keep_fd(fd); /* the guest's close_range passes it by */
  g->pid = getpid();
  KitGdbTarget t = {.user = g, .regs = g->regs, .nregs = g->nregs, .arch = g->arch_name, .reg = reg,
                    .read_mem = read_mem, .write_mem = write_mem, .point = point, .threads = threads,
                    .thread_alive = thread_alive, .xfer = xfer,
                    .xfer_objects = "auxv,exec-file,libraries-svr4,threads",
                    .open_file = open_file, .catch_syscalls = catch_syscalls, .monitor = monitor, .pid = (uint64_t)getpid()};
  g->stub = kit_gdb_stub_new(g->fd, g->fd, &t);
  if (!g->stub) return -1;
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  if (pthread_create(&g->poller, NULL, poll_main, g) != 0) {
    fprintf(err, "kit-emu: -g: cannot start the stub's thread\n");
    return -1;
  }
  pthread_detach(g->poller);
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_syscall(tool, on_syscall, NULL);
  kit_emu_on_syscall_ret(tool, on_syscall_ret, NULL);
  kit_emu_on_signal(tool, on_signal, NULL);
  kit_emu_on_thread_start(tool, on_start, NULL);
  kit_emu_on_thread_exit(tool, on_thread_end, NULL);
  kit_emu_on_exit(tool, on_exit_cb, NULL);
  if (kit_emu_tool_find(g->emu, "asan")) __asan_set_error_report_callback(on_asan_report);
  return 0;
}
