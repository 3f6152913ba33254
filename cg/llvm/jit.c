/* cg/llvm/jit.c — the in-process ORC LLJIT: lowering CG modules into one
 * shared context, batching them into one LLVM module until code is needed,
 * symbol resolution (caller's resolver, our builtins, then the process;
 * weak declarations nothing defines become null), constructor and destructor
 * runs, and calls through libffi with a CG signature. */
#include "llvm.h"

#include <dlfcn.h>
#include <ffi.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Support.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* a set of names (open addressing) */
typedef struct NameSet {
  char **slot;
  unsigned n, cap;
} NameSet;

struct KitJit {
  LLVMOrcLLJITRef jit;
  LLVMOrcThreadSafeContextRef tsc;
  LLVMTargetMachineRef tm; /* layout for lowering, target for the passes */
  int opt_level;
  int lower_flags; /* KIT_JIT_NO_UNWIND, KIT_JIT_NO_VERIFY */
  /* Modules added since the last lookup, linked into one at the lookup:
   * LLJIT pays about half a millisecond per module it compiles (it rebuilds
   * the codegen pipeline each time), so a batch of adds compiles as one. */
  LLVMModuleRef *pending;
  unsigned npending, pending_cap;
  bool pending_inline; /* something pending is alwaysinline */
  NameSet defs;  /* the strong definitions of every module added */
  NameSet provided; /* every external definition (strong or weak) of every module added */
  FILE *diag;          /* where the context's diagnostics go (link errors) */
  KitCgResolver resolve;
  void *user;
  unsigned nmodules;
  /* tags of modules whose ctors have not run yet / whose dtors are pending */
  unsigned *init, ninit, init_cap;
  unsigned *fini, nfini, fini_cap;
};

static void report(LLVMErrorRef e, FILE *err, const char *what) {
  char *msg = LLVMGetErrorMessage(e);
  if (err) fprintf(err, "jit: %s: %s\n", what, msg);
  LLVMDisposeErrorMessage(msg);
}

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

/* LLJIT's generic platform defines atexit and __cxa_atexit itself, in the
 * main JITDylib, to record handlers for LLJIT's deinitialize, which the C API
 * never runs. So the JIT renames declarations of these to private names
 * (see kit_jit_add) that resolve to the process's own. */
#define ATEXIT_ALIAS "__kit_jit.atexit"
#define CXA_ATEXIT_ALIAS "__kit_jit.__cxa_atexit"

/* Symbols the JIT defines itself. glibc keeps atexit, at_quick_exit and
 * pthread_atfork in libc_nonshared.a, where dlsym cannot see them: jitted
 * code gets the copies linked into this program (registered with its
 * __dso_handle, so the handlers run at exit; atexit through its renamed
 * declaration). __kit_tls_get is the emulated TLS (jit_tls.c). */
static void *builtin(const char *name) {
  static const struct {
    const char *name;
    void *addr;
  } tab[] = {
      {ATEXIT_ALIAS, (void *)atexit},
      {CXA_ATEXIT_ALIAS, (void *)__cxa_atexit},
      {"at_quick_exit", (void *)at_quick_exit},
      {"pthread_atfork", (void *)pthread_atfork},
      {KIT_JIT_TLS_GET, (void *)kit_jit__tls_get},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (!strcmp(name, tab[i].name)) return tab[i].addr;
  return NULL;
}

/* Runs before the process's symbols are searched: the caller's resolver,
 * then our builtins. */
static LLVMErrorRef generate(LLVMOrcDefinitionGeneratorRef g, void *ctx, LLVMOrcLookupStateRef *ls,
                             LLVMOrcLookupKind kind, LLVMOrcJITDylibRef jd, LLVMOrcJITDylibLookupFlags flags,
                             LLVMOrcCLookupSet set, size_t n) {
  (void)g, (void)ls, (void)kind, (void)flags;
  KitJit *j = ctx;
  LLVMOrcCSymbolMapPair *pairs = malloc((n ? n : 1) * sizeof *pairs);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const char *name = LLVMOrcSymbolStringPoolEntryStr(set[i].Name);
    void *addr = j->resolve ? j->resolve(j->user, name) : NULL;
    if (!addr) addr = builtin(name);
    if (!addr) continue;
    LLVMOrcRetainSymbolStringPoolEntry(set[i].Name);
    pairs[k].Name = set[i].Name;
    pairs[k].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)addr;
    pairs[k].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    pairs[k].Sym.Flags.TargetFlags = 0;
    k++;
  }
  LLVMErrorRef e = NULL;
  if (k) e = LLVMOrcJITDylibDefine(jd, LLVMOrcAbsoluteSymbols(pairs, k));
  free(pairs);
  return e;
}

static void on_diag(LLVMDiagnosticInfoRef di, void *ctx) {
  KitJit *j = ctx;
  if (LLVMGetDiagInfoSeverity(di) != LLVMDSError || !j->diag) return;
  char *msg = LLVMGetDiagInfoDescription(di);
  fprintf(j->diag, "jit: %s\n", msg);
  LLVMDisposeMessage(msg);
}

KitJit *kit_jit_new(int opt_level, KitCgResolver resolve, void *user, FILE *err) {
  kit_llvm__init();
  KitJit *j = calloc(1, sizeof *j);
  int level = opt_level & ~(KIT_JIT_FAST_CODEGEN | KIT_JIT_NO_UNWIND | KIT_JIT_NO_VERIFY | KIT_JIT_FAST_ISEL);
  j->lower_flags = opt_level & (KIT_JIT_NO_UNWIND | KIT_JIT_NO_VERIFY);
  j->opt_level = level < 0 ? 0 : level > 3 ? 3 : level;
  j->resolve = resolve;
  j->user = user;
  j->tm = kit_llvm__machine(KIT_TARGET_X86_64_LINUX, j->opt_level, false, true, err);
  /* the machine LLJIT generates code with */
  int cg = opt_level & KIT_JIT_FAST_CODEGEN ? 0 : j->opt_level;
  static bool fast_isel_set;
  if ((opt_level & KIT_JIT_FAST_ISEL) && !fast_isel_set) {
    static const char *const argv[] = {"kit", "-fast-isel"};
    LLVMParseCommandLineOptions(2, argv, NULL);
    fast_isel_set = true;
  }
  LLVMTargetMachineRef jtm = kit_llvm__machine(KIT_TARGET_X86_64_LINUX, cg, false, true, err);
  if (!j->tm || !jtm) {
    if (jtm) LLVMDisposeTargetMachine(jtm);
    kit_jit_free(j);
    return NULL;
  }
  LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jtm));
  LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->jit, jb);
  if (e) {
    report(e, err, "cannot create the LLJIT");
    j->jit = NULL;
    kit_jit_free(j);
    return NULL;
  }
  LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(j->jit);
  LLVMOrcJITDylibAddGenerator(jd, LLVMOrcCreateCustomCAPIDefinitionGenerator(generate, j, NULL));
  LLVMOrcDefinitionGeneratorRef proc;
  e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&proc, LLVMOrcLLJITGetGlobalPrefix(j->jit), NULL, NULL);
  if (e) {
    report(e, err, "cannot search the process's symbols");
    kit_jit_free(j);
    return NULL;
  }
  LLVMOrcJITDylibAddGenerator(jd, proc);
  j->tsc = LLVMOrcCreateNewThreadSafeContext();
  LLVMContextSetDiagnosticHandler(LLVMOrcThreadSafeContextGetContext(j->tsc), on_diag, j);
  return j;
}

void kit_jit_free(KitJit *j) {
  if (!j) return;
  if (j->jit) {
    LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->jit);
    if (e) LLVMConsumeError(e);
  }
  for (unsigned i = 0; i < j->npending; i++) LLVMDisposeModule(j->pending[i]);
  free(j->pending);
  for (unsigned i = 0; i < j->defs.cap; i++) free(j->defs.slot[i]);
  free(j->defs.slot);
  for (unsigned i = 0; i < j->provided.cap; i++) free(j->provided.slot[i]);
  free(j->provided.slot);
  if (j->tsc) LLVMOrcDisposeThreadSafeContext(j->tsc);
  if (j->tm) LLVMDisposeTargetMachine(j->tm);
  free(j->init);
  free(j->fini);
  free(j);
}

static bool has_alwaysinline(const KitCgModule *m) {
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->attrs & KIT_CG_FA_ALWAYSINLINE) return true;
  return false;
}

static void push_tag(unsigned **arr, unsigned *n, unsigned *cap, unsigned tag) {
  if (*n == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    *arr = realloc(*arr, *cap * sizeof **arr);
  }
  (*arr)[(*n)++] = tag;
}

/* Strong definitions must be unique across everything added: LLVM's linker
 * would reject a second one half-way through a merge, so refuse the module
 * at its add instead. Weak, common and internal symbols may repeat. */
static bool strong(LLVMValueRef v) {
  return !LLVMIsDeclaration(v) && LLVMGetLinkage(v) == LLVMExternalLinkage;
}

static uint64_t hash_name(const char *s) {
  uint64_t h = 1469598103934665603ull;
  while (*s) h = (h ^ (unsigned char)*s++) * 1099511628211ull;
  return h;
}

static char **name_slot(const NameSet *s, const char *name) {
  unsigned mask = s->cap - 1, i = (unsigned)hash_name(name) & mask;
  while (s->slot[i] && strcmp(s->slot[i], name)) i = (i + 1) & mask;
  return &s->slot[i];
}

static bool names_has(const NameSet *s, const char *name) { return s->cap && *name_slot(s, name); }

static void names_add(NameSet *s, const char *name) {
  if ((s->n + 1) * 2 > s->cap) {
    char **old = s->slot;
    unsigned oldcap = s->cap;
    s->cap = oldcap ? oldcap * 2 : 256;
    s->slot = calloc(s->cap, sizeof *s->slot);
    for (unsigned i = 0; i < oldcap; i++)
      if (old[i]) *name_slot(s, old[i]) = old[i];
    free(old);
  }
  char **slot = name_slot(s, name);
  if (!*slot) {
    *slot = strdup(name);
    s->n++;
  }
}

static LLVMValueRef next_global(LLVMValueRef v, bool func) { return func ? LLVMGetNextFunction(v) : LLVMGetNextGlobal(v); }

/* the first strong definition of mod already added, or NULL; record mod's
 * definitions */
static const char *clash(KitJit *j, LLVMModuleRef mod, bool record) {
  size_t n;
  for (int func = 0; func < 2; func++)
    for (LLVMValueRef v = func ? LLVMGetFirstFunction(mod) : LLVMGetFirstGlobal(mod); v; v = next_global(v, func)) {
      const char *name = LLVMGetValueName2(v, &n);
      if (record && !LLVMIsDeclaration(v) && LLVMGetLinkage(v) != LLVMInternalLinkage &&
          LLVMGetLinkage(v) != LLVMPrivateLinkage)
        names_add(&j->provided, name);
      if (!strong(v)) continue;
      if (record) names_add(&j->defs, name);
      else if (names_has(&j->defs, name)) return name;
    }
  return NULL;
}

/* A weak declaration that nothing defines is address 0, as a static link
 * leaves it; LLJIT's linker would instead fail on the missing symbol (or
 * refuse an absolute symbol at 0). So the JIT settles it when the module is
 * added: defined by a module added before or by this one, by the caller's
 * resolver, our builtins or the process, it stays a reference; otherwise its
 * uses become null. A definition added later does not revive it. */
static void settle_weak(KitJit *j, LLVMModuleRef mod) {
  size_t n;
  for (int func = 0; func < 2; func++) {
    LLVMValueRef next;
    for (LLVMValueRef v = func ? LLVMGetFirstFunction(mod) : LLVMGetFirstGlobal(mod); v; v = next) {
      next = next_global(v, func);
      if (!LLVMIsDeclaration(v) || LLVMGetLinkage(v) != LLVMExternalWeakLinkage) continue;
      const char *name = LLVMGetValueName2(v, &n);
      if (names_has(&j->provided, name) || (j->resolve && j->resolve(j->user, name)) || builtin(name) ||
          dlsym(RTLD_DEFAULT, name))
        continue;
      LLVMReplaceAllUsesWith(v, LLVMConstNull(LLVMTypeOf(v)));
      if (func) LLVMDeleteFunction(v);
      else LLVMDeleteGlobal(v);
    }
  }
}

int kit_jit_add(KitJit *j, KitCgModule *m, FILE *err) {
  unsigned tag = j->nmodules++;
  char tagstr[16];
  snprintf(tagstr, sizeof tagstr, "%u", tag);
  bool inits = m->nctors || m->ndtors;
  LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(j->tsc);
  LLVMModuleRef mod = kit_llvm__lower(m, ctx, j->tm, KIT_TARGET_X86_64_LINUX, false, NULL, true, j->lower_flags,
                                      inits ? tagstr : NULL, err);
  if (!mod) return 1;
  const char *dup = clash(j, mod, false);
  if (dup) {
    if (err) fprintf(err, "jit: @%s is already defined by a module added before\n", dup);
    LLVMDisposeModule(mod);
    return 1;
  }
  clash(j, mod, true);
  settle_weak(j, mod);
  static const char *const renames[][2] = {{"atexit", ATEXIT_ALIAS}, {"__cxa_atexit", CXA_ATEXIT_ALIAS}};
  for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(mod, renames[i][0]);
    if (f && LLVMIsDeclaration(f)) LLVMSetValueName2(f, renames[i][1], strlen(renames[i][1]));
  }
  if (j->npending == j->pending_cap) {
    j->pending_cap = j->pending_cap ? 2 * j->pending_cap : 16;
    j->pending = realloc(j->pending, j->pending_cap * sizeof *j->pending);
  }
  j->pending[j->npending++] = mod;
  j->pending_inline |= has_alwaysinline(m);
  if (inits) {
    push_tag(&j->init, &j->ninit, &j->init_cap, tag);
    push_tag(&j->fini, &j->nfini, &j->fini_cap, tag);
  }
  return 0;
}

/* Link the pending modules into one, pairwise: linking each into one growing
 * module rescans the destination every time, quadratic in the batch. */
static LLVMModuleRef merge_pending(KitJit *j, FILE *err) {
  unsigned n = j->npending;
  bool bad = false;
  for (unsigned step = 1; step < n; step *= 2)
    for (unsigned i = 0; i + step < n; i += 2 * step) {
      j->diag = err;
      bad |= LLVMLinkModules2(j->pending[i], j->pending[i + step]) != 0; /* consumes the second */
      j->diag = NULL;
      j->pending[i + step] = NULL;
    }
  LLVMModuleRef mod = j->pending[0];
  j->npending = 0;
  if (bad) {
    if (err) fprintf(err, "jit: cannot link the pending modules into one batch\n");
    LLVMDisposeModule(mod);
    return NULL;
  }
  return mod;
}

/* Optimise the pending batch and hand it to LLJIT (which compiles it at the
 * first lookup of one of its symbols). */
static int flush(KitJit *j, FILE *err) {
  if (!j->npending) return 0;
  LLVMModuleRef mod = merge_pending(j, err);
  if (!mod) return 1;
  /* O0 skips the pipeline (latency) unless something must be inlined */
  if ((j->opt_level > 0 || j->pending_inline) && kit_llvm__optimize(mod, j->tm, j->opt_level, false, err)) {
    LLVMDisposeModule(mod);
    return 1;
  }
  j->pending_inline = false;
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod, j->tsc);
  LLVMErrorRef e = LLVMOrcLLJITAddLLVMIRModule(j->jit, LLVMOrcLLJITGetMainJITDylib(j->jit), tsm);
  if (e) {
    report(e, err, "cannot add the module");
    return 1;
  }
  return 0;
}

void *kit_jit_lookup(KitJit *j, const char *name) {
  if (flush(j, stderr)) return NULL;
  LLVMOrcExecutorAddress addr = 0;
  LLVMErrorRef e = LLVMOrcLLJITLookup(j->jit, &addr, name);
  if (e) {
    LLVMConsumeError(e);
    return NULL;
  }
  return (void *)(uintptr_t)addr;
}

static int run_tagged(KitJit *j, const char *prefix, unsigned tag, FILE *err) {
  char name[48];
  snprintf(name, sizeof name, "%s.%u", prefix, tag);
  void (*fn)(void) = (void (*)(void))kit_jit_lookup(j, name);
  if (!fn) {
    if (err) fprintf(err, "jit: cannot materialize %s (an unresolved symbol?)\n", name);
    return 1;
  }
  fn();
  return 0;
}

int kit_jit_run_ctors(KitJit *j, FILE *err) {
  int rc = flush(j, err);
  for (unsigned i = 0; i < j->ninit; i++) rc |= run_tagged(j, "__kit_init", j->init[i], err);
  j->ninit = 0;
  return rc;
}

int kit_jit_run_dtors(KitJit *j, FILE *err) {
  int rc = 0;
  while (j->nfini) rc |= run_tagged(j, "__kit_fini", j->fini[--j->nfini], err);
  return rc;
}

/* ---- calls through libffi ------------------------------------------------------- */

static ffi_type *i128_pair[3] = {&ffi_type_uint64, &ffi_type_uint64, NULL};
static ffi_type ffi_i128 = {16, 16, FFI_TYPE_STRUCT, i128_pair};

static ffi_type *ffi_of(KitCgType t, unsigned attrs) {
  bool s = attrs & KIT_CG_PA_SEXT;
  switch (t) {
  case KIT_CG_I1: case KIT_CG_I8: return s ? &ffi_type_sint8 : &ffi_type_uint8;
  case KIT_CG_I16: return s ? &ffi_type_sint16 : &ffi_type_uint16;
  case KIT_CG_I32: return s ? &ffi_type_sint32 : &ffi_type_uint32;
  case KIT_CG_I64: return &ffi_type_uint64;
  case KIT_CG_I128: return &ffi_i128;
  case KIT_CG_F32: return &ffi_type_float;
  case KIT_CG_F64: return &ffi_type_double;
  case KIT_CG_F80: return &ffi_type_longdouble;
  case KIT_CG_PTR: return &ffi_type_pointer;
  case KIT_CG_VOID: return &ffi_type_void;
  default: return NULL;
  }
}

/* One returned value from its register image into the scalar convention. */
static KitCgScalar scalar_from(KitCgType t, const void *p, bool sext) {
  KitCgScalar r;
  memset(&r, 0, sizeof r);
  switch (t) {
  case KIT_CG_I1: r.i = *(const uint8_t *)p & 1; break;
  case KIT_CG_I8: r.i = sext ? (uint64_t)(int64_t) * (const int8_t *)p : *(const uint8_t *)p; break;
  case KIT_CG_I16: r.i = sext ? (uint64_t)(int64_t) * (const int16_t *)p : *(const uint16_t *)p; break;
  case KIT_CG_I32: r.i = sext ? (uint64_t)(int64_t) * (const int32_t *)p : *(const uint32_t *)p; break;
  case KIT_CG_I64: case KIT_CG_PTR: memcpy(&r.i, p, 8); break;
  case KIT_CG_F32: memcpy(&r.f32, p, 4); break;
  case KIT_CG_F64: memcpy(&r.f64, p, 8); break;
  case KIT_CG_F80: memcpy(&r.f80, p, 10); break;
  case KIT_CG_I128: memcpy(&r.i128, p, 16); break;
  default: break;
  }
  return r;
}

int kit_jit_call(KitJit *j, KitCgModule *m, KitCgFunc *f, const KitCgScalar *args, uint32_t nargs, KitCgScalar ret[2]) {
  const char *name = kit_cg_func_name(m, f);
  const KitCgSymbol *sy = &m->syms[f->sym];
  if (sy->asm_name) name = kit_cg_strget(m, sy->asm_name);
  if (nargs != f->nparams) {
    fprintf(stderr, "jit: @%s takes %u arguments, called with %u\n", name, f->nparams, nargs);
    return 1;
  }
  void *fn = kit_jit_lookup(j, name);
  if (!fn) {
    fprintf(stderr, "jit: @%s is not defined (or not external) in the JIT\n", name);
    return 1;
  }
  ffi_type *at[nargs ? nargs : 1];
  void *av[nargs ? nargs : 1];
  for (uint32_t i = 0; i < nargs; i++) {
    if (f->params[i].attrs & KIT_CG_PA_BYVAL) {
      fprintf(stderr, "jit: @%s: byval parameters cannot be passed by kit_jit_call\n", name);
      return 1;
    }
    at[i] = ffi_of(f->params[i].type, f->params[i].attrs);
    av[i] = (void *)&args[i]; /* little-endian: the low bytes of .i are the narrow value */
  }
  bool two = f->ret[1] != KIT_CG_VOID;
  ffi_type *rt = ffi_of(f->ret[0], f->ret_attrs);
  /* LLVM returns {T1,T2} in one register per field (RAX:RDX, XMM0:XMM1, mixed):
   * a C struct of two 8-byte fields of the same classes lands identically. */
  ffi_type *pair[3];
  ffi_type pair_t = {0, 0, FFI_TYPE_STRUCT, pair};
  if (two) {
    for (int k = 0; k < 2; k++) {
      KitCgType t = f->ret[k];
      if (t == KIT_CG_F80 || t == KIT_CG_I128) {
        fprintf(stderr, "jit: @%s: a two-result return of %s cannot be called through libffi\n", name,
                kit_cg_type_name(t));
        return 1;
      }
      pair[k] = kit_cg_type_is_float(t) ? &ffi_type_double : &ffi_type_uint64;
    }
    pair[2] = NULL;
    rt = &pair_t;
  }
  ffi_cif cif;
  ffi_status st = f->variadic ? ffi_prep_cif_var(&cif, FFI_DEFAULT_ABI, nargs, nargs, rt, at)
                              : ffi_prep_cif(&cif, FFI_DEFAULT_ABI, nargs, rt, at);
  if (st != FFI_OK) {
    fprintf(stderr, "jit: @%s: libffi cannot describe this signature\n", name);
    return 1;
  }
  _Alignas(16) unsigned char rbuf[64];
  memset(rbuf, 0, sizeof rbuf);
  ffi_call(&cif, FFI_FN(fn), rbuf, av);
  bool sext = f->ret_attrs & KIT_CG_PA_SEXT;
  memset(ret, 0, 2 * sizeof *ret);
  if (two) {
    ret[0] = scalar_from(f->ret[0], rbuf, false);
    ret[1] = scalar_from(f->ret[1], rbuf + 8, false);
  } else if (f->ret[0] != KIT_CG_VOID) {
    ret[0] = scalar_from(f->ret[0], rbuf, sext);
  }
  return 0;
}
