/* emu/tools/callgrind/tool.c — --tool=callgrind: the profile core (profile.h)
 * fed by kit-emu's tool API. Self costs: every instruction adds 1, inline in
 * the generated code, to the counter of its source position (function, file,
 * line[, address]) and to the thread's total; no call per block. Calls: edge
 * callbacks on the blocks that end in a call, a return or a jump that may
 * leave the function keep a shadow stack per thread, whose frames give each
 * call site's calls= count and inclusive cost (total now - total at the
 * call) and the calling-context tree of the folded stacks and the flame
 * graph. The stack tolerates what real programs do: tail calls (a jump into
 * another function is a call, returning with it), longjmp (frames whose
 * stack pointer lies below the one returned to are gone), signal handlers
 * (called from the interrupted function, gone at rt_sigreturn), calls
 * through the PLT (a call of a stub is no call: the stub's jump is the call,
 * from the stub's caller, as callgrind's --skip-plt=yes). --cache-sim=yes
 * adds cachegrind's cache model, fed by a callback per block (fetches) and
 * per load and store; --collect-jumps=yes an inline counter per jump and a
 * callback per conditional branch; --toggle-collect keeps the counters'
 * values when collection stops and subtracts what they counted meanwhile. */
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "tools/tools.h"

enum { EV_IR, EV_DR, EV_DW, EV_I1MR, EV_D1MR, EV_D1MW, EV_ILMR, EV_DLMR, EV_DLMW, MAX_EV };
static const char *const event_names[MAX_EV] = {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"};
/* counters: SLOTS_PER_CHUNK to a scoreboard (one entry per thread), at most MAX_CHUNKS */
enum { MAX_DEPTH = 1 << 20, SLOTS_PER_CHUNK = 1 << 14, MAX_CHUNKS = 31 };

/* ---- a u64 -> pointer hash (keys never 0) ----------------------------------------------------- */

typedef struct Map {
  uint64_t *keys;
  void **vals;
  size_t cap, n;
} Map;

static uint64_t mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

static void *map_get(const Map *m, uint64_t key) {
  if (!m->cap) return NULL;
  for (size_t i = mix64(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) return m->vals[i];
    if (!m->keys[i]) return NULL;
  }
}

static void map_put(Map *m, uint64_t key, void *val) {
  if (2 * (m->n + 1) > m->cap) {
    Map g = {calloc(m->cap ? 2 * m->cap : 1024, 8), calloc(m->cap ? 2 * m->cap : 1024, sizeof(void *)),
             m->cap ? 2 * m->cap : 1024, 0};
    if (!g.keys || !g.vals) abort();
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) map_put(&g, m->keys[i], m->vals[i]);
    free(m->keys), free(m->vals);
    *m = g;
  }
  size_t i = mix64(key) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  if (!m->keys[i]) m->n++;
  m->keys[i] = key;
  m->vals[i] = val;
}

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h | 1;
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) abort();
  return p;
}

/* ---- the guest's code: modules, functions, source positions ----------------------------------- */

typedef struct Sym {
  uint64_t addr, size;
  char *name;
} Sym;

typedef struct Module {
  char *path;
  uint64_t bias;
  Sym *syms; /* sorted by address */
  size_t nsyms;
  uint64_t plt_lo, plt_hi; /* loaded addresses of .plt, 0 without */
  KitLineTab *lines;       /* NULL without DWARF */
} Module;

typedef struct Fn {
  KitProfFn id;
  uint32_t idx;             /* in cg.fns: the threads' per-function state */
  const char *obj, *file, *name; /* for the files of --separate-threads=yes */
  uint64_t start, end; /* loaded addresses */
  Module *mod;
  bool toggle;              /* --toggle-collect names it */
} Fn;

typedef struct Pos { /* one counter: instructions of a function at a (file, line[, address]) */
  Fn *fn;
  const char *file; /* interned; NULL: the function's own */
  uint32_t line;
  uint64_t addr;    /* link-time, for --dump-instr=yes */
  uint32_t count;   /* its counter (a slot: per thread) */
  uint32_t idx;     /* in cg.pos: the threads' cache events here */
} Pos;

typedef struct Edge { /* a call site and its callee, as the file's calls= lines */
  Fn *caller, *callee;
  uint32_t line, idx; /* idx in cg.edges: the threads' figures of it */
  uint64_t addr;
  KitProfNode last_parent, last_node; /* the context it made last, from which one */
} Edge;

typedef struct EdgeCost { /* a thread's calls of an edge and their inclusive Ir (the cache events': Thread.ec_ev) */
  uint64_t calls, ir;
} EdgeCost;

enum { BLK_CALL = 1, BLK_RET, BLK_JUMP, BLK_COND };

typedef struct Jump { /* --collect-jumps=yes: a jump or branch inside a function */
  Fn *fn;
  uint32_t line, to_line;
  uint64_t addr, to_addr; /* link-time */
  uint64_t target;        /* loaded */
  uint32_t exe;           /* an inline counter (a slot): how often it ran */
  uint32_t idx;           /* in cg.jumps: the threads' counts of it taken (edge callbacks) */
  bool cond;
} Jump;

typedef struct Blk { /* what an edge callback needs of its block: one cache line */
  _Alignas(64) Fn *fn; /* of the last instruction */
  uint64_t fn_start;   /* fn's range, here for the jumps that stay in it */
  /* the last call's target, callee and edge, for the next call from here */
  uint64_t last_to;
  Fn *last_callee;
  Edge *last_edge;
  Jump *jump; /* --collect-jumps=yes: the conditional branch it ends in */
  uint32_t fn_len, line;
  uint8_t size; /* of the last instruction */
  uint8_t kind;
  uint32_t last_eidx; /* last_edge->idx, for on_call: no read of the edge per call */
} Blk;
_Static_assert(sizeof(Blk) == 64, "a block's record is one cache line");

typedef struct Fetch { /* --cache-sim: the block's instructions, fetched on entry */
  uint32_t n;
  struct {
    uint64_t pc;
    Pos *pos;
    uint8_t size;
  } insn[];
} Fetch;

/* ---- the shadow stack ---------------------------------------------------------------------------- */

typedef struct Frame { /* under a cache line: a call writes one */
  Fn *fn;
  Edge *edge;      /* NULL for the thread's first frame */
  uint64_t ret, sp;
  uint64_t enter_ir; /* the thread's Ir at the call (its cache events then: Thread.fev) */
  KitProfNode node;
  uint32_t eidx;   /* edge->idx: a return need not read the edge */
  bool tail;       /* it replaced the frame below (a tail call): both return at once */
  bool toggled;    /* its call toggled collection (--toggle-collect): its return toggles back */
  bool counted;    /* called while collecting: a call of its edge */
  bool signal;     /* a signal handler: gone at rt_sigreturn */
} Frame;
_Static_assert(sizeof(Frame) <= 64, "a frame is under a cache line");

/* A guest thread: its shadow stack and what it counted. Only one guest
 * thread runs at a time (docs/emu.md, "Threads"), and each callback gets
 * the running one's vcpu, so none of this needs a lock. */
typedef struct Thread {
  unsigned vcpu;
  bool collecting; /* --collect-atstart, --toggle-collect: per thread, as callgrind's */
  Frame *f;
  size_t n, cap;
  uint64_t last_ir; /* the total when the current context last changed */
  const uint64_t *ir; /* the thread's retired instructions (its scoreboard entry) */
  uint64_t snap_ir, excl_ir; /* --toggle-collect: *ir when collection stopped, what was not collected */
  uint64_t cache[MAX_EV]; /* the cache model's running totals */
  /* a call into the PLT: the stub's jump makes the call */
  bool pending;
  Blk *pending_blk;
  uint64_t pending_to, pending_ret, pending_sp; /* the stub, and the call's */
  /* lazy binding: 1 + the index of the resolver's frame, whose jump out is
   * the call of the function it resolved, from the stub's caller */
  size_t resolve_at;
  Blk *resolve_blk;
  uint64_t resolve_ret, resolve_sp;
  /* its figures, by the index of the edge, jump, position, function */
  EdgeCost *ec;
  size_t nec;
  uint64_t (*ec_ev)[MAX_EV]; /* --cache-sim: the edges' inclusive cache events */
  size_t nec_ev;
  uint64_t (*fev)[MAX_EV];   /* --cache-sim: the cache events at each frame's call */
  size_t nfev;
  uint64_t *jumped;
  size_t njumped;
  uint64_t (*pcache)[MAX_EV];
  size_t npcache;
  uint32_t *active;          /* frames of the function on its stack (recursion) */
  KitProfNode *active_node;  /* the context of its outermost frame */
  size_t nactive;
  uint64_t *snap[MAX_CHUNKS]; /* --toggle-collect: per chunk its counters when collection stopped, then what was not collected */
} Thread;

/* ---- the tool's state ---------------------------------------------------------------------------- */

typedef struct Options {
  char out_file[4096];
  char folded[4096], flame[4096];
  bool dump_instr, dump_line, cache_sim, collect_jumps, collect_atstart, separate_threads;
  char *toggle[16];
  unsigned ntoggle;
  KitCacheGeom i1, d1, ll;
} Options;

static struct {
  KitEmu *emu;
  KitEmuTool *tool;
  Options o;
  FILE *err;
  KitProf *prof;
  unsigned nev;
  KitEmuScoreboard *board; /* per thread: the retired-instruction total */
  Module **mods;
  size_t nmods;
  Map fn_by_start, fn_at_pc, pos_by_key, edge_by_key, strings, starts;
  Fn **fns;
  size_t nfns;
  Pos **pos;
  size_t npos;
  Edge **edges;
  size_t nedges;
  Map jump_by_pc;
  Jump **jumps;
  size_t njumps;
  /* counters, SLOTS_PER_CHUNK to a scoreboard: every thread its own, at a
   * fixed address; the inline adds reach the running thread's */
  KitEmuScoreboard *chunks[MAX_CHUNKS];
  size_t nchunks, chunk_used;
  bool out_of_slots;
  uint64_t sink; /* the counter of positions past the last chunk (not counted) */
  bool toggling;
  uint64_t *node_ir; /* self Ir of each context */
  size_t node_cap;
  Thread **threads; /* by vcpu */
  size_t nthreads;
  const KitArchReg *sp_reg;
  uint64_t sigreturn_nr;
  KitCacheSim sim;
  bool tree; /* keep the calling-context tree (--folded-out, --flamegraph) */
  bool fast; /* Ir only, no tree, no toggling: on_call and on_ret's short paths */
} cg;

static const char *intern(const char *s) {
  if (!s) return NULL;
  uint64_t h = hash_str(s);
  for (;; h += 2) {
    const char *v = map_get(&cg.strings, h);
    if (!v) break;
    if (!strcmp(v, s)) return v;
  }
  char *d = strdup(s);
  if (!d) abort();
  map_put(&cg.strings, h, d);
  return d;
}

/* a new counter (zero in every thread); UINT32_MAX when the threads' tool
 * areas are full: the position is not counted (said at exit) */
static uint32_t new_counter(void) {
  if (!cg.nchunks || cg.chunk_used == SLOTS_PER_CHUNK) {
    KitEmuScoreboard *sb = cg.nchunks < MAX_CHUNKS ? kit_emu_scoreboard_new(cg.tool, SLOTS_PER_CHUNK * sizeof(uint64_t)) : NULL;
    if (!sb) {
      cg.out_of_slots = true;
      return UINT32_MAX;
    }
    cg.chunks[cg.nchunks++] = sb;
    cg.chunk_used = 0;
  }
  return (uint32_t)((cg.nchunks - 1) * SLOTS_PER_CHUNK + cg.chunk_used++);
}

static KitEmuU64 counter_u64(uint32_t slot) {
  if (slot == UINT32_MAX) return kit_emu_u64_shared(&cg.sink);
  return kit_emu_u64_per_thread(cg.chunks[slot / SLOTS_PER_CHUNK], (slot % SLOTS_PER_CHUNK) * sizeof(uint64_t));
}

/* thread vcpu's counters of chunk c (NULL for a thread past the scoreboard) */
static uint64_t *chunk_of(size_t c, unsigned vcpu) { return kit_emu_scoreboard_entry(cg.chunks[c], vcpu); }

static Thread *thread_at(unsigned vcpu) { return vcpu < cg.nthreads ? cg.threads[vcpu] : NULL; }

/* what thread vcpu's counter counted while it was collecting */
static uint64_t collected(uint32_t slot, unsigned vcpu) {
  if (slot == UINT32_MAX) return 0;
  const uint64_t *v = chunk_of(slot / SLOTS_PER_CHUNK, vcpu);
  if (!v) return 0;
  size_t i = slot % SLOTS_PER_CHUNK;
  Thread *t = thread_at(vcpu);
  const uint64_t *snap = cg.toggling && t ? t->snap[slot / SLOTS_PER_CHUNK] : NULL;
  return snap ? v[i] - snap[SLOTS_PER_CHUNK + i] : v[i];
}

/* --toggle-collect: thread t stops collecting (its counters' values kept)
 * or starts again (what they counted meanwhile is not collected) */
static void toggle_collection(Thread *t) {
  for (size_t c = 0; c < cg.nchunks; c++) {
    uint64_t *v = chunk_of(c, t->vcpu);
    if (!v) continue;
    if (!t->snap[c]) t->snap[c] = xcalloc(2 * (size_t)SLOTS_PER_CHUNK, sizeof(uint64_t));
    uint64_t *snap = t->snap[c], *excl = snap + SLOTS_PER_CHUNK;
    size_t n = c + 1 == cg.nchunks ? cg.chunk_used : SLOTS_PER_CHUNK;
    if (t->collecting) memcpy(snap, v, n * sizeof *v);
    else
      for (size_t i = 0; i < n; i++) excl[i] += v[i] - snap[i], snap[i] = v[i];
  }
  if (t->collecting) t->snap_ir = *t->ir;
  else t->excl_ir += *t->ir - t->snap_ir;
  t->collecting = !t->collecting;
}

/* room for index i in a thread's array of n elements of size sz */
static void *grow(void *a, size_t *n, size_t i, size_t sz) {
  if (i < *n) return a;
  size_t m = *n ? *n : 64;
  while (m <= i) m *= 2;
  a = realloc(a, m * sz);
  if (!a) abort();
  memset((char *)a + *n * sz, 0, (m - *n) * sz);
  *n = m;
  return a;
}

static EdgeCost *edge_cost(Thread *t, uint32_t eidx) {
  if (eidx >= t->nec) t->ec = grow(t->ec, &t->nec, eidx, sizeof *t->ec);
  return &t->ec[eidx];
}

/* the thread's state (its stack empty until its first edge) */
static Thread *thread_get(unsigned vcpu) {
  if (vcpu < cg.nthreads && cg.threads[vcpu]) return cg.threads[vcpu];
  if (vcpu >= cg.nthreads) cg.threads = grow(cg.threads, &cg.nthreads, vcpu, sizeof *cg.threads);
  Thread *t = xcalloc(1, sizeof *t);
  t->vcpu = vcpu;
  t->collecting = cg.o.collect_atstart;
  cg.threads[vcpu] = t;
  return t;
}

static int sym_cmp(const void *a, const void *b) {
  const Sym *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  return strcmp(x->name, y->name); /* aliases: the same one every run */
}

static void add_sym(void *user, const char *name, uint64_t addr, uint64_t size) {
  Module *m = user;
  if (m->nsyms % 256 == 0) {
    m->syms = realloc(m->syms, (m->nsyms + 256) * sizeof *m->syms);
    if (!m->syms) abort();
  }
  m->syms[m->nsyms++] = (Sym){addr, size, strdup(name)};
}

/* the loaded range of the module's .plt from its section headers (ELF64 little-endian) */
static void read_plt(Module *m) {
  int fd = open(m->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  unsigned char eh[64];
  if (pread(fd, eh, sizeof eh, 0) == (ssize_t)sizeof eh && !memcmp(eh, "\177ELF\2\1", 6)) {
    uint64_t shoff;
    uint16_t shentsize, shnum, shstrndx;
    memcpy(&shoff, eh + 40, 8), memcpy(&shentsize, eh + 58, 2), memcpy(&shnum, eh + 60, 2), memcpy(&shstrndx, eh + 62, 2);
    unsigned char *sh = shnum && shentsize == 64 && shstrndx < shnum ? malloc((size_t)shnum * 64) : NULL;
    if (sh && pread(fd, sh, (size_t)shnum * 64, (off_t)shoff) == (ssize_t)shnum * 64) {
      uint64_t stroff, strsize;
      memcpy(&stroff, sh + shstrndx * 64 + 24, 8), memcpy(&strsize, sh + shstrndx * 64 + 32, 8);
      char *names = strsize < (1u << 24) ? malloc(strsize + 1) : NULL;
      if (names && pread(fd, names, strsize, (off_t)stroff) == (ssize_t)strsize) {
        names[strsize] = 0;
        for (unsigned i = 0; i < shnum; i++) {
          uint32_t name;
          uint64_t addr, size;
          memcpy(&name, sh + i * 64, 4), memcpy(&addr, sh + i * 64 + 16, 8), memcpy(&size, sh + i * 64 + 32, 8);
          if (name < strsize && !strcmp(names + name, ".plt") && addr) {
            m->plt_lo = m->bias + addr;
            m->plt_hi = m->bias + addr + size;
          }
        }
      }
      free(names);
    }
    free(sh);
  }
  close(fd);
}

static Module *module_of(const char *path, uint64_t bias) {
  for (size_t i = 0; i < cg.nmods; i++)
    if (!strcmp(cg.mods[i]->path, path) && cg.mods[i]->bias == bias) return cg.mods[i];
  Module *m = xcalloc(1, sizeof *m);
  m->path = strdup(path);
  m->bias = bias;
  kit_emu_module_functions(cg.emu, path, add_sym, m);
  for (size_t i = 0; i < m->nsyms; i++) m->syms[i].addr -= bias; /* link-time, as the lookups below take them */
  qsort(m->syms, m->nsyms, sizeof *m->syms, sym_cmp);
  read_plt(m);
  m->lines = kit_lines_load(path);
  cg.mods = realloc(cg.mods, (cg.nmods + 1) * sizeof *cg.mods);
  if (!cg.mods) abort();
  cg.mods[cg.nmods++] = m;
  return m;
}

/* the function holding link-time address a in m: [start, end) and its name;
 * code no symbol covers is one function per gap between symbols, named by
 * its address as callgrind names code without symbols */
static const char *fn_range(const Module *m, uint64_t a, uint64_t *start, uint64_t *end, char *buf, size_t bufsz) {
  size_t lo = 0, hi = m->nsyms;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->syms[mid].addr <= a) lo = mid + 1;
    else hi = mid;
  }
  /* lo: the first symbol above a; among those at or below, the last covering a */
  for (size_t i = lo; i-- > 0;) {
    const Sym *s = &m->syms[i];
    uint64_t e = s->size ? s->addr + s->size : (i + 1 < m->nsyms ? m->syms[i + 1].addr : UINT64_MAX);
    if (a < e) {
      size_t k = i;
      while (k > 0 && m->syms[k - 1].addr == s->addr) k--; /* the first alias in name order */
      *start = s->addr, *end = e;
      return m->syms[k].name;
    }
    if (i + 1 < lo && s->addr != m->syms[lo - 1].addr) break;
  }
  /* the gap: from the end of the symbol below to the next symbol */
  uint64_t gs = 0;
  for (size_t i = 0; i < lo; i++) {
    uint64_t e = m->syms[i].addr + m->syms[i].size;
    if (e <= a && e > gs) gs = e;
  }
  *start = gs;
  *end = lo < m->nsyms ? m->syms[lo].addr : UINT64_MAX;
  snprintf(buf, bufsz, "0x%016" PRIx64, gs);
  return buf;
}

/* pc's function, module and (from the module's own DWARF line table) file
 * and line */
static Module *module_of(const char *path, uint64_t bias);
static int symbolize(uint64_t pc, KitEmuSymbol *s) {
  int r = kit_emu_symbolize(cg.emu, pc, s);
  s->file = NULL, s->line = 0;
  if (r < 0 || !s->module) return r;
  Module *m = module_of(s->module, s->module_base);
  const char *file;
  unsigned line;
  if (kit_lines_find(m->lines, pc - m->bias, &file, &line)) s->file = intern(file), s->line = line;
  return r;
}

static Fn *new_fn(uint64_t key, const char *obj, const char *file, const char *name, uint64_t start, uint64_t end,
                  Module *m) {
  Fn *f = xcalloc(1, sizeof *f);
  f->id = kit_prof_fn(cg.prof, obj, file ? file : "???", name);
  f->idx = (uint32_t)cg.nfns;
  f->obj = intern(obj), f->file = intern(file ? file : "???"), f->name = intern(name);
  f->start = start, f->end = end, f->mod = m;
  for (unsigned i = 0; i < cg.o.ntoggle && !f->toggle; i++) f->toggle = fnmatch(cg.o.toggle[i], name, 0) == 0;
  map_put(&cg.fn_by_start, key, f);
  cg.fns = realloc(cg.fns, (cg.nfns + 1) * sizeof *cg.fns);
  if (!cg.fns) abort();
  cg.fns[cg.nfns++] = f;
  return f;
}

/* the function at pc (with its module's symbols, file from the DWARF of its
 * first instruction); sym: kit_emu_symbolize's answer for pc, its file and
 * line for the caller */
static Fn *fn_of(uint64_t pc, KitEmuSymbol *sym) {
  if (symbolize(pc, sym) < 0 || !sym->module) {
    /* code in no file: a function per entry point, by address */
    Fn *f = map_get(&cg.fn_by_start, pc | 1ull << 63);
    if (f) return f;
    char name[32];
    snprintf(name, sizeof name, "0x%016" PRIx64, pc);
    return new_fn(pc | 1ull << 63, "???", NULL, name, pc, pc + 1, NULL);
  }
  const char *file = sym->file ? intern(sym->file) : NULL;
  unsigned line = sym->line;
  Module *m = module_of(sym->module, sym->module_base);
  uint64_t start, end;
  char buf[32];
  const char *name = fn_range(m, pc - m->bias, &start, &end, buf, sizeof buf);
  if (m->plt_lo <= pc && pc < m->plt_hi) { /* the PLT: one function, named by its address */
    start = m->plt_lo - m->bias, end = m->plt_hi - m->bias;
    snprintf(buf, sizeof buf, "0x%016" PRIx64, start);
    name = buf;
  }
  start += m->bias;
  end = end == UINT64_MAX ? UINT64_MAX : end + m->bias;
  Fn *f = map_get(&cg.fn_by_start, start);
  if (!f) {
    char *namecopy = strdup(name);
    KitEmuSymbol s0;
    const char *ffile = NULL;
    if (symbolize(start, &s0) == 0 && s0.file) ffile = intern(s0.file);
    f = new_fn(start, m->path, ffile ? ffile : file, namecopy, start, end, m);
    free(namecopy);
    /* kit_emu_symbolize's strings live until its next call: pc's again */
    symbolize(pc, sym);
  }
  sym->file = file;
  sym->line = line;
  return f;
}

/* the function at a runtime target (cached by pc) */
static Fn *fn_at(uint64_t pc) {
  Fn *f = map_get(&cg.fn_at_pc, pc | 1);
  if (f && f->start <= pc && pc < f->end) return f;
  KitEmuSymbol s;
  f = fn_of(pc, &s);
  map_put(&cg.fn_at_pc, pc | 1, f);
  return f;
}

static bool in_plt(uint64_t pc, const Fn *f) { return f->mod && f->mod->plt_lo <= pc && pc < f->mod->plt_hi; }

static Pos *pos_of(Fn *f, const char *file, uint32_t line, uint64_t addr) {
  if (!cg.o.dump_line) line = 0, file = NULL;
  if (!cg.o.dump_instr) addr = 0;
  uint64_t key = mix64((uint64_t)(uintptr_t)f ^ mix64((uint64_t)(uintptr_t)file ^ mix64(((uint64_t)line << 1) ^ addr)));
  key |= 1;
  for (;; key += 2) {
    Pos *p = map_get(&cg.pos_by_key, key);
    if (!p) break;
    if (p->fn == f && p->file == file && p->line == line && p->addr == addr) return p;
  }
  Pos *p = xcalloc(1, sizeof *p);
  *p = (Pos){.fn = f, .file = file, .line = line, .addr = addr, .count = new_counter(), .idx = (uint32_t)cg.npos};
  map_put(&cg.pos_by_key, key, p);
  if (cg.npos % 1024 == 0) {
    cg.pos = realloc(cg.pos, (cg.npos + 1024) * sizeof *cg.pos);
    if (!cg.pos) abort();
  }
  cg.pos[cg.npos++] = p;
  return p;
}

static Edge *edge_of(Fn *caller, uint32_t line, uint64_t addr, Fn *callee) {
  if (!cg.o.dump_line) line = 0;
  if (!cg.o.dump_instr) addr = 0;
  uint64_t key = mix64((uint64_t)(uintptr_t)caller ^ mix64((uint64_t)(uintptr_t)callee ^ mix64(((uint64_t)line << 1) ^ addr)));
  key |= 1;
  for (;; key += 2) {
    Edge *e = map_get(&cg.edge_by_key, key);
    if (!e) break;
    if (e->caller == caller && e->callee == callee && e->line == line && e->addr == addr) return e;
  }
  Edge *e = xcalloc(1, sizeof *e);
  *e = (Edge){.caller = caller, .callee = callee, .line = line, .addr = addr, .idx = (uint32_t)cg.nedges};
  map_put(&cg.edge_by_key, key, e);
  if (cg.nedges % 256 == 0) {
    cg.edges = realloc(cg.edges, (cg.nedges + 256) * sizeof *cg.edges);
    if (!cg.edges) abort();
  }
  cg.edges[cg.nedges++] = e;
  return e;
}

/* ---- execution: the shadow stack --------------------------------------------------------------- */

static inline void now_costs(Thread *t, unsigned vcpu, uint64_t *c) {
  static const uint64_t none;
  if (!t->ir) t->ir = kit_emu_scoreboard_entry(cg.board, vcpu); /* at a fixed address */
  if (!t->ir) t->ir = &none; /* a thread past the scoreboard */
  if (cg.nev > 1) memcpy(c, t->cache, sizeof t->cache);
  c[EV_IR] = (t->collecting ? *t->ir : t->snap_ir) - t->excl_ir;
}

static void node_add(KitProfNode n, uint64_t ir) {
  if (n >= cg.node_cap) {
    size_t cap = cg.node_cap ? cg.node_cap : 1024;
    while (cap <= n) cap *= 2;
    cg.node_ir = realloc(cg.node_ir, cap * sizeof *cg.node_ir);
    if (!cg.node_ir) abort();
    memset(cg.node_ir + cg.node_cap, 0, (cap - cg.node_cap) * sizeof *cg.node_ir);
    cg.node_cap = cap;
  }
  cg.node_ir[n] += ir;
}

/* the current context ran until now: its self cost in the tree */
static void settle(Thread *t, const uint64_t *now) {
  if (!cg.tree) return;
  if (t->n) node_add(t->f[t->n - 1].node, now[EV_IR] - t->last_ir);
  t->last_ir = now[EV_IR];
}

static void push(Thread *t, Edge *e, Fn *callee, uint64_t ret, uint64_t sp, const uint64_t *now, bool tail) {
  if (t->n == MAX_DEPTH) return; /* runaway: the costs stay with the deepest frame */
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 256;
    t->f = realloc(t->f, t->cap * sizeof *t->f);
    if (!t->f) abort();
  }
  KitProfNode node = 0;
  if ((cg.tree || cg.toggling) && callee->idx >= t->nactive) {
    size_t n = t->nactive;
    t->active = grow(t->active, &n, callee->idx, sizeof *t->active);
    t->active_node = grow(t->active_node, &t->nactive, callee->idx, sizeof *t->active_node);
  }
  if (!cg.tree) {
    /* no folded stacks or flame graph asked for: no calling-context tree */
  } else if (t->active[callee->idx]) { /* recursion: the tree folds it into the outermost frame */
    node = t->active_node[callee->idx];
  } else {
    KitProfNode parent = t->n ? t->f[t->n - 1].node : 0;
    if (e && e->last_node && e->last_parent == parent) {
      node = e->last_node;
    } else {
      node = kit_prof_enter(cg.prof, parent, callee->id, e ? e->line : 0);
      if (e) e->last_parent = parent, e->last_node = node;
    }
    t->active_node[callee->idx] = node;
  }
  bool toggles = cg.toggling && callee->toggle && !t->active[callee->idx]; /* its outermost frame toggles, not recursion */
  if (cg.tree || cg.toggling) t->active[callee->idx]++; /* only they ask (a store fewer per call) */
  if (toggles) toggle_collection(t);
  Frame *f = &t->f[t->n++];
  f->fn = callee, f->edge = e, f->node = node, f->eidx = e ? e->idx : 0, f->ret = ret, f->sp = sp;
  f->tail = tail, f->signal = false, f->toggled = toggles, f->counted = t->collecting;
  f->enter_ir = now[EV_IR];
  if (cg.nev > 1) {
    t->fev = grow(t->fev, &t->nfev, t->n - 1, sizeof *t->fev);
    memcpy(t->fev[t->n - 1], now, cg.nev * sizeof *now);
  }
}

static void pop(Thread *t, const uint64_t *now) {
  Frame *f = &t->f[--t->n];
  if (t->resolve_at > t->n) t->resolve_at = 0; /* the resolver's frame is gone */
  if (f->edge) { /* the edge's figures, the thread's, touched once per call */
    EdgeCost *ec = edge_cost(t, f->eidx);
    ec->calls += f->counted;
    ec->ir += now[EV_IR] - f->enter_ir;
    if (cg.nev > 1) {
      if (f->eidx >= t->nec_ev) t->ec_ev = grow(t->ec_ev, &t->nec_ev, f->eidx, sizeof *t->ec_ev);
      for (unsigned v = EV_DR; v < cg.nev; v++) t->ec_ev[f->eidx][v] += now[v] - t->fev[t->n][v];
    }
  }
  if (cg.tree || cg.toggling) t->active[f->fn->idx]--;
  if (f->toggled) toggle_collection(t);
}

/* pop the top frame and the frames it replaced by tail calls */
static void pop_call(Thread *t, const uint64_t *now) {
  bool tail;
  do {
    tail = t->f[t->n - 1].tail;
    pop(t, now);
  } while (tail && t->n > 1);
}

/* the thread's state and its costs now; its first frame is the function
 * it is in when first seen */
static inline Thread *thread_of(unsigned vcpu, Fn *here, uint64_t *now) {
  Thread *t = vcpu < cg.nthreads ? cg.threads[vcpu] : NULL;
  if (__builtin_expect(t && t->n && cg.nev == 1 && t->collecting, 1)) { /* the usual case, inline */
    now[EV_IR] = *t->ir - t->excl_ir;
    return t;
  }
  if (!t) t = thread_get(vcpu);
  now_costs(t, vcpu, now);
  if (!t->n) push(t, NULL, here, 0, UINT64_MAX, now, false);
  return t;
}

/* the link-time address of pc in b's function's module */
static uint64_t link_addr(const Blk *b, uint64_t pc) { return pc - (b->fn->mod ? b->fn->mod->bias : 0); }

static void call(Thread *t, Blk *b, uint64_t to, uint64_t ret, uint64_t sp, const uint64_t *now) {
  Edge *e = b->last_edge;
  if (!e || b->last_to != to) {
    e = edge_of(b->fn, b->line, link_addr(b, ret - b->size), fn_at(to));
    b->last_to = to, b->last_edge = e, b->last_callee = e->callee, b->last_eidx = e->idx;
  }
  settle(t, now);
  push(t, e, e->callee, ret, sp, now, false);
}

__attribute__((noinline)) static void on_edge(KitEmu *emu, unsigned vcpu, uint64_t from, uint64_t to,
                                             KitEmuEdge kind, void *user) {
  Blk *b = user;
  if (b->jump && to == b->jump->target) {
    Thread *t = thread_get(vcpu);
    if (t->collecting) {
      if (b->jump->idx >= t->njumped) t->jumped = grow(t->jumped, &t->njumped, b->jump->idx, sizeof *t->jumped);
      t->jumped[b->jump->idx]++;
    }
  }
  if (b->kind == BLK_COND) return; /* a branch inside the function, watched for --collect-jumps */
  /* most jumps stay in the function (switch tables) */
  if ((kind == KIT_EMU_EDGE_JUMP || kind == KIT_EMU_EDGE_COND) && to - b->fn_start < b->fn_len) return;
  uint64_t now[MAX_EV];
  Thread *t = thread_of(vcpu, b->fn, now);
  Frame *top = &t->f[t->n - 1];
  if (kind == KIT_EMU_EDGE_CALL) {
    uint64_t sp = kit_emu_reg_read(emu, cg.sp_reg);
    if (b->last_to == to && b->last_edge) { /* the call site's callee as last time (never a PLT stub) */
      settle(t, now);
      push(t, b->last_edge, b->last_callee, from + b->size, sp, now, false);
      return;
    }
    Fn *callee = fn_at(to);
    if (in_plt(to, callee)) { /* the stub's cost is the caller's; its jump is the call */
      t->pending = true, t->pending_blk = b, t->pending_to = to, t->pending_ret = from + b->size, t->pending_sp = sp;
      return;
    }
    call(t, b, to, from + b->size, sp, now);
    return;
  }
  if (kind == KIT_EMU_EDGE_RET) {
    t->pending = false;
    settle(t, now);
    if (t->n > 1 && top->ret == to) { /* the common case: the return of the top frame */
      pop_call(t, now);
      return;
    }
    uint64_t sp = kit_emu_reg_read(emu, cg.sp_reg);
    /* frames called from below the stack pointer returned to are gone (longjmp) */
    while (t->n > 1 && t->f[t->n - 1].sp < sp) pop(t, now);
    if (t->n > 1 && t->f[t->n - 1].ret == to) {
      pop_call(t, now);
      return;
    }
    /* a return with no call (longjmp, also out of a signal handler): unwind
     * to the frame of the function it returns into whose callee was called
     * at this stack pointer (not a deeper instance of it) */
    Fn *dest = fn_at(to);
    for (size_t k = t->n; k-- > 0;)
      if (t->f[k].fn == dest && (k + 1 == t->n || t->f[k + 1].sp >= sp)) {
        while (t->n > k + 1) pop(t, now);
        return;
      }
    Frame *cur = &t->f[t->n - 1];
    if (cur->signal || cur->fn == dest) return; /* a handler returning to its trampoline */
    push(t, edge_of(cur->fn, 0, 0, dest), dest, cur->ret, cur->sp, now, true);
    return;
  }
  /* a jump or branch: a call when it leaves the function */
  if (to >= top->fn->start && to < top->fn->end) return;
  /* the block's target, callee and edge as last time (a jump block's: a
   * call block keeps its call's) */
  if (b->last_to != to || !b->last_callee) b->last_to = to, b->last_callee = fn_at(to), b->last_edge = NULL;
  Fn *dest = b->last_callee;
  if (dest == top->fn) return;
  if (t->pending) { /* the PLT stub's jump: the call from the caller of the stub */
    if (in_plt(to, dest)) return; /* to the resolver's stub first */
    t->pending = false;
    call(t, t->pending_blk, to, t->pending_ret, t->pending_sp, now);
    /* a jump out of the PLT from before the stub: from its first entry
     * (lazy binding, the stub jumped there), to ld.so's resolver, a call
     * as callgrind shows it */
    if (from < t->pending_to) {
      t->resolve_at = t->n, t->resolve_blk = t->pending_blk, t->resolve_ret = t->pending_ret, t->resolve_sp = t->pending_sp;
    }
    return;
  }
  if (t->resolve_at && t->resolve_at == t->n) {
    /* the resolver jumps to what it resolved: its frame returns and the
     * stub's caller calls the function (callgrind's pop-on-jump) */
    settle(t, now);
    pop(t, now);
    t->resolve_at = 0;
    call(t, t->resolve_blk, to, t->resolve_ret, t->resolve_sp, now);
    return;
  }
  settle(t, now);
  if (top->tail && t->n > 1 && t->f[t->n - 2].fn == dest) { /* back from a split-off part (f.cold) */
    pop(t, now);
    return;
  }
  if (!b->last_edge) b->last_edge = edge_of(b->fn, b->line, link_addr(b, from), dest);
  push(t, b->last_edge, dest, top->ret, top->sp, now, true);
}

/* A call block's callback. The usual call, with the general path's
 * work left out (cg.fast: Ir only, no tree, no toggling, so no settle() and
 * no recursion count): from a call site whose callee is the one of last
 * time, on a thread whose stack has begun and has room. */
static void on_call(KitEmu *emu, unsigned vcpu, uint64_t from, uint64_t to, KitEmuEdge kind, void *user) {
  Blk *b = user;
  Thread *t = vcpu < cg.nthreads ? cg.threads[vcpu] : NULL;
  if (__builtin_expect(!(cg.fast && t && t->n && t->n < t->cap && b->last_to == to && b->last_edge), 0)) {
    on_edge(emu, vcpu, from, to, kind, user);
    return;
  }
  Frame *f = &t->f[t->n++]; /* as push() writes it */
  f->fn = b->last_callee, f->edge = b->last_edge, f->node = 0, f->eidx = b->last_eidx, f->ret = from + b->size;
  f->sp = kit_emu_reg_read(emu, cg.sp_reg);
  f->tail = false, f->signal = false, f->toggled = false, f->counted = t->collecting;
  f->enter_ir = *t->ir - t->excl_ir;
}

/* A return block's callback. The usual return, to the top frame, which no
 * tail call replaced; pop() without what cg.fast leaves out. */
static void on_ret(KitEmu *emu, unsigned vcpu, uint64_t from, uint64_t to, KitEmuEdge kind, void *user) {
  Thread *t = vcpu < cg.nthreads ? cg.threads[vcpu] : NULL;
  Frame *f = t && t->n > 1 ? &t->f[t->n - 1] : NULL;
  if (__builtin_expect(!(cg.fast && f && f->ret == to && !f->tail && f->edge), 0)) {
    on_edge(emu, vcpu, from, to, kind, user);
    return;
  }
  t->pending = false;
  if (t->resolve_at > --t->n) t->resolve_at = 0;
  EdgeCost *ec = edge_cost(t, f->eidx);
  ec->calls += f->counted;
  ec->ir += *t->ir - t->excl_ir - f->enter_ir;
}

static void on_signal(KitEmu *emu, unsigned vcpu, const KitEmuSignal *s, void *user) {
  (void)user;
  if (s->fatal) return;
  Fn *handler = fn_at(s->handler);
  uint64_t now[MAX_EV];
  Thread *t = thread_of(vcpu, fn_at(s->pc), now);
  settle(t, now);
  Frame *top = &t->f[t->n - 1];
  KitEmuSymbol sym;
  Fn *at = fn_of(s->pc, &sym);
  Edge *e = edge_of(top->fn, at == top->fn ? sym.line : 0, s->pc - (top->fn->mod ? top->fn->mod->bias : 0), handler);
  push(t, e, handler, 0, kit_emu_reg_read(emu, cg.sp_reg), now, false);
  t->f[t->n - 1].signal = true;
}

static bool on_syscall(KitEmu *emu, unsigned vcpu, KitEmuSyscall *sc, int64_t *ret, void *user) {
  (void)emu, (void)ret, (void)user;
  if (sc->nr != cg.sigreturn_nr) return false;
  Thread *t = thread_at(vcpu);
  if (!t) return false;
  size_t k = t->n;
  while (k > 1 && !t->f[k - 1].signal) k--;
  if (k <= 1) return false;
  uint64_t now[MAX_EV];
  now_costs(t, vcpu, now);
  settle(t, now);
  while (t->n >= k) pop(t, now);
  return false;
}

/* ---- execution: the cache model ------------------------------------------------------------------ */

static void cache_add(Thread *t, Pos *p, const KitCacheCost *c) {
  const uint64_t v[MAX_EV] = {0, c->dr, c->dw, c->i1mr, c->d1mr, c->d1mw, c->ilmr, c->dlmr, c->dlmw};
  if (!t->collecting) return; /* the model runs on, its events not collected */
  if (p->idx >= t->npcache) t->pcache = grow(t->pcache, &t->npcache, p->idx, sizeof *t->pcache);
  for (unsigned e = EV_DR; e < MAX_EV; e++) t->pcache[p->idx][e] += v[e], t->cache[e] += v[e];
}

static Thread *cache_thread(unsigned vcpu) { return thread_get(vcpu); }

static void on_fetch(KitEmu *emu, unsigned vcpu, void *user) {
  (void)emu;
  Fetch *f = user;
  Thread *t = cache_thread(vcpu);
  for (uint32_t i = 0; i < f->n; i++) {
    KitCacheCost c = {0};
    kit_cache_fetch(&cg.sim, f->insn[i].pc, f->insn[i].size, &c);
    cache_add(t, f->insn[i].pos, &c);
  }
}

static KitEmuVerdict on_mem(KitEmu *emu, unsigned vcpu, const KitEmuMemAccess *a, void *user) {
  (void)emu;
  KitCacheCost c = {0};
  if (a->is_store) kit_cache_write(&cg.sim, a->addr, a->size, &c);
  else kit_cache_read(&cg.sim, a->addr, a->size, &c);
  cache_add(cache_thread(vcpu), user, &c);
  return KIT_EMU_ALLOW;
}

/* ---- translation --------------------------------------------------------------------------------- */

/* the blocks' records, side by side (a call site's is read at every call) */
static Blk *new_blk(void) {
  static Blk *arena;
  static size_t used, cap;
  if (used == cap) {
    cap = 4096, used = 0;
    arena = aligned_alloc(_Alignof(Blk), cap * sizeof *arena); /* calloc aligns to 16 only */
    if (!arena) abort();
    memset(arena, 0, cap * sizeof *arena);
  }
  return &arena[used++];
}

/* --collect-jumps=yes: the jump at in (inside fn, to a line of fn's own
 * file) and its counter; NULL for one the file cannot show */
static Jump *jump_of(KitEmuInsn *in, Fn *fn, const KitEmuSymbol *at) {
  uint64_t pc = kit_emu_insn_pc(in), target = kit_emu_insn_target(in);
  unsigned cls = kit_emu_insn_class(in);
  if (!(cls & (KIT_EMU_INSN_JUMP | KIT_EMU_INSN_BRANCH)) || (cls & (KIT_EMU_INSN_CALL | KIT_EMU_INSN_RET)) || !target ||
      target < fn->start || target >= fn->end)
    return NULL;
  Jump *j = map_get(&cg.jump_by_pc, pc | 1);
  if (j) return j;
  uint32_t line = at->line;
  const char *file = at->file;
  KitEmuSymbol ts;
  if (fn_of(target, &ts) != fn || ts.file != file || !cg.o.dump_line) return NULL;
  uint64_t bias = fn->mod ? fn->mod->bias : 0;
  j = xcalloc(1, sizeof *j);
  *j = (Jump){.fn = fn, .line = line, .to_line = ts.line, .addr = pc - bias, .to_addr = target - bias, .target = target,
              .exe = new_counter(), .idx = (uint32_t)cg.njumps, .cond = (cls & KIT_EMU_INSN_BRANCH) != 0};
  map_put(&cg.jump_by_pc, pc | 1, j);
  if (cg.njumps % 256 == 0) {
    cg.jumps = realloc(cg.jumps, (cg.njumps + 256) * sizeof *cg.jumps);
    if (!cg.jumps) abort();
  }
  cg.jumps[cg.njumps++] = j;
  return j;
}

static bool is_fn_start(void *user, uint64_t pc) {
  (void)user;
  void *v = map_get(&cg.starts, pc | 1);
  if (v) return v == (void *)2;
  KitEmuSymbol s;
  bool start = kit_emu_symbolize(cg.emu, pc, &s) == 0 && s.function && s.offset == 0;
  map_put(&cg.starts, pc | 1, (void *)(uintptr_t)(start ? 2 : 1));
  return start;
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  size_t n = kit_emu_tb_n_insns(tb);
  KitEmuU64 total = kit_emu_u64_per_thread(cg.board, 0);
  Fetch *fetch = NULL;
  if (cg.o.cache_sim) {
    fetch = xcalloc(1, sizeof *fetch + n * sizeof fetch->insn[0]);
    fetch->n = (uint32_t)n;
  }
  Fn *fn = NULL;
  Pos *pos = NULL;
  KitEmuSymbol sym = {0};
  Jump *jump = NULL;
  for (size_t i = 0; i < n; i++) {
    KitEmuInsn *in = kit_emu_tb_insn(tb, i);
    uint64_t pc = kit_emu_insn_pc(in);
    fn = fn_of(pc, &sym);
    pos = pos_of(fn, sym.file, sym.line, pc - (fn->mod ? fn->mod->bias : 0));
    kit_emu_insn_inline(in, KIT_EMU_INLINE_ADD, counter_u64(pos->count), 1);
    kit_emu_insn_inline(in, KIT_EMU_INLINE_ADD, total, 1);
    if (cg.o.collect_jumps && (jump = jump_of(in, fn, &sym)))
      kit_emu_insn_inline(in, KIT_EMU_INLINE_ADD, counter_u64(jump->exe), 1);
    if (fetch) {
      fetch->insn[i].pc = pc, fetch->insn[i].pos = pos, fetch->insn[i].size = (uint8_t)kit_emu_insn_size(in);
      if (kit_emu_insn_class(in) & (KIT_EMU_INSN_LOAD | KIT_EMU_INSN_STORE | KIT_EMU_INSN_ATOMIC))
        kit_emu_insn_mem_cb(in, on_mem, KIT_EMU_MEM_RW, pos);
    }
  }
  if (fetch) kit_emu_tb_exec_cb(tb, on_fetch, fetch);
  if (!n) return;
  KitEmuInsn *last = kit_emu_tb_insn(tb, n - 1);
  unsigned cls = kit_emu_insn_class(last);
  uint64_t pc = kit_emu_insn_pc(last), target = kit_emu_insn_target(last);
  uint8_t kind = 0;
  if (cls & KIT_EMU_INSN_CALL) kind = BLK_CALL;
  else if (cls & KIT_EMU_INSN_RET) kind = BLK_RET;
  else if (cls & (KIT_EMU_INSN_JUMP | KIT_EMU_INSN_BRANCH)) {
    /* only a jump that may leave the function: indirect, or to another one */
    if ((cls & KIT_EMU_INSN_INDIRECT) || !target || target < fn->start || target >= fn->end || in_plt(pc, fn))
      kind = BLK_JUMP;
    else if (jump && jump->cond)
      kind = BLK_COND; /* whether it is taken: a callback */
  }
  if (!kind) return;
  Blk *b = new_blk();
  *b = (Blk){.fn = fn, .fn_start = fn->start, .fn_len = fn->end - fn->start > UINT32_MAX ? UINT32_MAX : (uint32_t)(fn->end - fn->start),
             .line = cg.o.dump_line ? sym.line : 0, .size = (uint8_t)kit_emu_insn_size(last), .kind = kind, .jump = jump && jump->cond ? jump : NULL};
  if (kind == BLK_JUMP && !b->jump) /* most stay in the function (switch tables): no call for those */
    kit_emu_tb_edge_cb_outside(tb, on_edge, b->fn_start, b->fn_len, b);
  else
    kit_emu_tb_edge_cb(tb, kind == BLK_CALL ? on_call : kind == BLK_RET ? on_ret : on_edge, b);
}

/* ---- the files, at exit -------------------------------------------------------------------------- */

/* "%p" in a file name: the pid, as valgrind expands it */
static void expand_name(const char *pat, char *out, size_t outsz) {
  size_t k = 0;
  for (const char *s = pat; *s && k + 24 < outsz; s++) {
    if (s[0] == '%' && s[1] == 'p') {
      k += (size_t)snprintf(out + k, outsz - k, "%ld", (long)getpid());
      s++;
    } else {
      out[k++] = *s;
    }
  }
  out[k] = 0;
}

/* the guest's command line: kit-emu's own after its options */
static void guest_cmd(char *out, size_t outsz) {
  out[0] = 0;
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[8192];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return;
  buf[n] = 0;
  char *argv[512];
  int argc = 0;
  for (char *p = buf; p < buf + n && argc < 512; p += strlen(p) + 1) argv[argc++] = p;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--")) {
      i++;
      break;
    }
    if ((!strcmp(argv[i], "-L") || !strcmp(argv[i], "-0") || !strcmp(argv[i], "-d")) && i + 1 < argc) i++;
  }
  size_t k = 0;
  for (; i < argc && k < outsz; i++) k += (size_t)snprintf(out + k, outsz - k, "%s%s", k ? " " : "", argv[i]);
}

static int write_file(const char *path, int (*wr)(FILE *out)) {
  FILE *out = fopen(path, "w");
  if (!out) {
    fprintf(cg.err, "kit-emu: callgrind: cannot write %s: %m\n", path);
    return -1;
  }
  int r = wr(out);
  if (fclose(out) || r) {
    fprintf(cg.err, "kit-emu: callgrind: error writing %s\n", path);
    return -1;
  }
  return 0;
}

/* what the file being written holds: every thread's costs (the calling-
 * context tree's too), or with --separate-threads=yes one thread's */
static struct {
  KitProf *prof;
  unsigned thread; /* 1 + vcpu, as Valgrind numbers threads; 0: all */
} wr;

static int wr_callgrind(FILE *out) {
  char cmd[4096], geom[3][128];
  guest_cmd(cmd, sizeof cmd);
  const char *desc[5] = {NULL};
  if (cg.o.cache_sim) {
    const KitCacheGeom *g[3] = {&cg.o.i1, &cg.o.d1, &cg.o.ll};
    const char *nm[3] = {"I1", "D1", "LL"};
    for (int i = 0; i < 3; i++) {
      snprintf(geom[i], sizeof geom[i], "%s cache: %" PRIu64 " B, %u B, %u-way associative", nm[i], g[i]->size,
               g[i]->line, g[i]->assoc);
      desc[i] = geom[i];
    }
  }
  KitProfHeader h = {.creator = "kit-emu " KIT_VERSION " callgrind", .cmd = cmd, .pid = (long)getpid(), .desc = desc,
                     .thread = wr.thread};
  return kit_prof_write_callgrind(wr.prof, out, &h);
}

static int wr_folded(FILE *out) { return kit_prof_write_folded(cg.prof, out, EV_IR); }

static int wr_flame(FILE *out) {
  char cmd[4096], title[4200];
  guest_cmd(cmd, sizeof cmd);
  snprintf(title, sizeof title, "Flame Graph: %s", cmd);
  return kit_prof_write_flamegraph(cg.prof, out, EV_IR, title);
}

/* the calls still running on thread t end now (callgrind dumps them the
 * same way); at its exit, or at the end of the process */
static void finish_thread(Thread *t) {
  if (!t->n) return;
  uint64_t now[MAX_EV];
  now_costs(t, t->vcpu, now);
  settle(t, now);
  while (t->n) pop(t, now);
  if (!t->collecting) toggle_collection(t); /* what ran since it stopped is not collected */
}

static void on_thread_exit(KitEmu *emu, unsigned vcpu, void *user) {
  (void)emu, (void)user;
  Thread *t = thread_at(vcpu);
  if (t) finish_thread(t);
}

/* the function's id in prof (cg.prof's own, or the same triple's in a thread's) */
static KitProfFn fn_id(KitProf *prof, const Fn *f) {
  return prof == cg.prof ? f->id : kit_prof_fn(prof, f->obj, f->file, f->name);
}

/* thread vcpu's figures (every thread's with all) into prof */
static void add_figures(KitProf *prof, unsigned vcpu, bool all) {
  unsigned lo = all ? 0 : vcpu, hi = all ? kit_emu_n_threads(cg.emu) : vcpu + 1;
  for (size_t i = 0; i < cg.npos; i++) {
    Pos *p = cg.pos[i];
    uint64_t c[MAX_EV] = {0};
    for (unsigned v = lo; v < hi; v++) {
      c[EV_IR] += collected(p->count, v);
      Thread *t = thread_at(v);
      if (t && p->idx < t->npcache)
        for (unsigned e = EV_DR; e < MAX_EV; e++) c[e] += t->pcache[p->idx][e];
    }
    bool any = false;
    for (unsigned e = 0; e < cg.nev; e++) any |= c[e] != 0;
    if (any) kit_prof_fn_cost(prof, fn_id(prof, p->fn), p->file, p->line, p->addr, c);
  }
  for (size_t i = 0; i < cg.nedges; i++) {
    Edge *e = cg.edges[i];
    uint64_t calls = 0, incl[MAX_EV] = {0};
    for (unsigned v = lo; v < hi; v++) {
      Thread *t = thread_at(v);
      if (!t || e->idx >= t->nec) continue;
      calls += t->ec[e->idx].calls;
      incl[EV_IR] += t->ec[e->idx].ir;
      if (e->idx < t->nec_ev)
        for (unsigned k = EV_DR; k < cg.nev; k++) incl[k] += t->ec_ev[e->idx][k];
    }
    if (calls) kit_prof_fn_call(prof, fn_id(prof, e->caller), e->line, e->addr, fn_id(prof, e->callee), calls, incl);
  }
  for (size_t i = 0; i < cg.njumps; i++) {
    Jump *j = cg.jumps[i];
    uint64_t exe = 0, jumped = 0;
    for (unsigned v = lo; v < hi; v++) {
      exe += collected(j->exe, v);
      Thread *t = thread_at(v);
      if (t && j->idx < t->njumped) jumped += t->jumped[j->idx];
    }
    if (exe && (!j->cond || jumped))
      kit_prof_fn_jump(prof, fn_id(prof, j->fn), j->line, j->addr, j->to_line, j->to_addr, j->cond, exe, j->cond ? jumped : exe);
  }
}

static void on_exit_write(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status, (void)user;
  for (size_t v = 0; v < cg.nthreads; v++)
    if (cg.threads[v]) finish_thread(cg.threads[v]);
  if (cg.out_of_slots)
    fprintf(cg.err, "kit-emu: callgrind: more than %u source positions: the costs of the rest are not counted\n",
            (unsigned)(MAX_CHUNKS * SLOTS_PER_CHUNK));
  for (size_t n = 1; n < cg.node_cap; n++) {
    uint64_t c[MAX_EV] = {cg.node_ir[n]};
    if (c[0]) kit_prof_cost(cg.prof, (KitProfNode)n, NULL, 0, c);
  }
  char path[4200];
  expand_name(cg.o.out_file, path, sizeof path);
  if (!cg.o.separate_threads) {
    add_figures(cg.prof, 0, true);
    wr.prof = cg.prof, wr.thread = 0;
    write_file(path, wr_callgrind);
  } else {
    /* a file per thread, named as Valgrind names them: the name and "-01"
     * for its thread 1 (our vcpu 0) */
    for (unsigned v = 0, n = kit_emu_n_threads(cg.emu); v < n; v++) {
      KitProf *p = kit_prof_new(event_names, cg.nev);
      if (!p) abort();
      kit_prof_set_instr_positions(p, cg.o.dump_instr);
      add_figures(p, v, false);
      char tpath[4300];
      snprintf(tpath, sizeof tpath, "%s-%02u", path, v + 1);
      wr.prof = p, wr.thread = v + 1;
      write_file(tpath, wr_callgrind);
      kit_prof_free(p);
    }
  }
  if (cg.o.folded[0]) expand_name(cg.o.folded, path, sizeof path), write_file(path, wr_folded);
  if (cg.o.flame[0]) expand_name(cg.o.flame, path, sizeof path), write_file(path, wr_flame);
}

/* ---- options --------------------------------------------------------------------------------------- */

static int yes_no(const char *opt, const char *v, bool *out) {
  if (!strcmp(v, "yes")) *out = true;
  else if (!strcmp(v, "no")) *out = false;
  else {
    fprintf(cg.err, "kit-emu: callgrind: %s takes yes or no, not '%s'\n", opt, v);
    return -1;
  }
  return 0;
}

static int parse_cache(const char *opt, const char *v, KitCacheGeom *g) {
  char msg[256];
  KitCache *c;
  if (kit_cache_parse(v, g) < 0 || !(c = kit_cache_new(*g, msg, sizeof msg))) {
    fprintf(cg.err, "kit-emu: callgrind: %s=%s: %s\n", opt, v,
            kit_cache_parse(v, g) < 0 ? "takes size,associativity,line_size" : msg);
    return -1;
  }
  kit_cache_free(c);
  return 0;
}

static int parse_args(const char *args, Options *o) {
  snprintf(o->out_file, sizeof o->out_file, "callgrind.out.%%p");
  o->dump_line = true;
  o->collect_atstart = true;
  /* cachegrind's defaults when it cannot ask the host */
  o->i1 = (KitCacheGeom){32768, 8, 64}, o->d1 = (KitCacheGeom){32768, 8, 64}, o->ll = (KitCacheGeom){8388608, 16, 64};
  char *copy = strdup(args ? args : ""), *save = NULL;
  int rc = 0;
  for (char *a = strtok_r(copy, ",", &save); a && !rc; a = strtok_r(NULL, ",", &save)) {
    /* --I1=size,assoc,line spans three comma-separated pieces */
    char geom[128];
    if (!strncmp(a, "--I1=", 5) || !strncmp(a, "--D1=", 5) || !strncmp(a, "--LL=", 5)) {
      char *b = strtok_r(NULL, ",", &save), *c = b ? strtok_r(NULL, ",", &save) : NULL;
      snprintf(geom, sizeof geom, "%s,%s,%s", a + 5, b ? b : "", c ? c : "");
      KitCacheGeom *g = a[2] == 'I' ? &o->i1 : a[2] == 'D' ? &o->d1 : &o->ll;
      char opt[5] = {a[0], a[1], a[2], a[3], 0};
      rc = parse_cache(opt, geom, g);
      continue;
    }
    char *eq = strchr(a, '=');
    const char *v = eq ? eq + 1 : "";
    size_t kl = eq ? (size_t)(eq - a) : strlen(a);
#define IS(name) (kl == sizeof(name) - 1 && !strncmp(a, name, kl))
    if ((IS("--callgrind-out-file") || IS("--folded-out") || IS("--flamegraph")) && (!eq || !*v)) {
      fprintf(cg.err, "kit-emu: callgrind: %.*s takes a file name (%.*s=F)\n", (int)kl, a, (int)kl, a);
      rc = -1;
    } else if (IS("--callgrind-out-file")) snprintf(o->out_file, sizeof o->out_file, "%s", v);
    else if (IS("--folded-out")) snprintf(o->folded, sizeof o->folded, "%s", v);
    else if (IS("--flamegraph")) snprintf(o->flame, sizeof o->flame, "%s", v);
    else if (IS("--dump-instr")) rc = yes_no("--dump-instr", v, &o->dump_instr);
    else if (IS("--dump-line")) rc = yes_no("--dump-line", v, &o->dump_line);
    else if (IS("--cache-sim")) rc = yes_no("--cache-sim", v, &o->cache_sim);
    else if (IS("--collect-jumps")) rc = yes_no("--collect-jumps", v, &o->collect_jumps);
    else if (IS("--collect-atstart")) rc = yes_no("--collect-atstart", v, &o->collect_atstart);
    else if (IS("--toggle-collect") && *v && o->ntoggle < sizeof o->toggle / sizeof o->toggle[0]) {
      o->toggle[o->ntoggle] = strdup(v);
      if (!o->toggle[o->ntoggle++]) abort();
    }
    else if (IS("--separate-threads")) rc = yes_no("--separate-threads", v, &o->separate_threads);
    else {
      fprintf(cg.err,
              "kit-emu: callgrind: unknown option '%s' (--callgrind-out-file=F, --dump-instr=yes|no, "
              "--dump-line=yes|no, --collect-jumps=yes|no, --collect-atstart=yes|no, --toggle-collect=FUNC, --cache-sim=yes|no, --I1/--D1/--LL=size,assoc,line, --separate-threads=yes|no, --folded-out=F, "
              "--flamegraph=F.svg)\n",
              a);
      rc = -1;
    }
#undef IS
  }
  free(copy);
  return rc;
}

int kit_emu_tool_callgrind_main(KitEmuTool *tool, const char *args, FILE *err) {
  memset(&cg, 0, sizeof cg);
  cg.err = err;
  cg.emu = kit_emu_tool_emu(tool);
  if (parse_args(args, &cg.o) < 0) return -1;
  cg.nev = cg.o.cache_sim ? MAX_EV : 1;
  cg.tree = cg.o.folded[0] || cg.o.flame[0];
  cg.tool = tool;
  cg.toggling = !cg.o.collect_atstart || cg.o.ntoggle;
  cg.fast = cg.nev == 1 && !cg.tree && !cg.toggling;
  cg.prof = kit_prof_new(event_names, cg.nev);
  cg.board = kit_emu_scoreboard_new(tool, sizeof(uint64_t));
  cg.sp_reg = kit_emu_reg_role(cg.emu, KIT_EMU_ROLE_SP);
  if (!cg.prof || !cg.board || !cg.sp_reg) return -1;
  kit_prof_set_instr_positions(cg.prof, cg.o.dump_instr);
  cg.sigreturn_nr = UINT64_MAX;
  for (uint64_t nr = 0; nr < 1024; nr++) {
    const char *name = kit_emu_syscall_name(nr);
    if (name && !strcmp(name, "rt_sigreturn")) {
      cg.sigreturn_nr = nr;
      break;
    }
  }
  if (cg.o.cache_sim) {
    char msg[256];
    cg.sim = (KitCacheSim){kit_cache_new(cg.o.i1, msg, sizeof msg), kit_cache_new(cg.o.d1, msg, sizeof msg),
                           kit_cache_new(cg.o.ll, msg, sizeof msg)};
    if (!cg.sim.i1 || !cg.sim.d1 || !cg.sim.ll) return -1;
  }
  kit_emu_tool_set_block_starts(tool, is_fn_start, NULL);
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_signal(tool, on_signal, NULL);
  kit_emu_on_syscall(tool, on_syscall, NULL);
  kit_emu_on_thread_exit(tool, on_thread_exit, NULL);
  kit_emu_on_exit(tool, on_exit_write, NULL);
  return 0;
}
