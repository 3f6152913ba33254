/* emu/instrument.c — the tools of include/kit/emu_tool.h: registration, the
 * per-block records of what they asked at translation time, the helpers
 * generated code calls to run their callbacks, and the fan-out of events.
 * translate.c turns a record into code (calls, inline adds, checked
 * accesses); this file never emits CG. */
#include "instrument.h"

#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_REPLACED KIT_EMU_MAX_DROP

struct KitEmuScoreboard {
  KitEmuTool *tool;
  KitEmu *emu;
  size_t entry_size;
  size_t off; /* of its entry in every thread's tool area (internal.h, KitEmuThread) */
  KitEmuScoreboard *next;
};

struct KitEmuTool {
  KitEmu *emu;
  unsigned id;
  bool active;
  char name[64];
  KitEmuTbTransCb tb_trans;
  void *tb_trans_user;
  KitEmuSyscallCb syscall;
  void *syscall_user;
  KitEmuSyscallRetCb syscall_ret;
  void *syscall_ret_user;
  KitEmuMapCb map;
  void *map_user;
  KitEmuUnmapCb unmap;
  void *unmap_user;
  KitEmuProtectCb protect;
  void *protect_user;
  KitEmuInvalidateCb invalidate;
  void *invalidate_user;
  KitEmuCodeCb code;
  void *code_user;
  KitEmuSwitchCb tswitch;
  void *tswitch_user;
  KitEmuSignalCb signal;
  void *signal_user;
  KitEmuThreadCb thread_start, thread_exit;
  void *thread_start_user, *thread_exit_user;
  KitEmuExitCb exit;
  void *exit_user;
  KitEmuExecveCb execve;
  void *execve_user;
  void *(*resolve)(void *user, const char *name);
  void *resolve_user;
  bool (*is_start)(void *user, uint64_t pc);
  void *is_start_user;
  KitEmuBlockPass pass;
  void *pass_user;
  KitEmuScoreboard *boards;
};

typedef struct Replaced {
  uint64_t pc;
  KitEmuTool *tool;
  KitEmuReplaceFn fn;
  void *user;
} Replaced;

struct KitEmuTools {
  KitEmuTool *t[KIT_EMU_MAX_TOOLS];
  unsigned n;
  unsigned ntrans;     /* active tools with a translation callback */
  /* what the dispatcher does to the translation cache at its next
   * boundary (kit_emu_tools_take): this stage comes before the cache */
  bool flush;          /* a tool's translation-time view changed */
  bool edges;          /* a tool asked for exit edges: calls end blocks */
  uint64_t detached;   /* tools whose blocks still wait to be dropped */
  uint64_t drop[MAX_REPLACED]; /* pcs whose block must be translated again */
  unsigned ndrop;
  Replaced repl[MAX_REPLACED];
  unsigned nrepl;
  size_t area_used;    /* of each thread's tool area, by the scoreboards */
};

/* ask the dispatcher for the cache work above before the next block runs */
static void settle_soon(KitEmu *emu) {
  emu->tools_pending = true;
  kit_emu_stop_all(emu);
}

static void drop_pc(KitEmu *emu, uint64_t pc) {
  struct KitEmuTools *ts = emu->tools;
  if (ts->ndrop < MAX_REPLACED) ts->drop[ts->ndrop++] = pc;
  else ts->flush = true;
  settle_soon(emu);
}

static struct KitEmuTools *tools_of(KitEmu *emu) {
  if (!emu->tools) emu->tools = calloc(1, sizeof *emu->tools);
  return emu->tools;
}

static void remove_pass(KitEmu *emu, KitEmuBlockPass pass, void *user);

#define FOR_TOOLS(emu, t)                                                                             \
  for (unsigned i_ = 0, n_ = (emu)->tools ? (emu)->tools->n : 0; i_ < n_; i_++)                      \
    for (KitEmuTool *t = (emu)->tools->t[i_]; t && t->active; t = NULL)

/* ---- registration -------------------------------------------------------------------------------- */

KitEmuTool *kit_emu_tool_register(KitEmu *emu, const char *name, uint32_t version, FILE *err) {
  if (version < KIT_EMU_TOOL_API_MIN_VERSION || version > KIT_EMU_TOOL_API_VERSION) {
    if (err)
      fprintf(err, "kit-emu: tool %s was built for tool API version %u; this kit-emu takes versions %u to %u\n",
              name ? name : "?", version, KIT_EMU_TOOL_API_MIN_VERSION, KIT_EMU_TOOL_API_VERSION);
    return NULL;
  }
  struct KitEmuTools *ts = tools_of(emu);
  if (!ts || ts->n == KIT_EMU_MAX_TOOLS) {
    if (err) fprintf(err, "kit-emu: tool %s: at most %d tools at once\n", name ? name : "?", KIT_EMU_MAX_TOOLS);
    return NULL;
  }
  KitEmuTool *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->emu = emu;
  t->id = ts->n;
  t->active = true;
  emu->parallel = false; /* tools' callbacks run one thread at a time */
  snprintf(t->name, sizeof t->name, "%s", name ? name : "tool");
  ts->t[ts->n++] = t;
  return t;
}

KitEmu *kit_emu_tool_emu(const KitEmuTool *tool) { return tool->emu; }
const char *kit_emu_tool_name(const KitEmuTool *tool) { return tool->name; }

KitEmuTool *kit_emu_tool_find(KitEmu *emu, const char *name) {
  FOR_TOOLS(emu, t) if (!strcmp(t->name, name)) return t;
  return NULL;
}

void kit_emu_tool_detach(KitEmuTool *tool) {
  if (!tool->active) return;
  KitEmu *emu = tool->emu;
  tool->active = false;
  if (tool->tb_trans) emu->tools->ntrans--;
  emu->tools->detached |= 1ull << tool->id;
  if (tool->pass) { /* its pass changed every block */
    remove_pass(emu, tool->pass, tool->pass_user);
    emu->tools->flush = true;
  }
  struct KitEmuTools *ts = emu->tools;
  for (unsigned i = 0; i < ts->nrepl; i++) /* its replacements (entries stay: code points at them) */
    if (ts->repl[i].tool == tool) drop_pc(emu, ts->repl[i].pc);
  settle_soon(emu); /* its blocks go before any runs again */
}

static void remove_pass(KitEmu *emu, KitEmuBlockPass pass, void *user) {
  for (unsigned i = 0; i < emu->npasses; i++)
    if (emu->passes[i].fn == pass && emu->passes[i].user == user) {
      memmove(&emu->passes[i], &emu->passes[i + 1], (emu->npasses - i - 1) * sizeof emu->passes[0]);
      emu->npasses--;
      return;
    }
}

void kit_emu_on_tb_trans(KitEmuTool *tool, KitEmuTbTransCb cb, void *user) {
  KitEmu *emu = tool->emu;
  if (!tool->tb_trans && cb) emu->tools->ntrans++;
  if (tool->tb_trans && !cb) emu->tools->ntrans--;
  tool->tb_trans = cb;
  tool->tb_trans_user = user;
  /* blocks translated before did not ask this tool */
  emu->tools->flush = true;
  settle_soon(emu);
}

void kit_emu_on_syscall(KitEmuTool *t, KitEmuSyscallCb cb, void *user) { t->syscall = cb, t->syscall_user = user; }
void kit_emu_on_syscall_ret(KitEmuTool *t, KitEmuSyscallRetCb cb, void *user) {
  t->syscall_ret = cb, t->syscall_ret_user = user;
}
void kit_emu_tool_set_map(KitEmuTool *t, KitEmuMapCb cb, void *user) { t->map = cb, t->map_user = user; }
void kit_emu_on_unmap(KitEmuTool *t, KitEmuUnmapCb cb, void *user) { t->unmap = cb, t->unmap_user = user; }
void kit_emu_on_protect(KitEmuTool *t, KitEmuProtectCb cb, void *user) { t->protect = cb, t->protect_user = user; }
static void ev_switch(KitEmu *emu, unsigned from, unsigned to) {
  FOR_TOOLS(emu, t) if (t->tswitch) t->tswitch(emu, from, to, t->tswitch_user);
}
void kit_emu_on_thread_switch(KitEmuTool *t, KitEmuSwitchCb cb, void *user) {
  t->tswitch = cb, t->tswitch_user = user;
  t->emu->on_switch = ev_switch;
}
void kit_emu_on_invalidate(KitEmuTool *t, KitEmuInvalidateCb cb, void *user) {
  t->invalidate = cb, t->invalidate_user = user;
}
void kit_emu_on_code(KitEmuTool *t, KitEmuCodeCb cb, void *user) { t->code = cb, t->code_user = user; }
void kit_emu_on_signal(KitEmuTool *t, KitEmuSignalCb cb, void *user) { t->signal = cb, t->signal_user = user; }
void kit_emu_on_thread_start(KitEmuTool *t, KitEmuThreadCb cb, void *user) {
  t->thread_start = cb, t->thread_start_user = user;
}
void kit_emu_on_thread_exit(KitEmuTool *t, KitEmuThreadCb cb, void *user) {
  t->thread_exit = cb, t->thread_exit_user = user;
}
void kit_emu_on_exit(KitEmuTool *t, KitEmuExitCb cb, void *user) { t->exit = cb, t->exit_user = user; }
void kit_emu_on_execve(KitEmuTool *t, KitEmuExecveCb cb, void *user) { t->execve = cb, t->execve_user = user; }

void kit_emu_tool_set_resolver(KitEmuTool *t, void *(*resolve)(void *user, const char *name), void *user) {
  t->resolve = resolve, t->resolve_user = user;
}

void kit_emu_tool_set_block_starts(KitEmuTool *t, bool (*is_start)(void *user, uint64_t pc), void *user) {
  t->is_start = is_start, t->is_start_user = user;
  t->emu->tools->flush = true;
  settle_soon(t->emu);
}

int kit_emu_instr_add_pass(KitEmu *emu, KitEmuBlockPass pass, void *user) {
  struct KitEmuTools *ts = tools_of(emu);
  if (!ts || !pass || emu->npasses >= sizeof emu->passes / sizeof emu->passes[0]) return -1;
  emu->passes[emu->npasses].fn = pass;
  emu->passes[emu->npasses].user = user;
  emu->npasses++;
  ts->flush = true; /* every block goes through it */
  settle_soon(emu);
  return 0;
}

int kit_emu_tool_add_pass(KitEmuTool *t, KitEmuBlockPass pass, void *user) {
  if (t->pass || kit_emu_instr_add_pass(t->emu, pass, user) < 0) return -1;
  t->pass = pass, t->pass_user = user;
  return 0;
}

int kit_emu_replace_function(KitEmuTool *tool, uint64_t pc, KitEmuReplaceFn fn, void *user) {
  struct KitEmuTools *ts = tool->emu->tools;
  for (unsigned i = 0; i < ts->nrepl; i++)
    if (ts->repl[i].pc == pc) return ts->repl[i].tool == tool ? (ts->repl[i].fn = fn, ts->repl[i].user = user, 0) : -1;
  if (ts->nrepl == MAX_REPLACED) return -1;
  /* the JIT worker reads the table: the entry is whole before the count says so */
  ts->repl[ts->nrepl] = (Replaced){pc, tool, fn, user};
  __atomic_store_n(&ts->nrepl, ts->nrepl + 1, __ATOMIC_RELEASE);
  drop_pc(tool->emu, pc);
  return 0;
}

static const Replaced *replaced_at(const KitEmu *emu, uint64_t pc) {
  const struct KitEmuTools *ts = emu->tools;
  unsigned n = ts ? __atomic_load_n(&ts->nrepl, __ATOMIC_ACQUIRE) : 0;
  for (unsigned i = 0; i < n; i++)
    if (ts->repl[i].pc == pc && ts->repl[i].tool->active) return &ts->repl[i];
  return NULL;
}

const void *kit_emu_instr_replaced(const KitEmu *emu, uint64_t pc) { return replaced_at(emu, pc); }

bool kit_emu_instr_block_start(const KitEmu *emu, uint64_t pc) {
  if (!emu->tools) return false;
  if (replaced_at(emu, pc)) return true;
  FOR_TOOLS(emu, t) if (t->is_start && t->is_start(t->is_start_user, pc)) return true;
  return false;
}

void *kit_emu_instr_resolve(const KitEmu *emu, const char *name) {
  FOR_TOOLS(emu, t) {
    void *p = t->resolve ? t->resolve(t->resolve_user, name) : NULL;
    if (p) return p;
  }
  return NULL;
}

bool kit_emu_tools_translate(const KitEmu *emu) { return emu->tools && emu->tools->ntrans; }
bool kit_emu_tools_edges(const KitEmu *emu) { return emu->tools && emu->tools->edges; }

bool kit_emu_tools_take(KitEmu *emu, bool *flush, uint64_t *detached, uint64_t *pcs, unsigned *npcs) {
  struct KitEmuTools *ts = emu->tools;
  emu->tools_pending = false;
  if (!ts) return false;
  *flush = ts->flush, *detached = ts->detached, *npcs = ts->ndrop;
  memcpy(pcs, ts->drop, ts->ndrop * sizeof *pcs);
  ts->flush = false, ts->detached = 0, ts->ndrop = 0;
  return *flush || *detached || *npcs;
}

void kit_emu_tools_free(KitEmu *emu) {
  struct KitEmuTools *ts = emu->tools;
  if (!ts) return;
  for (unsigned i = 0; i < ts->n; i++) {
    for (KitEmuScoreboard *s = ts->t[i]->boards, *nx; s; s = nx) {
      nx = s->next;
      free(s);
    }
    free(ts->t[i]);
  }
  free(ts);
  emu->tools = NULL;
}

/* ---- scoreboards ------------------------------------------------------------------------------------ */

KitEmuScoreboard *kit_emu_scoreboard_new(KitEmuTool *tool, size_t entry_size) {
  struct KitEmuTools *ts = tool->emu->tools;
  size_t size = (entry_size + 7) & ~(size_t)7;
  if (!size) size = 8;
  /* in every thread's tool area, at one offset: generated code reaches the
   * running thread's entry relative to its CPU pointer (translate.c, counter_ptr) */
  if (size > KIT_EMU_TOOL_AREA - ts->area_used) return NULL;
  KitEmuScoreboard *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->emu = tool->emu;
  s->entry_size = size;
  s->off = ts->area_used;
  ts->area_used += size;
  s->tool = tool;
  s->next = tool->boards;
  tool->boards = s;
  return s;
}

void *kit_emu_scoreboard_entry(KitEmuScoreboard *sb, unsigned vcpu) {
  KitEmuThread *t = kit_emu_thread_at(sb->emu, vcpu);
  return t ? t->tool_area + sb->off : NULL;
}
unsigned kit_emu_scoreboard_n(const KitEmuScoreboard *sb) { return atomic_load(&sb->emu->nthreads); }

/* the counter of thread vcpu (the shared one for every thread) */
static uint64_t *u64_addr(KitEmuU64 u, unsigned vcpu) {
  if (!u.score) return u.shared;
  uint8_t *e = kit_emu_scoreboard_entry(u.score, vcpu);
  return e && u.offset + 8 <= u.score->entry_size ? (uint64_t *)(e + u.offset) : NULL;
}

uint64_t kit_emu_u64_get(KitEmuU64 u, unsigned vcpu) {
  uint64_t *p = u64_addr(u, vcpu);
  return p ? *p : 0;
}

uint64_t kit_emu_u64_sum(KitEmuU64 u) {
  if (!u.score) return u.shared ? *u.shared : 0;
  uint64_t s = 0;
  for (unsigned v = 0, n = kit_emu_scoreboard_n(u.score); v < n; v++) s += kit_emu_u64_get(u, v);
  return s;
}

/* a registration's counter: shared (addr), or at an offset of each
 * thread's tool area; NULL when u names neither */
static bool counter_of(KitEmuU64 u, KitEmuCb *c) {
  if (!u.score) {
    c->addr = u.shared;
    return u.shared != NULL;
  }
  if (u.offset + 8 > u.score->entry_size) return false;
  c->area_off = u.score->off + u.offset;
  c->base_off = u.score->off;
  return true;
}

uint64_t *kit_emu_instr_counter(KitEmu *emu, const KitEmuCb *c) {
  return c->addr ? c->addr : (uint64_t *)(kit_thr(emu)->tool_area + c->area_off);
}

/* ---- translation time: the handles and the record ---------------------------------------------------------- */

typedef struct Vec {
  KitEmuCb *v;
  uint32_t n, cap;
} Vec;

struct KitEmuInsn {
  KitEmuTb *tb;
  unsigned i;
  Vec exec, inl, cond, mem, regw;
  char text[128];
  char sym[160];
  bool have_text, have_sym;
};

struct KitEmuTb {
  KitEmu *emu;
  KitEmuTool *tool; /* the one whose callback runs */
  KitDecodedInsn *insns;
  unsigned n;
  uint64_t tools;
  Vec exec, inl, cond, edge;
  KitEmuInsn insn[KIT_EMU_MAX_BLOCK_INSNS];
};

static void push(KitEmuTb *tb, Vec *v, KitEmuCb cb) {
  if (v->n == v->cap) {
    uint32_t cap = v->cap ? v->cap * 2 : 4;
    KitEmuCb *nv = realloc(v->v, cap * sizeof *nv);
    if (!nv) return;
    v->v = nv, v->cap = cap;
  }
  cb.tool = tb->tool;
  v->v[v->n++] = cb;
  tb->tools |= 1ull << tb->tool->id;
}

uint64_t kit_emu_tb_pc(const KitEmuTb *tb) { return tb->insns[0].pc; }
size_t kit_emu_tb_n_insns(const KitEmuTb *tb) { return tb->n; }
KitEmuInsn *kit_emu_tb_insn(KitEmuTb *tb, size_t i) { return i < tb->n ? &tb->insn[i] : NULL; }

static const KitDecodedInsn *dec(const KitEmuInsn *in) { return &in->tb->insns[in->i]; }
uint64_t kit_emu_insn_pc(const KitEmuInsn *in) { return dec(in)->pc; }
unsigned kit_emu_insn_size(const KitEmuInsn *in) { return dec(in)->len; }
uint32_t kit_emu_insn_raw(const KitEmuInsn *in) { return dec(in)->raw; }
uint64_t kit_emu_insn_target(const KitEmuInsn *in) { return dec(in)->target; }

size_t kit_emu_insn_bytes(const KitEmuInsn *in, void *dst, size_t n) {
  const KitDecodedInsn *d = dec(in);
  size_t len = d->len < n ? d->len : n;
  if (kit_aspace_read(&in->tb->emu->as, d->pc, dst, len) < 0) return 0;
  return len;
}

unsigned kit_emu_insn_class(const KitEmuInsn *in) {
  static const struct {
    uint32_t decode, cls;
  } map[] = {
      {KIT_DECODE_MEM_LOAD, KIT_EMU_INSN_LOAD}, {KIT_DECODE_MEM_STORE, KIT_EMU_INSN_STORE},
      {KIT_DECODE_ATOMIC, KIT_EMU_INSN_ATOMIC}, {KIT_DECODE_BRANCH, KIT_EMU_INSN_BRANCH},
      {KIT_DECODE_JUMP, KIT_EMU_INSN_JUMP},     {KIT_DECODE_CALL, KIT_EMU_INSN_CALL},
      {KIT_DECODE_RET, KIT_EMU_INSN_RET},       {KIT_DECODE_INDIRECT, KIT_EMU_INSN_INDIRECT},
      {KIT_DECODE_SYSCALL, KIT_EMU_INSN_SYSCALL}, {KIT_DECODE_TRAP, KIT_EMU_INSN_TRAP},
      {KIT_DECODE_FP, KIT_EMU_INSN_FP},         {KIT_DECODE_CSR, KIT_EMU_INSN_CSR},
      {KIT_DECODE_FENCE_I, KIT_EMU_INSN_FENCE},
  };
  unsigned c = 0;
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (dec(in)->flags & map[i].decode) c |= map[i].cls;
  return c;
}

const char *kit_emu_insn_disas(const KitEmuInsn *cin) {
  KitEmuInsn *in = (KitEmuInsn *)cin;
  if (!in->have_text) {
    in->have_text = true;
    snprintf(in->text, sizeof in->text, "?");
    const KitArch *a = in->tb->emu->arch;
    if (a->disasm) a->disasm(dec(in), in->text, sizeof in->text);
  }
  return in->text;
}

const char *kit_emu_insn_symbol(const KitEmuInsn *cin) {
  KitEmuInsn *in = (KitEmuInsn *)cin;
  if (!in->have_sym) {
    in->have_sym = true;
    KitEmuSymbol s;
    if (kit_emu_symbolize(in->tb->emu, dec(in)->pc, &s) == 0 && s.function) {
      if (s.offset) snprintf(in->sym, sizeof in->sym, "%s+0x%llx", s.function, (unsigned long long)s.offset);
      else snprintf(in->sym, sizeof in->sym, "%s", s.function);
    }
  }
  return in->sym[0] ? in->sym : NULL;
}

void kit_emu_tb_exec_cb(KitEmuTb *tb, KitEmuExecCb cb, void *user) {
  push(tb, &tb->exec, (KitEmuCb){.fn.exec = cb, .user = user});
}
void kit_emu_insn_exec_cb(KitEmuInsn *in, KitEmuExecCb cb, void *user) {
  push(in->tb, &in->exec, (KitEmuCb){.fn.exec = cb, .user = user});
}
void kit_emu_tb_inline(KitEmuTb *tb, KitEmuInlineOp op, KitEmuU64 u, uint64_t imm) {
  KitEmuCb c = {.imm = imm, .op = (uint8_t)op};
  if (counter_of(u, &c)) push(tb, &tb->inl, c);
}
void kit_emu_insn_inline(KitEmuInsn *in, KitEmuInlineOp op, KitEmuU64 u, uint64_t imm) {
  KitEmuCb c = {.imm = imm, .op = (uint8_t)op};
  if (counter_of(u, &c)) push(in->tb, &in->inl, c);
}
void kit_emu_tb_cond_cb(KitEmuTb *tb, KitEmuExecCb cb, KitEmuCond cond, KitEmuU64 u, uint64_t imm, void *user) {
  KitEmuCb c = {.fn.exec = cb, .user = user, .imm = imm, .op = (uint8_t)cond};
  if (counter_of(u, &c)) push(tb, &tb->cond, c);
}
void kit_emu_insn_cond_cb(KitEmuInsn *in, KitEmuExecCb cb, KitEmuCond cond, KitEmuU64 u, uint64_t imm, void *user) {
  KitEmuCb c = {.fn.exec = cb, .user = user, .imm = imm, .op = (uint8_t)cond};
  if (counter_of(u, &c)) push(in->tb, &in->cond, c);
}
void kit_emu_insn_mem_cb(KitEmuInsn *in, KitEmuMemCb cb, unsigned rw, void *user) {
  const KitDecodedInsn *d = dec(in);
  if (!(d->flags & (KIT_DECODE_MEM_LOAD | KIT_DECODE_MEM_STORE | KIT_DECODE_ATOMIC)) || !(rw & KIT_EMU_MEM_RW)) return;
  push(in->tb, &in->mem, (KitEmuCb){.fn.mem = cb, .user = user, .rw = (uint8_t)rw});
}
void kit_emu_insn_regw_cb(KitEmuInsn *in, KitEmuRegWriteCb cb, void *user) {
  const KitArch *a = in->tb->emu->arch;
  uint16_t regs[8];
  if (!a->insn_writes || a->insn_writes(dec(in), regs, 8) == 0) return; /* it writes none */
  push(in->tb, &in->regw, (KitEmuCb){.fn.regw = cb, .user = user});
}
void kit_emu_tb_edge_cb(KitEmuTb *tb, KitEmuEdgeCb cb, void *user) { kit_emu_tb_edge_cb_outside(tb, cb, 0, 0, user); }
void kit_emu_tb_edge_cb_outside(KitEmuTb *tb, KitEmuEdgeCb cb, uint64_t lo, uint64_t len, void *user) {
  struct KitEmuTools *ts = tb->emu->tools;
  if (!ts->edges) { /* from now on calls end blocks: the blocks decoded before go */
    ts->edges = true;
    ts->flush = true;
    settle_soon(tb->emu);
  }
  const KitDecodedInsn *last = &tb->insns[tb->n - 1];
  if (!(last->flags & (KIT_DECODE_BRANCH | KIT_DECODE_JUMP | KIT_DECODE_CALL | KIT_DECODE_RET))) return;
  push(tb, &tb->edge, (KitEmuCb){.fn.edge = cb, .user = user, .lo = lo, .len = len});
}

static KitEmuEdge edge_kind(uint32_t flags) {
  if (flags & KIT_DECODE_CALL) return KIT_EMU_EDGE_CALL;
  if (flags & KIT_DECODE_RET) return KIT_EMU_EDGE_RET;
  if (flags & KIT_DECODE_BRANCH) return KIT_EMU_EDGE_COND;
  return KIT_EMU_EDGE_JUMP;
}

static KitEmuCbList freeze(Vec *v, uint64_t pc) {
  KitEmuCbList l = {.n = v->n, .pc = pc, .cb = v->v};
  if (v->n && v->n < v->cap) { /* give back the slack */
    KitEmuCb *s = realloc(v->v, v->n * sizeof *s);
    if (s) l.cb = s;
  }
  if (!v->n) {
    free(v->v);
    l.cb = NULL;
  }
  return l;
}

static void list_free(KitEmuCbList *l) { free(l->cb); }

void kit_emu_instr_free(KitEmuTbRec *r) {
  if (!r) return;
  list_free(&r->exec), list_free(&r->inl), list_free(&r->cond), list_free(&r->edge);
  for (uint32_t i = 0; i < r->ninsns; i++) {
    KitEmuInstr *e = &r->insn[i];
    list_free(&e->exec), list_free(&e->inl), list_free(&e->cond), list_free(&e->mem), list_free(&e->regw);
  }
  free(r->insn);
  free(r);
}

KitEmuTbRec *kit_emu_instr_block(KitEmu *emu, KitDecodedInsn *insns, unsigned n) {
  for (unsigned i = 0; i < n; i++) insns[i].instr = NULL;
  if (!kit_emu_tools_translate(emu) || !n) return NULL;
  KitEmuTb *tb = calloc(1, sizeof *tb);
  if (!tb) return NULL;
  tb->emu = emu, tb->insns = insns, tb->n = n;
  for (unsigned i = 0; i < n; i++) tb->insn[i] = (KitEmuInsn){.tb = tb, .i = i};
  FOR_TOOLS(emu, t) {
    if (!t->tb_trans) continue;
    tb->tool = t;
    t->tb_trans(t, tb, t->tb_trans_user);
  }
  KitEmuTbRec *r = NULL;
  if (tb->tools && (r = calloc(1, sizeof *r)) && (r->insn = calloc(n, sizeof *r->insn))) {
    uint64_t pc = insns[0].pc;
    r->ninsns = n, r->tools = tb->tools;
    r->exec = freeze(&tb->exec, pc), r->inl = freeze(&tb->inl, pc), r->cond = freeze(&tb->cond, pc);
    r->edge = freeze(&tb->edge, insns[n - 1].pc);
    r->edge.kind = (uint8_t)edge_kind(insns[n - 1].flags);
    for (unsigned i = 0; i < n; i++) {
      KitEmuInsn *in = &tb->insn[i];
      KitEmuInstr *e = &r->insn[i];
      uint64_t ipc = insns[i].pc;
      e->tb = r, e->index = i;
      e->exec = freeze(&in->exec, ipc), e->inl = freeze(&in->inl, ipc), e->cond = freeze(&in->cond, ipc);
      e->mem = freeze(&in->mem, ipc), e->regw = freeze(&in->regw, ipc);
      for (uint32_t k = 0; k < e->inl.n; k++)
        e->has_add |= e->inl.cb[k].op == KIT_EMU_INLINE_ADD;
      if (e->regw.n) e->regw.nregs = (uint8_t)emu->arch->insn_writes(&insns[i], e->regw.regs, 8);
      insns[i].instr = e;
    }
  } else {
    free(r);
    r = NULL;
    free(tb->exec.v), free(tb->inl.v), free(tb->cond.v), free(tb->edge.v);
    for (unsigned i = 0; i < n; i++) {
      KitEmuInsn *in = &tb->insn[i];
      free(in->exec.v), free(in->inl.v), free(in->cond.v), free(in->mem.v), free(in->regw.v);
    }
  }
  free(tb);
  return r;
}

uint64_t kit_emu_instr_tools(const KitDecodedInsn *insns, unsigned n) {
  uint64_t m = 0;
  for (unsigned i = 0; i < n; i++) {
    const KitEmuInstr *e = insns[i].instr;
    if (e && e->index == 0) m |= e->tb->tools;
  }
  return m;
}

/* a block's instructions in the code: from its first (index 0) to the one
 * before the next block's first */
void kit_emu_instr_fault(KitEmu *emu, const KitDecodedInsn *insns, unsigned n, unsigned k) {
  if (k >= n) return;
  for (unsigned j = k; j < n; j++) {
    const KitEmuInstr *e = insns[j].instr;
    if (j > k && e && e->index == 0) break; /* the next block's: not counted yet */
    if (!e || !e->has_add) continue; /* nothing of this instruction was counted */
    for (uint32_t c = 0; c < e->inl.n; c++)
      if (e->inl.cb[c].op == KIT_EMU_INLINE_ADD && e->inl.cb[c].tool->active)
        *kit_emu_instr_counter(emu, &e->inl.cb[c]) -= e->inl.cb[c].imm;
  }
}

/* ---- what generated code calls ------------------------------------------------------------------------ */

void kit_emu_tool_exec(const KitEmuCbList *l) {
  KitEmu *emu = kit_emu_current;
  unsigned vcpu = kit_emu_vcpu(emu);
  for (uint32_t i = 0; i < l->n; i++)
    if (l->cb[i].tool->active) l->cb[i].fn.exec(emu, vcpu, l->cb[i].user);
}

void kit_emu_tool_cond(const KitEmuCb *c) {
  KitEmu *emu = kit_emu_current;
  if (c->tool->active) c->fn.exec(emu, kit_emu_vcpu(emu), c->user);
}

void kit_emu_tool_regw(const KitEmuCbList *l) {
  KitEmu *emu = kit_emu_current;
  unsigned vcpu = kit_emu_vcpu(emu);
  for (uint8_t r = 0; r < l->nregs; r++) {
    uint64_t v = emu->arch->get_reg(kit_emu_cpu(emu), l->regs[r]);
    for (uint32_t i = 0; i < l->n; i++)
      if (l->cb[i].tool->active) l->cb[i].fn.regw(emu, vcpu, l->pc, l->regs[r], v, l->cb[i].user);
  }
}

void kit_emu_tool_edge(const KitEmuCbList *l, int64_t to) {
  KitEmu *emu = kit_emu_current;
  unsigned vcpu = kit_emu_vcpu(emu);
  for (uint32_t i = 0; i < l->n; i++)
    if (l->cb[i].tool->active && (uint64_t)to - l->cb[i].lo >= l->cb[i].len)
      l->cb[i].fn.edge(emu, vcpu, l->pc, (uint64_t)to, (KitEmuEdge)l->kind, l->cb[i].user);
}

/* the checked access: host pointer, or NULL for a fault (out of the window,
 * or a tool's DENY) */
void *kit_emu_tool_mem(void *cpu, const KitEmuCbList *l, int64_t addr, int32_t size_store, int64_t value) {
  (void)cpu;
  KitEmu *emu = kit_emu_current;
  uint32_t size = (uint32_t)size_store & 0xffff;
  bool store = (size_store >> 16) & 1, has_value = (size_store >> 17) & 1;
  void *host = (uint64_t)addr < emu->as.size ? kit_aspace_host(&emu->as, (uint64_t)addr) : NULL;
  KitEmuMemAccess a = {.pc = l->pc, .addr = (uint64_t)addr, .size = size, .is_store = store};
  if (store && has_value) {
    a.has_value = true;
    a.value = (uint64_t)value;
  } else if (host && size <= 8 && kit_aspace_check(&emu->as, (uint64_t)addr, size, KIT_EMU_PROT_READ)) {
    /* a load's value, or an atomic's (what the memory holds before it) */
    uint64_t v = 0;
    memcpy(&v, host, size);
    a.value = v;
    a.has_value = true;
  }
  unsigned vcpu = kit_emu_vcpu(emu);
  for (uint32_t i = 0; i < l->n; i++) {
    const KitEmuCb *c = &l->cb[i];
    if (!c->tool->active || !(c->rw & (store ? KIT_EMU_MEM_W : KIT_EMU_MEM_R))) continue;
    if (c->fn.mem(emu, vcpu, &a, c->user) == KIT_EMU_DENY) return NULL; /* kit_emu_mem_fault raises SIGSEGV */
  }
  return host;
}

int64_t kit_emu_tool_replaced(void *cpu, int64_t pc, const void *entry) {
  KitEmu *emu = kit_emu_current;
  const Replaced *r = entry;
  if (!r->tool->active) return pc; /* its tool detached: this block goes, the guest's code comes back */
  uint64_t next = r->fn(emu, kit_emu_vcpu(emu), (uint64_t)pc, r->user);
  emu->arch->set_pc(cpu, next);
  return (int64_t)next;
}

/* ---- events ----------------------------------------------------------------------------------------------- */

bool kit_emu_ev_syscall(KitEmu *emu, KitEmuSyscall *sc, int64_t *ret) {
  unsigned vcpu = kit_emu_vcpu(emu);
  FOR_TOOLS(emu, t) if (t->syscall && t->syscall(emu, vcpu, sc, ret, t->syscall_user)) return true;
  return false;
}

void kit_emu_ev_syscall_ret(KitEmu *emu, const KitEmuSyscall *sc, int64_t ret) {
  unsigned vcpu = kit_emu_vcpu(emu);
  FOR_TOOLS(emu, t) if (t->syscall_ret) t->syscall_ret(emu, vcpu, sc, ret, t->syscall_ret_user);
}

void kit_emu_ev_map(KitEmu *emu, const KitEmuMapping *m) {
  FOR_TOOLS(emu, t) if (t->map) t->map(emu, m, t->map_user);
}
void kit_emu_ev_unmap(KitEmu *emu, uint64_t va, uint64_t len) {
  FOR_TOOLS(emu, t) if (t->unmap) t->unmap(emu, va, len, t->unmap_user);
}
void kit_emu_ev_invalidate(KitEmu *emu, uint64_t lo, uint64_t hi, unsigned reason) {
  FOR_TOOLS(emu, t) if (t->invalidate) t->invalidate(emu, lo, hi, reason, t->invalidate_user);
}
void kit_emu_ev_code(KitEmu *emu, uint64_t pc, unsigned tier, size_t ninsns) {
  if (!emu->tools) return;
  unsigned vcpu = kit_emu_vcpu(emu);
  FOR_TOOLS(emu, t) if (t->code) t->code(emu, vcpu, pc, tier, ninsns, t->code_user);
}
void kit_emu_ev_protect(KitEmu *emu, uint64_t va, uint64_t len, uint8_t prot) {
  FOR_TOOLS(emu, t) if (t->protect) t->protect(emu, va, len, prot, t->protect_user);
}
void kit_emu_ev_signal(KitEmu *emu, const KitEmuSignal *s) {
  unsigned vcpu = kit_emu_vcpu(emu);
  FOR_TOOLS(emu, t) if (t->signal) t->signal(emu, vcpu, s, t->signal_user);
}
void kit_emu_ev_thread(KitEmu *emu, unsigned vcpu, bool start) {
  FOR_TOOLS(emu, t) {
    if (start && t->thread_start) t->thread_start(emu, vcpu, t->thread_start_user);
    if (!start && t->thread_exit) t->thread_exit(emu, vcpu, t->thread_exit_user);
  }
}
void kit_emu_ev_exit(KitEmu *emu, int status) {
  FOR_TOOLS(emu, t) if (t->exit) t->exit(emu, status, t->exit_user);
}
void kit_emu_ev_execve(KitEmu *emu, const char *path) {
  unsigned vcpu = kit_emu_vcpu(emu);
  FOR_TOOLS(emu, t) if (t->execve) t->execve(emu, vcpu, path, t->execve_user);
}

/* ---- services -------------------------------------------------------------------------------------------------- */

unsigned kit_emu_vcpu(KitEmu *emu) { return kit_thr(emu)->vcpu; }
unsigned kit_emu_n_threads(KitEmu *emu) { return atomic_load(&emu->nthreads); }
bool kit_emu_thread_alive(KitEmu *emu, unsigned vcpu) {
  KitEmuThread *t = kit_emu_thread_at(emu, vcpu);
  return t && atomic_load(&t->live) && !t->done;
}
uint64_t kit_emu_thread_reg_read(KitEmu *emu, unsigned vcpu, const KitArchReg *reg) {
  KitEmuThread *t = kit_emu_thread_at(emu, vcpu);
  return t && reg && atomic_load(&t->live) ? emu->arch->get_reg(t->cpu, reg->num) : 0;
}
int kit_emu_thread_parent_tid(KitEmu *emu, unsigned vcpu) {
  KitEmuThread *t = kit_emu_thread_at(emu, vcpu);
  return t ? t->parent_tid : 0;
}
int kit_emu_thread_id(KitEmu *emu) {
  int tid = kit_thr(emu)->tid;
  return tid ? tid : (int)syscall(SYS_gettid); /* before the run: the embedder's thread */
}

const KitArchReg *kit_emu_regs(KitEmu *emu, size_t *n) {
  if (n) *n = emu->arch->nregs;
  return emu->arch->regs;
}

const KitArchReg *kit_emu_reg_find(KitEmu *emu, const char *name) {
  for (unsigned i = 0; i < emu->arch->nregs; i++)
    if (!strcmp(emu->arch->regs[i].name, name)) return &emu->arch->regs[i];
  return NULL;
}

const KitArchReg *kit_emu_reg_role(KitEmu *emu, unsigned role) {
  const KitArchCallConv *cc = &emu->arch->cc;
  unsigned num;
  switch (role) {
  case KIT_EMU_ROLE_RA: num = cc->ra; break;
  case KIT_EMU_ROLE_SP: num = cc->sp; break;
  case KIT_EMU_ROLE_FP: num = cc->fp; break;
  case KIT_EMU_ROLE_TP: num = cc->tp; break;
  case KIT_EMU_ROLE_RET: num = cc->ret; break;
  default:
    if (role < KIT_EMU_ROLE_ARG0 || role >= KIT_EMU_ROLE_ARG0 + KIT_ARCH_MAX_ARGS) return NULL;
    num = cc->args[role - KIT_EMU_ROLE_ARG0];
  }
  for (unsigned i = 0; i < emu->arch->nregs; i++)
    if (emu->arch->regs[i].num == num) return &emu->arch->regs[i];
  return NULL;
}

uint64_t kit_emu_reg_read(KitEmu *emu, const KitArchReg *reg) {
  return reg ? emu->arch->get_reg(kit_emu_cpu(emu), reg->num) : 0;
}
void kit_emu_reg_write(KitEmu *emu, const KitArchReg *reg, uint64_t value) {
  if (reg) emu->arch->set_reg(kit_emu_cpu(emu), reg->num, value);
}
