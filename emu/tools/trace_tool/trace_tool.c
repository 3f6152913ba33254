/* emu/tools/trace_tool/trace_tool.c — kit-emu --trace: guest events as kit's
 * trace stream (docs/trace-format.md) to a file or a shared-memory ring. The
 * hot records are words stored into a per-thread buffer, a scoreboard
 * entry: the generated code itself pushes one BLOCK record (pc) per block
 * run (inline stores, no call), and the consumer expands it to
 * per-instruction pcs through the block's TRANSLATE record, written once at
 * translation time; memory and register callbacks write MEM and REG
 * records into the same buffer, so a thread's records keep their order.
 * Records are written with thread id 0 and get the thread's id when the
 * buffer is flushed. A full buffer goes to the writer in one piece
 * (lossless: a full ring makes the guest wait; --trace-drop: the piece is
 * left out and its records counted). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kit/trace.h"
#include "trace_tool.h"

enum {
  EV_BLOCK = 1 << 0, EV_BRANCH = 1 << 1, EV_MEM = 1 << 2, EV_REGS = 1 << 3, EV_SYSCALL = 1 << 4, EV_MMAP = 1 << 5,
  EV_SIGNAL = 1 << 6, EV_THREAD = 1 << 7, EV_TRANSLATE = 1 << 8, EV_INVALIDATE = 1 << 9,
};

static const struct {
  const char *name;
  unsigned bits;
} event_names[] = {
    {"insn", EV_BLOCK | EV_TRANSLATE}, {"block", EV_BLOCK | EV_TRANSLATE}, {"branch", EV_BRANCH}, {"mem", EV_MEM},
    {"regs", EV_REGS}, {"syscall", EV_SYSCALL}, {"mmap", EV_MMAP}, {"signal", EV_SIGNAL}, {"thread", EV_THREAD},
    {"translate", EV_TRANSLATE}, {"invalidate", EV_INVALIDATE},
    {"all", EV_BLOCK | EV_TRANSLATE | EV_BRANCH | EV_MEM | EV_REGS | EV_SYSCALL | EV_MMAP | EV_SIGNAL | EV_THREAD |
                EV_INVALIDATE},
};

/* one guest thread's buffer of encoded records: its entry of the tool's
 * scoreboard (zeroed for a new thread) */
enum { BUF_WORDS = 8192, HOT_WORDS = 8 };
#define BUF_LIMIT ((uint64_t)(BUF_WORDS - HOT_WORDS) * 8) /* bytes: at or past it the buffer is flushed */
typedef struct Stream {
  uint64_t buf[BUF_WORDS];
  uint64_t used;       /* bytes of buf written; generated code's pushes advance it (before it: buf) */
  uint64_t last_block; /* the pc of the last BLOCK record (generated code stores it) */
  uint64_t tid_bits;   /* the thread id in a record head's upper half */
  KitEmuSyscall sc;    /* the system call in progress (mmap flags) */
  bool in_syscall;
  uint64_t sc_start;   /* when it began (ns since the stream's start) */
  bool full_regs;      /* registers changed wholesale (a signal delivered): all of them at the next block */
} Stream;

static struct {
  unsigned events;
  KitTraceWriter *w;
  pthread_mutex_t lock;
  pid_t pid;           /* the writer's process: a fork child writes nothing */
  bool ring;           /* the destination is a shared-memory ring */
  uint64_t start_ns;
  bool failed;
  FILE *err;
  const KitArchReg *regs;
  size_t nregs;
  unsigned ret_reg;
  KitEmuScoreboard *streams; /* a Stream per thread */
  /* every translated block's instruction pcs by its pc (open addressing):
   * where a fault cut a block short */
  struct Translated { uint64_t pc; uint32_t n; uint64_t *pcs; } *blocks;
  size_t nblocks, blocks_cap;
  pthread_mutex_t blocks_lock; /* translations and faults of several threads */
} T = {.lock = PTHREAD_MUTEX_INITIALIZER, .blocks_lock = PTHREAD_MUTEX_INITIALIZER};

static size_t slot_of(uint64_t pc, size_t cap) { return (size_t)(pc * 0x9e3779b97f4a7c15ull >> 17) & (cap - 1); }

static struct Translated *translated(uint64_t pc, bool add) {
  if (add && 2 * (T.nblocks + 1) > T.blocks_cap) {
    struct Translated *old = T.blocks;
    size_t oldcap = T.blocks_cap;
    T.blocks_cap = oldcap ? 2 * oldcap : 4096;
    T.blocks = calloc(T.blocks_cap, sizeof *T.blocks);
    if (!T.blocks) abort();
    for (size_t i = 0; i < oldcap; i++) {
      if (!old[i].pcs) continue;
      size_t j = slot_of(old[i].pc, T.blocks_cap);
      while (T.blocks[j].pcs) j = (j + 1) & (T.blocks_cap - 1);
      T.blocks[j] = old[i];
    }
    free(old);
  }
  if (!T.blocks_cap) return NULL;
  size_t j = slot_of(pc, T.blocks_cap);
  while (T.blocks[j].pcs && T.blocks[j].pc != pc) j = (j + 1) & (T.blocks_cap - 1);
  if (T.blocks[j].pcs || !add) return T.blocks[j].pcs ? &T.blocks[j] : NULL;
  T.nblocks++;
  T.blocks[j].pc = pc;
  return &T.blocks[j];
}

#define HEAD(kind, words) ((uint64_t)(kind) | (uint64_t)(words) << 8)

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* the buffer to the writer: each record's head gets the thread id */
static void flush(Stream *s, bool must) {
  size_t words = (size_t)(s->used < sizeof s->buf ? s->used : sizeof s->buf) / 8, nrec = 0;
  if (!words) return;
  for (size_t i = 0; i < words; nrec++) {
    uint32_t len = (uint32_t)s->buf[i] >> 8;
    s->buf[i] |= s->tid_bits;
    i += len ? len : 1;
  }
  pthread_mutex_lock(&T.lock);
  if (T.w && getpid() == T.pid && kit_trace_write_records(T.w, s->buf, words * 8, nrec, must) < 0 && !T.failed) {
    T.failed = true;
    fprintf(T.err, "kit-emu: --trace: writing the trace failed; the rest is lost\n");
  }
  pthread_mutex_unlock(&T.lock);
  s->used = 0;
}

/* the running thread's stream (callbacks run on the thread they name) */
static Stream *stream_of(KitEmu *emu, unsigned vcpu) {
  Stream *s = kit_emu_scoreboard_entry(T.streams, vcpu);
  if (!s) abort(); /* every thread has an entry */
  if (__builtin_expect(!s->tid_bits, 0)) s->tid_bits = (uint64_t)(uint32_t)kit_emu_thread_id(emu) << 32;
  return s;
}

/* the next n words of s's buffer, and after writing them end_put */
static uint64_t *put_at(Stream *s) { return s->buf + s->used / 8; }
static void end_put(Stream *s, unsigned words) {
  s->used += 8 * words;
  if (__builtin_expect(s->used >= BUF_LIMIT, 0)) flush(s, false);
}

/* the generated code's pushes filled the buffer */
static void on_full(KitEmu *emu, unsigned vcpu, void *user) {
  (void)user;
  flush(stream_of(emu, vcpu), false);
}

/* a record of any kind, through the library's encoder (the rare kinds) */
static void put_event(Stream *s, KitTraceEvent *ev) {
  ev->tid = 0; /* flush sets it */
  size_t room = sizeof s->buf - s->used;
  size_t n = kit_trace_encode(ev, put_at(s), room);
  if (n > room) {
    flush(s, false);
    room = sizeof s->buf;
    n = kit_trace_encode(ev, put_at(s), room);
    if (n > room) return; /* a record larger than a buffer: not written (paths are short) */
  }
  end_put(s, (unsigned)(n / 8));
}

static void put_reg(Stream *s, uint64_t pc, unsigned reg, uint64_t value) {
  uint64_t *w = put_at(s);
  w[0] = HEAD(KIT_TRACE_REG, 4), w[1] = pc, w[2] = value, w[3] = reg;
  end_put(s, 4);
}

/* every register but the pc, as REG records at pc (a thread's initial state,
 * or registers a signal or sigreturn replaced) */
static void put_all_regs(KitEmu *emu, Stream *s, uint64_t pc) {
  for (size_t i = 0; i < T.nregs; i++)
    if (T.regs[i].group != KIT_ARCH_REG_PC) put_reg(s, pc, T.regs[i].num, kit_emu_reg_read(emu, &T.regs[i]));
}

static uint64_t cur_pc(KitEmu *emu) {
  const KitArchReg *pc = kit_emu_reg_find(emu, "pc");
  return pc ? kit_emu_reg_read(emu, pc) : 0;
}

/* ---- execution ---------------------------------------------------------------------- */

/* with regs: the registers a signal replaced, at the first block after it
 * (after that block's record, which the generated code pushed) */
static void on_block_regs(KitEmu *emu, unsigned vcpu, void *user) {
  Stream *s = stream_of(emu, vcpu);
  if (__builtin_expect(s->full_regs, 0)) {
    s->full_regs = false;
    put_all_regs(emu, s, (uint64_t)(uintptr_t)user);
  }
}

static KitEmuVerdict on_mem(KitEmu *emu, unsigned vcpu, const KitEmuMemAccess *a, void *user) {
  (void)user;
  Stream *s = stream_of(emu, vcpu);
  uint64_t *w = put_at(s);
  w[0] = HEAD(KIT_TRACE_MEM, 5), w[1] = a->pc, w[2] = a->addr, w[3] = a->value;
  w[4] = (a->size > 255 ? 255 : a->size) | (uint64_t)a->is_store << 8 | (uint64_t)!a->has_value << 9;
  end_put(s, 5);
  return KIT_EMU_ALLOW;
}

static void on_regw(KitEmu *emu, unsigned vcpu, uint64_t pc, unsigned reg, uint64_t value, void *user) {
  (void)user;
  put_reg(stream_of(emu, vcpu), pc, reg, value);
}

static void on_edge(KitEmu *emu, unsigned vcpu, uint64_t from, uint64_t to, KitEmuEdge kind, void *user) {
  (void)user;
  Stream *s = stream_of(emu, vcpu);
  uint64_t *w = put_at(s);
  w[0] = HEAD(KIT_TRACE_BRANCH, 4), w[1] = from, w[2] = to, w[3] = (uint64_t)kind;
  end_put(s, 4);
}

/* ---- translation ---------------------------------------------------------------------- */

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)user;
  KitEmu *emu = kit_emu_tool_emu(tool);
  size_t n = kit_emu_tb_n_insns(tb);
  uint64_t pc = kit_emu_tb_pc(tb);
  if (T.events & EV_REGS) kit_emu_tb_exec_cb(tb, on_block_regs, (void *)(uintptr_t)pc);
  if (T.events & EV_BLOCK) { /* the BLOCK record, pushed by the generated code; a full buffer drained */
    KitEmuU64 used = kit_emu_u64_per_thread(T.streams, offsetof(Stream, used));
    kit_emu_tb_inline(tb, KIT_EMU_INLINE_PUSH, used, HEAD(KIT_TRACE_BLOCK, 2));
    kit_emu_tb_inline(tb, KIT_EMU_INLINE_PUSH, used, pc);
    kit_emu_tb_inline(tb, KIT_EMU_INLINE_STORE, kit_emu_u64_per_thread(T.streams, offsetof(Stream, last_block)), pc);
    kit_emu_tb_cond_cb(tb, on_full, KIT_EMU_COND_GE, used, BUF_LIMIT, NULL);
  }
  if (T.events & EV_BRANCH) kit_emu_tb_edge_cb(tb, on_edge, NULL);
  uint8_t lengths[256];
  uint64_t jumps[256];
  size_t njumps = 0;
  for (size_t i = 0; i < n && i < 256; i++) {
    KitEmuInsn *in = kit_emu_tb_insn(tb, i);
    unsigned cls = kit_emu_insn_class(in);
    if ((T.events & EV_MEM) && (cls & (KIT_EMU_INSN_LOAD | KIT_EMU_INSN_STORE | KIT_EMU_INSN_ATOMIC)))
      kit_emu_insn_mem_cb(in, on_mem, KIT_EMU_MEM_RW, NULL);
    if (T.events & EV_REGS) kit_emu_insn_regw_cb(in, on_regw, NULL);
    lengths[i] = (uint8_t)(kit_emu_insn_size(in) & 0x7f);
    if (i + 1 < n) { /* a superblock goes on through a direct jump */
      uint64_t next = kit_emu_insn_pc(kit_emu_tb_insn(tb, i + 1));
      if (next != kit_emu_insn_pc(in) + kit_emu_insn_size(in)) lengths[i] |= KIT_TRACE_LEN_JUMP, jumps[njumps++] = next;
    }
  }
  if (T.events & EV_BLOCK) {
    pthread_mutex_lock(&T.blocks_lock);
    struct Translated *t = translated(pc, true);
    free(t->pcs);
    t->n = (uint32_t)(n < 256 ? n : 256);
    t->pcs = malloc(t->n * sizeof *t->pcs);
    if (!t->pcs) abort();
    for (uint32_t i = 0; i < t->n; i++) t->pcs[i] = kit_emu_insn_pc(kit_emu_tb_insn(tb, i));
    pthread_mutex_unlock(&T.blocks_lock);
  }
  if (!(T.events & EV_TRANSLATE)) return;
  Stream *s = stream_of(emu, kit_emu_vcpu(emu));
  KitTraceEvent ev = {.kind = KIT_TRACE_TRANSLATE, .pc = pc,
                      .u.translate = {KIT_TRACE_TIER_INTERP, (uint16_t)(n < 256 ? n : 256), lengths, jumps}};
  put_event(s, &ev);
  /* a translation never drops, and reaches the stream before any thread runs the block */
  flush(s, true);
}

/* machine code for a block from now on: its tier (KIT_EMU_CODE_* are the format's tiers) */
static void on_code(KitEmu *emu, unsigned vcpu, uint64_t pc, unsigned tier, size_t ninsns, void *user) {
  (void)user;
  KitTraceEvent ev = {.kind = KIT_TRACE_CODE, .pc = pc};
  ev.u.code.tier = (uint8_t)tier, ev.u.code.ninsns = (uint32_t)ninsns;
  put_event(stream_of(emu, vcpu), &ev);
}

/* ---- events ------------------------------------------------------------------------------ */

static bool syscall_is(uint64_t nr, const char *name) {
  const char *n = kit_emu_syscall_name(nr);
  return n && !strcmp(n, name);
}

static void put_syscall(Stream *s, const KitEmuSyscall *sc, int64_t ret) {
  uint64_t now = now_ns() - T.start_ns;
  KitTraceEvent ev = {.kind = KIT_TRACE_SYSCALL, .time_ns = s->sc_start};
  ev.u.syscall.duration_ns = now - s->sc_start;
  ev.u.syscall.nr = sc->nr;
  memcpy(ev.u.syscall.args, sc->args, sizeof sc->args);
  ev.u.syscall.ret = ret;
  put_event(s, &ev);
}

static bool on_syscall(KitEmu *emu, unsigned vcpu, KitEmuSyscall *sc, int64_t *ret, void *user) {
  (void)ret, (void)user;
  Stream *s = stream_of(emu, vcpu);
  s->sc = *sc;
  s->sc_start = now_ns() - T.start_ns;
  s->in_syscall = true;
  /* exit and exit_group do not return: recorded at entry, result 0 */
  if ((T.events & EV_SYSCALL) && (syscall_is(sc->nr, "exit") || syscall_is(sc->nr, "exit_group")))
    put_syscall(s, sc, 0);
  return false;
}

static void on_syscall_ret(KitEmu *emu, unsigned vcpu, const KitEmuSyscall *sc, int64_t ret, void *user) {
  (void)user;
  Stream *s = stream_of(emu, vcpu);
  s->in_syscall = false;
  bool exits = syscall_is(sc->nr, "exit") || syscall_is(sc->nr, "exit_group"); /* recorded at entry */
  if ((T.events & EV_SYSCALL) && !exits) put_syscall(s, sc, ret);
  if ((T.events & EV_REGS) && !exits) {
    if (syscall_is(sc->nr, "rt_sigreturn")) put_all_regs(emu, s, sc->pc);
    else put_reg(s, sc->pc, T.ret_reg, (uint64_t)ret);
  }
}

static int32_t linux_prot(uint8_t p) {
  return (p & KIT_EMU_PROT_READ ? 1 : 0) | (p & KIT_EMU_PROT_WRITE ? 2 : 0) | (p & KIT_EMU_PROT_EXEC ? 4 : 0);
}

static void on_map(KitEmu *emu, const KitEmuMapping *m, void *user) {
  (void)user;
  Stream *s = stream_of(emu, kit_emu_vcpu(emu));
  KitTraceEvent ev = {.kind = KIT_TRACE_MMAP, .time_ns = now_ns() - T.start_ns};
  ev.u.mmap.addr = m->va, ev.u.mmap.len = m->len, ev.u.mmap.offset = m->offset;
  ev.u.mmap.prot = linux_prot(m->prot);
  ev.u.mmap.flags = s->in_syscall && syscall_is(s->sc.nr, "mmap") ? (uint32_t)s->sc.args[3] : 0;
  ev.u.mmap.path = m->kind == KIT_EMU_MAPPING_FILE && m->path  ? m->path
                   : m->kind == KIT_EMU_MAPPING_HEAP            ? "[heap]"
                   : m->kind == KIT_EMU_MAPPING_STACK           ? "[stack]"
                                                                : "";
  put_event(s, &ev);
}

static void on_unmap(KitEmu *emu, uint64_t va, uint64_t len, void *user) {
  (void)user;
  KitTraceEvent ev = {.kind = KIT_TRACE_MMAP, .time_ns = now_ns() - T.start_ns};
  ev.u.mmap.addr = va, ev.u.mmap.len = len, ev.u.mmap.prot = -1, ev.u.mmap.path = "";
  put_event(stream_of(emu, kit_emu_vcpu(emu)), &ev);
}

static void on_protect(KitEmu *emu, uint64_t va, uint64_t len, uint8_t prot, void *user) {
  (void)user;
  KitTraceEvent ev = {.kind = KIT_TRACE_MMAP, .time_ns = now_ns() - T.start_ns};
  ev.u.mmap.addr = va, ev.u.mmap.len = len, ev.u.mmap.prot = linux_prot(prot);
  ev.u.mmap.flags = KIT_TRACE_MMAP_PROTECT, ev.u.mmap.path = "";
  put_event(stream_of(emu, kit_emu_vcpu(emu)), &ev);
}

/* translations dropped: the range and why (KIT_EMU_INVAL_* are the format's reasons) */
static void on_invalidate(KitEmu *emu, uint64_t lo, uint64_t hi, unsigned reason, void *user) {
  (void)user;
  KitTraceEvent ev = {.kind = KIT_TRACE_INVALIDATE, .time_ns = now_ns() - T.start_ns};
  ev.u.invalidate.lo = lo, ev.u.invalidate.hi = hi, ev.u.invalidate.reason = (uint8_t)reason;
  put_event(stream_of(emu, kit_emu_vcpu(emu)), &ev);
}

static void on_signal(KitEmu *emu, unsigned vcpu, const KitEmuSignal *sig, void *user) {
  (void)user;
  Stream *s = stream_of(emu, vcpu);
  if (T.events & EV_SIGNAL) {
    KitTraceEvent ev = {.kind = KIT_TRACE_SIGNAL, .time_ns = now_ns() - T.start_ns, .pc = sig->pc};
    ev.u.signal.signo = sig->signo, ev.u.signal.code = sig->code, ev.u.signal.addr = sig->addr;
    put_event(s, &ev);
  }
  /* a load or store of the block running faulted: it and those after it did
   * not retire (a trapping breakpoint or illegal instruction ends its block and
   * counts as run, as insncount counts it) */
  bool sync = (sig->signo == SIGSEGV || sig->signo == SIGBUS) && sig->code > 0 && sig->code < 0x80;
  if (sync && (T.events & EV_BLOCK)) {
    pthread_mutex_lock(&T.blocks_lock);
    struct Translated *t = translated(s->last_block, false);
    long cut = -1;
    for (uint32_t i = 0; t && i < t->n && cut < 0; i++)
      if (t->pcs[i] == sig->pc) cut = i;
    pthread_mutex_unlock(&T.blocks_lock);
    if (cut >= 0) {
      KitTraceEvent ev = {.kind = KIT_TRACE_PARTIAL, .pc = s->last_block, .u.partial.count = (uint64_t)cut};
      put_event(s, &ev);
    }
  }
  if (!sig->fatal) s->full_regs = true; /* the handler starts with registers the delivery set */
}

static void on_thread(KitEmu *emu, unsigned vcpu, bool exit) {
  Stream *s = stream_of(emu, vcpu);
  s->tid_bits = (uint64_t)(uint32_t)kit_emu_thread_id(emu) << 32;
  if (T.events & EV_THREAD) {
    KitTraceEvent ev = {.kind = KIT_TRACE_THREAD, .time_ns = now_ns() - T.start_ns};
    ev.u.thread.exit = exit;
    ev.u.thread.parent = exit ? 0 : (uint32_t)kit_emu_thread_parent_tid(emu, vcpu);
    put_event(s, &ev);
  }
  if (!exit && (T.events & EV_REGS)) put_all_regs(emu, s, cur_pc(emu));
  if (exit) flush(s, false); /* its records now, not at the process's exit */
}
static void on_thread_start(KitEmu *emu, unsigned vcpu, void *user) { (void)user, on_thread(emu, vcpu, false); }
static void on_thread_exit(KitEmu *emu, unsigned vcpu, void *user) { (void)user, on_thread(emu, vcpu, true); }

/* the stream's end: every thread's buffer out, the writer closed (a ring gets its end mark) */
static void end_stream(void) {
  for (unsigned i = 0, n = kit_emu_scoreboard_n(T.streams); i < n; i++) {
    Stream *t = kit_emu_scoreboard_entry(T.streams, i);
    if (t) flush(t, true);
  }
  pthread_mutex_lock(&T.lock);
  if (T.w && kit_trace_writer_close(T.w) < 0 && !T.failed) fprintf(T.err, "kit-emu: --trace: closing the trace failed\n");
  T.w = NULL;
  pthread_mutex_unlock(&T.lock);
}

static void on_exit_cb(KitEmu *emu, int status, void *user) {
  (void)user;
  if (getpid() != T.pid) return; /* a fork child: its parent owns the stream */
  Stream *s = stream_of(emu, kit_emu_vcpu(emu));
  KitTraceEvent ev = {.kind = KIT_TRACE_EXIT, .time_ns = now_ns() - T.start_ns};
  ev.u.exit.status = status;
  put_event(s, &ev);
  end_stream();
}

/* An execve that passed its checks: the stream ends here with the execve's
 * SYSCALL record (result 0: the program was replaced). The new
 * program writes a stream of its own (kit_emu_tool_trace_main's exec_child),
 * except after a ring, which carries one program. */
static void on_execve(KitEmu *emu, unsigned vcpu, const char *path, void *user) {
  (void)user;
  if (getpid() != T.pid || !T.w) return; /* a fork child: its parent owns the stream */
  Stream *s = stream_of(emu, vcpu);
  if (s->in_syscall && (T.events & EV_SYSCALL)) put_syscall(s, &s->sc, 0);
  s->in_syscall = false;
  end_stream();
  if (T.ring)
    fprintf(T.err, "kit-emu: --trace: the ring carries one program; %s runs without --trace (a file destination "
                   "gives each program its own)\n", path);
}

/* ---- set-up ------------------------------------------------------------------------------- */

/* DEST with %p expanded (%% is %); exec_child: with .PID appended when it
 * has no %p. false when it does not fit. */
static bool dest_name(const char *dest, bool exec_child, char *out, size_t cap) {
  size_t n = 0;
  bool pid = false;
  for (const char *c = dest; *c; c++) {
    int w;
    if (c[0] == '%' && (c[1] == 'p' || c[1] == '%')) {
      pid |= c[1] == 'p';
      w = c[1] == 'p' ? snprintf(out + n, cap - n, "%d", (int)getpid()) : snprintf(out + n, cap - n, "%%");
      c++;
    } else
      w = snprintf(out + n, cap - n, "%c", *c);
    if (w < 0 || (size_t)w >= cap - n) return false;
    n += (size_t)w;
  }
  if (exec_child && !pid) {
    int w = snprintf(out + n, cap - n, ".%d", (int)getpid());
    if (w < 0 || (size_t)w >= cap - n) return false;
  }
  return true;
}

/* an exec'd program's file: the first of NAME, NAME.2, ... that does not
 * exist, created now so that no other process takes it */
static bool free_name(char *name, size_t cap, FILE *err) {
  size_t base = strlen(name);
  for (unsigned k = 1; k < 1000; k++) {
    if (k > 1 && snprintf(name + base, cap - base, ".%u", k) >= (int)(cap - base)) break;
    int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      close(fd);
      return true;
    }
    if (errno != EEXIST) {
      fprintf(err, "kit-emu: --trace-out=%s: %s\n", name, strerror(errno));
      return false;
    }
  }
  name[base] = 0;
  fprintf(err, "kit-emu: --trace-out=%s: no free name for this program's stream\n", name);
  return false;
}

static int parse_events(const char *list, unsigned *out, FILE *err) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", list);
  *out = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    size_t k = 0;
    while (k < sizeof event_names / sizeof event_names[0] && strcmp(event_names[k].name, tok)) k++;
    if (k == sizeof event_names / sizeof event_names[0]) {
      fprintf(err, "kit-emu: --trace=%s: unknown event '%s' (insn, block, branch, mem, regs, syscall, mmap, "
                   "signal, thread, translate, invalidate, all)\n", list, tok);
      return -1;
    }
    *out |= event_names[k].bits;
  }
  if (!*out) {
    fprintf(err, "kit-emu: --trace= names no event (insn, block, branch, mem, regs, syscall, mmap, signal, thread, "
                 "translate, all)\n");
    return -1;
  }
  return 0;
}

/* the executable's GNU build id in hex ("" without one) */
static void build_id(const char *path, char *hex, size_t cap) {
  hex[0] = 0;
  int fd = path ? open(path, O_RDONLY) : -1;
  if (fd < 0) return;
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  for (Elf_Scn *scn = NULL; e && !hex[0] && (scn = elf_nextscn(e, scn));) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE) continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    GElf_Nhdr nh;
    size_t off = 0, noff, doff;
    while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
      if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 || memcmp((char *)d->d_buf + noff, "GNU", 4)) continue;
      for (size_t i = 0; i < nh.n_descsz && 2 * i + 3 <= cap; i++)
        snprintf(hex + 2 * i, 3, "%02x", ((unsigned char *)d->d_buf)[doff + i]);
      break;
    }
  }
  if (e) elf_end(e);
  close(fd);
}

int kit_emu_tool_trace_main(KitEmuTool *tool, const char *events, const char *dest, bool drop, size_t ring_bytes,
                            bool exec_child, FILE *err) {
  KitEmu *emu = kit_emu_tool_emu(tool);
  T.err = err;
  if (parse_events(events, &T.events, err) < 0) return -1;
  char name[PATH_MAX];
  if (!dest_name(dest, exec_child, name, sizeof name)) {
    fprintf(err, "kit-emu: --trace-out=%s: the name is too long\n", dest);
    return -1;
  }
  T.ring = !strncmp(name, "shm:", 4);
  if (exec_child && !T.ring && !free_name(name, sizeof name, err)) return -1;
  dest = name;
  T.regs = kit_emu_regs(emu, &T.nregs);
  const KitArchReg *ret = kit_emu_reg_role(emu, KIT_EMU_ROLE_RET);
  T.ret_reg = ret ? ret->num : 0;
  KitTraceReg *regs = calloc(T.nregs + 1, sizeof *regs);
  if (!regs) return -1;
  for (size_t i = 0; i < T.nregs; i++)
    regs[i] = (KitTraceReg){T.regs[i].num, T.regs[i].bits, T.regs[i].group, T.regs[i].name};
  char bid[129];
  build_id(kit_emu_exe_path(emu), bid, sizeof bid);
  T.start_ns = now_ns();
  KitTraceHeader h = {.version = KIT_TRACE_VERSION, .elf_machine = kit_emu_arch(emu)->elf_machine,
                      .start_ns = T.start_ns, .exe = kit_emu_exe_path(emu), .build_id = bid, .regs = regs,
                      .nregs = (uint16_t)T.nregs};
  char msg[256];
  T.w = kit_trace_writer_open(dest, &h, ring_bytes, drop, msg, sizeof msg);
  free(regs);
  if (!T.w) {
    fprintf(err, "kit-emu: --trace-out=%s: %s\n", dest, msg);
    return -1;
  }
  T.pid = getpid();
  if (!(T.streams = kit_emu_scoreboard_new(tool, sizeof(Stream)))) {
    fprintf(err, "kit-emu: --trace: no room for the per-thread buffers\n");
    return -1;
  }
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_syscall(tool, on_syscall, NULL);
  kit_emu_on_syscall_ret(tool, on_syscall_ret, NULL);
  if (T.events & (EV_SIGNAL | EV_REGS | EV_BLOCK)) kit_emu_on_signal(tool, on_signal, NULL);
  kit_emu_on_thread_start(tool, on_thread_start, NULL);
  kit_emu_on_thread_exit(tool, on_thread_exit, NULL);
  kit_emu_on_exit(tool, on_exit_cb, NULL);
  kit_emu_on_execve(tool, on_execve, NULL);
  if (T.events & EV_MMAP) { /* the mappings that exist already come at once */
    kit_emu_on_map(tool, on_map, NULL);
    kit_emu_on_unmap(tool, on_unmap, NULL);
    kit_emu_on_protect(tool, on_protect, NULL);
  }
  if (T.events & EV_INVALIDATE) kit_emu_on_invalidate(tool, on_invalidate, NULL);
  if (T.events & EV_TRANSLATE) kit_emu_on_code(tool, on_code, NULL);
  return 0;
}

/* ---- for --probe ------------------------------------------------------------------------- */

bool kit_emu_trace_on(void) { return T.w != NULL; }

void kit_emu_trace_probe_hit(KitEmu *emu, unsigned vcpu, uint64_t pc, unsigned index, const char *spec) {
  if (!T.w) return;
  KitTraceEvent ev = {.kind = KIT_TRACE_PROBE, .time_ns = now_ns() - T.start_ns, .pc = pc};
  ev.u.probe.index = index, ev.u.probe.spec = spec;
  put_event(stream_of(emu, vcpu), &ev);
}
