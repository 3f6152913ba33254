/* cg/interp/state.c — an interpreter instance: its stacks, the module's
 * globals (allocated, initialized, relocated), symbol resolution, function
 * entry points (closures), ctors/dtors, and messages. */
#define _GNU_SOURCE
#include "interp.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum {
  MAX_FRAMES = 1 << 18,
  SLOT_STACK_BYTES = 256u << 20,
  OBJ_STACK_BYTES = 256u << 20,
};

void kit_interp__msg(KitInterp *ip, const Fn *fn, const KitCgInst *in, const char *fmt, ...) {
  FILE *out = ip && ip->err ? ip->err : stderr;
  va_list ap;
  va_start(ap, fmt);
  fputs("kit-interp: ", out);
  vfprintf(out, fmt, ap);
  va_end(ap);
  if (fn && fn->f && ip) fprintf(out, " in @%s", kit_cg_func_name(ip->m, fn->f));
  if (in && in->loc.file && ip && in->loc.file < ip->m->nstrs)
    fprintf(out, " at %s:%u:%u", kit_cg_strget(ip->m, in->loc.file), in->loc.line, in->loc.col);
  else if (in && in->loc.pc)
    fprintf(out, " at pc 0x%llx", (unsigned long long)in->loc.pc);
  if (in && in->op < KIT_CG_NOPS) fprintf(out, " (%s)", kit_cg_op_info[in->op].name);
  fputc('\n', out);
}

Fn *kit_interp__fn(KitInterp *ip, const KitCgFunc *f) {
  KitCgModule *m = ip->m;
  if (f->sym >= m->nsyms) return NULL;
  uint32_t idx = m->syms[f->sym].index;
  if (m->syms[f->sym].kind != KIT_CG_SYM_FUNC || idx >= m->nfuncs || m->funcs[idx] != f) return NULL;
  return &ip->fns[idx];
}

KitCgSym kit_interp__resolve_alias(const KitCgModule *m, KitCgSym s) {
  for (int depth = 0; depth < 64; depth++) {
    if (s >= m->nsyms) return UINT32_MAX;
    if (m->syms[s].kind != KIT_CG_SYM_ALIAS) return s;
    s = m->syms[s].index;
  }
  return UINT32_MAX;
}

/* ---- closure table: host code pointer -> interpreted function -------------------- */

static uint32_t ptr_hash(void *p) { return (uint32_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >> 32); }

static CTab *ctab_new(uint32_t cap) {
  CTab *t = calloc(1, sizeof *t);
  if (t) {
    t->cap = cap;
    t->keys = calloc(cap, sizeof(void *));
    t->vals = calloc(cap, sizeof(Fn *));
  }
  if (!t || !t->keys || !t->vals) {
    fputs("kit-interp: out of memory\n", stderr);
    abort();
  }
  return t;
}

static void ctab_insert(CTab *t, void *key, Fn *fn) {
  uint32_t i = ptr_hash(key) & (t->cap - 1);
  while (t->keys[i]) i = (i + 1) & (t->cap - 1);
  t->vals[i] = fn;
  __atomic_store_n(&t->keys[i], key, __ATOMIC_RELEASE); /* readers see the key only with its value */
  t->n++;
}

/* caller holds ip->lock */
static void ctab_put(KitInterp *ip, void *key, Fn *fn) {
  CTab *t = ip->ctab;
  if (!t || (t->n + 1) * 2 > t->cap) {
    CTab *g = ctab_new(t ? t->cap * 2 : 64);
    for (uint32_t i = 0; t && i < t->cap; i++)
      if (t->keys[i]) ctab_insert(g, t->keys[i], t->vals[i]);
    g->older = t;
    __atomic_store_n(&ip->ctab, g, __ATOMIC_RELEASE);
    t = g;
  }
  ctab_insert(t, key, fn);
}

Fn *kit_interp__closure_fn(KitInterp *ip, void *code) {
  CTab *t = __atomic_load_n(&ip->ctab, __ATOMIC_ACQUIRE);
  if (!t || !code) return NULL;
  uint32_t i = ptr_hash(code) & (t->cap - 1);
  void *k;
  while ((k = __atomic_load_n(&t->keys[i], __ATOMIC_ACQUIRE))) {
    if (k == code) return t->vals[i];
    i = (i + 1) & (t->cap - 1);
  }
  return NULL;
}

void *kit_interp__func_addr(KitInterp *ip, Fn *fn) {
  if (!fn) return NULL;
  pthread_mutex_lock(&ip->lock);
  if (!fn->closure_code) {
    /* a signature libffi cannot express (f80 or i128 in a two-result
     * return) still gets a unique address, so interpreted code can take it,
     * compare it and call through it; host code must not call it */
    if (kit_interp__make_closure(ip, fn)) fn->closure_code = fn->token = calloc(1, 16);
    if (fn->closure_code) ctab_put(ip, fn->closure_code, fn);
  }
  pthread_mutex_unlock(&ip->lock);
  return fn->closure_code;
}

/* ---- per-thread stacks ----------------------------------------------------------- */

static void *reserve(size_t bytes) {
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static void ctx_release(Ctx *c) {
  if (c->frames) munmap(c->frames, (size_t)MAX_FRAMES * sizeof(Frame));
  if (c->slots) munmap(c->slots, SLOT_STACK_BYTES);
  if (c->astack) munmap(c->astack, OBJ_STACK_BYTES);
}

/* frame 0 is a sentinel "caller" whose slots end where the first real
 * frame's begin */
static Fn sentinel = {.nslots = 1};

static int ctx_init(Ctx *c) {
  c->frames = reserve((size_t)MAX_FRAMES * sizeof(Frame));
  c->slots = reserve(SLOT_STACK_BYTES);
  c->astack = reserve(OBJ_STACK_BYTES);
  if (!c->frames || !c->slots || !c->astack) {
    ctx_release(c);
    return -1;
  }
  c->frames_end = c->frames + MAX_FRAMES;
  c->slots_end = c->slots + SLOT_STACK_BYTES / sizeof(Slot);
  c->astack_end = c->astack + OBJ_STACK_BYTES;
  c->frames[0].fn = &sentinel;
  c->frames[0].base = c->slots;
  c->frames[0].atop = c->astack;
  c->fp = c->frames;
  return 0;
}

static pthread_key_t ctx_key;
static pthread_once_t ctx_once = PTHREAD_ONCE_INIT;
static __thread Ctx *tl_ctx;

static void ctx_destroy(void *p) {
  ctx_release(p);
  free(p);
}
static void ctx_key_init(void) { pthread_key_create(&ctx_key, ctx_destroy); }

Ctx *kit_interp__ctx(void) {
  if (tl_ctx) return tl_ctx;
  pthread_once(&ctx_once, ctx_key_init);
  Ctx *c = calloc(1, sizeof *c);
  if (!c || ctx_init(c)) {
    free(c);
    return NULL;
  }
  pthread_setspecific(ctx_key, c);
  return tl_ctx = c;
}

void kit_interp_abandon_thread(void) {
  if (!tl_ctx) return;
  tl_ctx->fp = tl_ctx->frames;
  tl_ctx->trap_pending = 0;
}

/* a thread's copies of the TLS globals, started from their initial images */
static void **tls_copy(KitInterp *ip) {
  KitCgModule *m = ip->m;
  void **t = calloc(m->nglobals + 1, sizeof(void *));
  if (!t) return NULL;
  for (uint32_t gi = 0; gi < m->nglobals; gi++) {
    if (!ip->tls_init || !ip->tls_init[gi]) continue;
    KitCgGlobal *g = m->globals[gi];
    size_t align = g->align < 16 || (g->align & (g->align - 1)) ? 16 : g->align;
    if (posix_memalign(&t[gi], align, g->size ? g->size : 1)) {
      t[gi] = NULL;
      for (uint32_t k = 0; k < gi; k++) free(t[k]);
      free(t);
      return NULL;
    }
    memcpy(t[gi], ip->tls_init[gi], g->size);
  }
  return t;
}

static uint64_t next_serial;
static __thread uint64_t tl_serial;
static __thread void **tl_tls;

void **kit_interp__tls(KitInterp *ip) {
  if (tl_serial == ip->serial) return tl_tls;
  pthread_t self = pthread_self();
  void **t = NULL;
  if (pthread_equal(self, ip->owner)) {
    t = ip->main_tls;
  } else {
    pthread_mutex_lock(&ip->lock);
    TlsSet *ts = ip->tls_sets;
    while (ts && !pthread_equal(ts->thread, self)) ts = ts->next;
    if (!ts && (ts = calloc(1, sizeof *ts))) {
      ts->thread = self;
      if ((ts->tls = tls_copy(ip))) {
        ts->next = ip->tls_sets;
        ip->tls_sets = ts;
      } else {
        free(ts);
        ts = NULL;
      }
    }
    pthread_mutex_unlock(&ip->lock);
    t = ts ? ts->tls : NULL;
  }
  if (t) {
    tl_serial = ip->serial;
    tl_tls = t;
  }
  return t;
}

/* ---- symbols ------------------------------------------------------------------ */

/* libc functions that live in libc_nonshared.a, so dlsym cannot see them;
 * taking their address here links them into whoever uses kitcg */
static void *nonshared(const char *name) {
  if (!strcmp(name, "atexit")) return (void *)atexit;
  if (!strcmp(name, "at_quick_exit")) return (void *)at_quick_exit;
  if (!strcmp(name, "pthread_atfork")) return (void *)pthread_atfork;
  return NULL;
}

static void *resolve_ext(KitInterp *ip, KitCgSym s) {
  const KitCgSymbol *sy = &ip->m->syms[s];
  const char *name = kit_cg_strget(ip->m, sy->asm_name ? sy->asm_name : sy->name);
  void *p = ip->resolve ? ip->resolve(ip->ruser, name) : NULL;
  if (!p) p = dlsym(RTLD_DEFAULT, name);
  if (!p) p = nonshared(name);
  return p;
}

static void *sym_address(KitInterp *ip, KitCgSym s) {
  KitCgModule *m = ip->m;
  s = kit_interp__resolve_alias(m, s);
  if (s == UINT32_MAX) return NULL;
  if (m->syms[s].kind == KIT_CG_SYM_FUNC) {
    KitCgFunc *f = kit_cg_func_of(m, s);
    if (!kit_cg_func_is_decl(f)) return kit_interp__func_addr(ip, kit_interp__fn(ip, f));
  }
  return ip->symaddr[s];
}

void *kit_interp_symbol(KitInterp *ip, const char *name) {
  if (!ip || !name) return NULL;
  KitCgSym s = kit_cg_sym_find(ip->m, name);
  return s == UINT32_MAX ? NULL : sym_address(ip, s);
}

uint64_t kit_interp_ops(const KitInterp *ip) { return ip ? __atomic_load_n(&ip->ops, __ATOMIC_RELAXED) : 0; }

static int setup_globals(KitInterp *ip, FILE *err) {
  KitCgModule *m = ip->m;
  for (uint32_t gi = 0; gi < m->nglobals; gi++) {
    KitCgGlobal *g = m->globals[gi];
    if (!m->syms[g->sym].defined) continue;
    size_t align = g->align < 16 ? 16 : g->align;
    if (align & (align - 1)) align = 16;
    size_t size = g->size ? (g->size + align - 1) & ~(align - 1) : align;
    void *p = NULL;
    if (posix_memalign(&p, align, size)) {
      fprintf(err, "kit-interp: cannot allocate global @%s (%llu bytes)\n", kit_cg_sym_name(m, g->sym),
              (unsigned long long)g->size);
      return -1;
    }
    memset(p, 0, size);
    if (g->init) memcpy(p, g->init, g->size);
    ip->gmem[gi] = p;
    ip->symaddr[g->sym] = p;
  }
  for (uint32_t s = 0; s < m->nsyms; s++) {
    const KitCgSymbol *sy = &m->syms[s];
    if (sy->kind == KIT_CG_SYM_ALIAS) continue;
    bool external = sy->kind == KIT_CG_SYM_FUNC ? kit_cg_func_is_decl(kit_cg_func_of(m, s)) : !sy->defined;
    if (!external) continue;
    ip->symaddr[s] = resolve_ext(ip, s);
    if (!ip->symaddr[s] && sy->linkage != KIT_CG_LINK_WEAK) {
      fprintf(err, "kit-interp: unresolved external symbol '%s'\n", kit_cg_sym_name(m, s));
      return -1;
    }
  }
  for (uint32_t gi = 0; gi < m->nglobals; gi++) {
    KitCgGlobal *g = m->globals[gi];
    if (!ip->gmem[gi]) continue;
    for (uint32_t r = 0; r < g->nrelocs; r++) {
      const KitCgReloc *rl = &g->relocs[r];
      unsigned size = rl->size == 4 ? 4 : 8;
      if (rl->offset + size > g->size || rl->sym >= m->nsyms) {
        fprintf(err, "kit-interp: bad relocation in global @%s at offset %llu\n", kit_cg_sym_name(m, g->sym),
                (unsigned long long)rl->offset);
        return -1;
      }
      uint64_t v = rl->blk ? kit_interp__blockaddr(rl->sym, rl->blk) : (uint64_t)(uintptr_t)sym_address(ip, rl->sym);
      if (rl->blk2) v -= kit_interp__blockaddr(rl->sym, rl->blk2);
      v += (uint64_t)rl->addend;
      memcpy((char *)ip->gmem[gi] + rl->offset, &v, size);
    }
    if (g->is_tls) {
      if (!ip->tls_init && !(ip->tls_init = calloc(m->nglobals + 1, sizeof(void *)))) return -1;
      if (!(ip->tls_init[gi] = malloc(g->size ? g->size : 1))) return -1;
      memcpy(ip->tls_init[gi], ip->gmem[gi], g->size);
    }
  }
  ip->main_tls = calloc(m->nglobals + 1, sizeof(void *));
  if (!ip->main_tls) return -1;
  for (uint32_t gi = 0; gi < m->nglobals; gi++)
    if (ip->tls_init && ip->tls_init[gi]) ip->main_tls[gi] = ip->gmem[gi];
  return 0;
}

KitInterp *kit_interp_new(KitCgModule *m, KitCgResolver resolve, void *user, FILE *err) {
  if (!err) err = stderr;
  if (!m) {
    fputs("kit-interp: no module\n", err);
    return NULL;
  }
  if (m->nasms) { /* its symbols would not exist: only an assembler can make them */
    fputs("kit-interp: module-level asm is not supported by the interpreter (run it through LLVM: kit-cg jit)\n", err);
    return NULL;
  }
  KitInterp *ip = calloc(1, sizeof *ip);
  if (!ip) return NULL;
  ip->m = m;
  ip->resolve = resolve;
  ip->ruser = user;
  ip->err = err;
  ip->fns = calloc(m->nfuncs + 1, sizeof(Fn));
  ip->symaddr = calloc(m->nsyms + 1, sizeof(void *));
  ip->gmem = calloc(m->nglobals + 1, sizeof(void *));
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&ip->lock, &ma);
  pthread_mutexattr_destroy(&ma);
  ip->serial = __atomic_add_fetch(&next_serial, 1, __ATOMIC_RELAXED);
  ip->owner = pthread_self();
  if (!ip->fns || !ip->symaddr || !ip->gmem) {
    fputs("kit-interp: out of memory\n", err);
    kit_interp_free(ip);
    return NULL;
  }
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    ip->fns[i].ip = ip;
    ip->fns[i].f = m->funcs[i];
  }
  ip->exit_ins.op = kit_interp__labels()[IOP_EXIT];
  if (setup_globals(ip, err)) {
    kit_interp_free(ip);
    return NULL;
  }
  return ip;
}

void kit_interp_free(KitInterp *ip) {
  if (!ip) return;
  if (ip->fns)
    for (uint32_t i = 0; i < ip->m->nfuncs; i++) kit_interp__fn_release(&ip->fns[i]);
  if (ip->gmem)
    for (uint32_t i = 0; i < ip->m->nglobals; i++) free(ip->gmem[i]);
  for (TlsSet *ts = ip->tls_sets, *n; ts; ts = n) {
    n = ts->next;
    for (uint32_t i = 0; i < ip->m->nglobals; i++) free(ts->tls[i]);
    free(ts->tls);
    free(ts);
  }
  free(ip->main_tls);
  for (CTab *t = ip->ctab, *o; t; t = o) {
    o = t->older;
    free(t->keys);
    free(t->vals);
    free(t);
  }
  kit_interp__free_types(ip);
  if (ip->serial) pthread_mutex_destroy(&ip->lock);
  if (ip->tls_init)
    for (uint32_t i = 0; i < ip->m->nglobals; i++) free(ip->tls_init[i]);
  free(ip->tls_init);
  free(ip->fns);
  free(ip->symaddr);
  free(ip->gmem);
  free(ip);
}

/* ---- constructors and destructors ------------------------------------------------- */

static int run_list(KitInterp *ip, const KitCgCtor *list, uint32_t n, bool descending) {
  if (!ip || !n) return 0;
  uint32_t *order = malloc(n * sizeof(uint32_t));
  if (!order) return 1;
  for (uint32_t i = 0; i < n; i++) order[i] = i;
  /* insertion sort: stable, so equal priorities keep module order */
  for (uint32_t i = 1; i < n; i++) {
    uint32_t k = order[i], j = i;
    while (j > 0 && (descending ? list[order[j - 1]].priority < list[k].priority
                                : list[order[j - 1]].priority > list[k].priority)) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = k;
  }
  int rc = 0;
  KitCgModule *m = ip->m;
  for (uint32_t i = 0; i < n && !rc; i++) {
    KitCgSym s = kit_interp__resolve_alias(m, list[order[i]].func);
    if (s == UINT32_MAX || m->syms[s].kind != KIT_CG_SYM_FUNC) {
      kit_interp__msg(ip, NULL, NULL, "constructor/destructor is not a function");
      rc = 1;
      break;
    }
    KitCgFunc *f = kit_cg_func_of(m, s);
    if (kit_cg_func_is_decl(f)) {
      void (*host)(void) = (void (*)(void))ip->symaddr[s];
      if (host) host();
    } else {
      KitCgScalar r[2];
      rc = kit_interp_call(ip, f, NULL, 0, r);
    }
  }
  free(order);
  return rc;
}

int kit_interp_run_ctors(KitInterp *ip) { return ip ? run_list(ip, ip->m->ctors, ip->m->nctors, false) : 1; }
int kit_interp_run_dtors(KitInterp *ip) { return ip ? run_list(ip, ip->m->dtors, ip->m->ndtors, true) : 1; }
