/* cg/llvm/lower.c — CG module -> LLVM module: types, symbols (functions,
 * globals, aliases) with their linkage, visibility and attributes, global
 * initializers with relocations, constructors/destructors and debug info. */
#include "llvm.h"

#include <llvm-c/Analysis.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void kit_llvm__error(KitLower *l, const char *fmt, ...) {
  l->nerrs++;
  if (!l->err || l->nerrs > 20) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("llvm: ", l->err);
  vfprintf(l->err, fmt, ap);
  fputc('\n', l->err);
  va_end(ap);
}

LLVMTypeRef kit_llvm__type(KitLower *l, KitCgType t) {
  if (kit_cg_type_is_vec(t) && kit_cg_type_valid(t))
    return LLVMVectorType(l->tys[kit_cg_type_elem(t)], kit_cg_type_lanes(t));
  if ((unsigned)t >= KIT_CG_NTYPES) {
    kit_llvm__error(l, "bad type %u", (unsigned)t);
    return l->i8;
  }
  if (t == KIT_CG_F80 && l->target != KIT_TARGET_X86_64_LINUX) {
    if (!l->f80_told) kit_llvm__error(l, "f80 (x86 80-bit float) is not available on riscv64");
    l->f80_told = true;
    return l->tys[KIT_CG_F64];
  }
  return l->tys[t];
}

LLVMAttributeRef kit_llvm__attr(LLVMContextRef ctx, const char *name) {
  return LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName(name, strlen(name)), 0);
}

LLVMValueRef kit_llvm__intrinsic(KitLower *l, const char *name, LLVMTypeRef *tys, unsigned ntys, LLVMValueRef *args,
                                 unsigned nargs) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id) {
    kit_llvm__error(l, "no intrinsic %s", name);
    return LLVMGetUndef(l->i8);
  }
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(l->mod, id, tys, ntys);
  LLVMTypeRef fty = LLVMIntrinsicGetType(l->ctx, id, tys, ntys);
  return LLVMBuildCall2(l->b, fty, fn, args, nargs, "");
}

static void init_types(KitLower *l) {
  LLVMContextRef c = l->ctx;
  l->voidt = l->tys[KIT_CG_VOID] = LLVMVoidTypeInContext(c);
  l->tys[KIT_CG_I1] = LLVMInt1TypeInContext(c);
  l->i8 = l->tys[KIT_CG_I8] = LLVMInt8TypeInContext(c);
  l->tys[KIT_CG_I16] = LLVMInt16TypeInContext(c);
  l->i32 = l->tys[KIT_CG_I32] = LLVMInt32TypeInContext(c);
  l->i64 = l->tys[KIT_CG_I64] = LLVMInt64TypeInContext(c);
  l->tys[KIT_CG_I128] = LLVMInt128TypeInContext(c);
  l->tys[KIT_CG_F32] = LLVMFloatTypeInContext(c);
  l->tys[KIT_CG_F64] = LLVMDoubleTypeInContext(c);
  l->tys[KIT_CG_F80] = LLVMX86FP80TypeInContext(c);
  l->ptr = l->tys[KIT_CG_PTR] = LLVMPointerTypeInContext(c, 0);
}

static LLVMTypeRef func_type(KitLower *l, const KitCgFunc *f) {
  LLVMTypeRef ps[f->nparams ? f->nparams : 1];
  for (uint32_t i = 0; i < f->nparams; i++) ps[i] = kit_llvm__type(l, f->params[i].type);
  LLVMTypeRef ret = kit_llvm__type(l, f->ret[0]);
  if (f->ret[1] != KIT_CG_VOID) {
    LLVMTypeRef two[2] = {ret, kit_llvm__type(l, f->ret[1])};
    ret = LLVMStructTypeInContext(l->ctx, two, 2, 0);
  }
  return LLVMFunctionType(ret, ps, f->nparams, f->variadic);
}

static LLVMLinkage linkage_of(const KitCgSymbol *s) {
  switch (s->linkage) {
  case KIT_CG_LINK_INTERNAL: return LLVMInternalLinkage;
  case KIT_CG_LINK_WEAK: return s->defined ? LLVMWeakAnyLinkage : LLVMExternalWeakLinkage;
  case KIT_CG_LINK_COMMON: return s->defined ? LLVMCommonLinkage : LLVMExternalLinkage;
  default: return LLVMExternalLinkage;
  }
}

static LLVMVisibility visibility_of(const KitCgSymbol *s) {
  switch (s->visibility) {
  case KIT_CG_VIS_HIDDEN: return LLVMHiddenVisibility;
  case KIT_CG_VIS_PROTECTED: return LLVMProtectedVisibility;
  default: return LLVMDefaultVisibility;
  }
}

static const char *llvm_name(KitLower *l, KitCgSym s) {
  const KitCgSymbol *sy = &l->m->syms[s];
  return sy->asm_name ? kit_cg_strget(l->m, sy->asm_name) : kit_cg_strget(l->m, sy->name);
}

/* The LLVM attributes of one parameter (index >= 1) or of the return value
 * (index 0, where only zext/sext apply). */
static void one_param_attrs(KitLower *l, const KitCgParam *p, unsigned a, unsigned index, LLVMValueRef v,
                            bool call_site) {
  LLVMContextRef c = l->ctx;
  LLVMAttributeRef at[4];
  unsigned n = 0;
  if (a & KIT_CG_PA_ZEXT) at[n++] = kit_llvm__attr(c, "zeroext");
  if (a & KIT_CG_PA_SEXT) at[n++] = kit_llvm__attr(c, "signext");
  if (p && (a & (KIT_CG_PA_BYVAL | KIT_CG_PA_SRET))) {
    LLVMTypeRef bytes = LLVMArrayType(l->i8, p->byval_size);
    const char *k = (a & KIT_CG_PA_BYVAL) ? "byval" : "sret";
    at[n++] = LLVMCreateTypeAttribute(c, LLVMGetEnumAttributeKindForName(k, strlen(k)), bytes);
    if (p->byval_align)
      at[n++] = LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("align", 5), p->byval_align);
  }
  for (unsigned k = 0; k < n; k++) {
    if (call_site)
      LLVMAddCallSiteAttribute(v, index, at[k]);
    else
      LLVMAddAttributeAtIndex(v, index, at[k]);
  }
}

/* Parameter attributes live both on the function and on every call site
 * (LLVM requires byval/sret/zeroext to agree at both ends). */
void kit_llvm__param_attrs(KitLower *l, const KitCgFunc *f, LLVMValueRef v, bool call_site) {
  for (uint32_t i = 0; i < f->nparams + 1; i++) {
    unsigned a = i == 0 ? f->ret_attrs : f->params[i - 1].attrs;
    if (a) one_param_attrs(l, i ? &f->params[i - 1] : NULL, a, i, v, call_site);
  }
}

/* A call site's own argument attributes (KitCgInst.argattrs), for calls whose
 * callee declaration cannot say: indirect and unprototyped calls. */
void kit_llvm__site_attrs(KitLower *l, unsigned ret_attrs, const KitCgParam *pa, uint32_t n, LLVMValueRef call) {
  if (ret_attrs) one_param_attrs(l, NULL, ret_attrs, 0, call, true);
  for (uint32_t i = 0; i < n; i++)
    if (pa[i].attrs) one_param_attrs(l, &pa[i], pa[i].attrs, i + 1, call, true);
}

static void func_attrs(KitLower *l, const KitCgFunc *f, LLVMValueRef fn) {
  static const struct { unsigned bit; const char *name; } fa[] = {
      {KIT_CG_FA_NOINLINE, "noinline"}, {KIT_CG_FA_ALWAYSINLINE, "alwaysinline"},
      {KIT_CG_FA_NORETURN, "noreturn"}, {KIT_CG_FA_RETURNS_TWICE, "returns_twice"},
      {KIT_CG_FA_COLD, "cold"},         {KIT_CG_FA_NOUNWIND, "nounwind"},
  };
  for (size_t i = 0; i < sizeof fa / sizeof fa[0]; i++)
    if (f->attrs & fa[i].bit) LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kit_llvm__attr(l->ctx, fa[i].name));
  kit_llvm__param_attrs(l, f, fn, false);
  if (kit_cg_func_is_decl(f)) return;
  if (l->no_unwind) {
    /* the emulator's blocks: nothing unwinds through them, and the CFI of
     * unwind tables is a measurable part of their compile time */
    if (!(f->attrs & KIT_CG_FA_NOUNWIND))
      LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kit_llvm__attr(l->ctx, "nounwind"));
  } else {
    /* asynchronous unwind tables (2) even when nounwind, as clang on x86-64: debuggers
     * and unwinders walk through every frame */
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(l->ctx, LLVMGetEnumAttributeKindForName("uwtable", 7), 2));
  }
  /* the sanitizer runtime unwinds by frame pointer (KitLlvmOptions.omit_frame_pointer
   * drops it again for optimised code without sanitizers) */
  /* (the emulator's blocks, KIT_JIT_NO_UNWIND, go without: nothing walks
   * their frames, and the push/pop is a measurable part of a short block) */
  if (!l->no_unwind)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(l->ctx, "frame-pointer", 13, "all", 3));
  if (l->target == KIT_TARGET_RISCV64_LINUX) {
    const char *feat = "+m,+a,+f,+d,+c";
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(l->ctx, "target-features", 15, feat, strlen(feat)));
  }
}

/* ---- globals -------------------------------------------------------------- */

static int reloc_cmp(const void *a, const void *b) {
  const KitCgReloc *x = a, *y = b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static LLVMValueRef bytes_const(KitLower *l, const uint8_t *p, uint64_t n) {
  return LLVMConstStringInContext(l->ctx, (const char *)p, (unsigned)n, 1);
}

/* &&block of a reloc: block r->blk of function r->sym, whose body is lowered
 * already (globals with block addresses are finished after the bodies);
 * lower_body appends the LLVM blocks of CG blocks 0..n-1 first, in order. */
static LLVMValueRef block_address(KitLower *l, const KitCgReloc *r) {
  const KitCgSymbol *sy = &l->m->syms[r->sym];
  LLVMValueRef fn = l->syms[r->sym];
  LLVMBasicBlockRef bb = NULL;
  if (sy->kind == KIT_CG_SYM_FUNC && r->blk && r->blk < l->m->funcs[sy->index]->nblocks && LLVMCountBasicBlocks(fn)) {
    bb = LLVMGetFirstBasicBlock(fn);
    for (uint32_t k = 0; bb && k < r->blk; k++) bb = LLVMGetNextBasicBlock(bb);
  }
  if (!bb) {
    kit_llvm__error(l, "block address of b%u of @%s: no such block", r->blk, kit_cg_sym_name(l->m, r->sym));
    return LLVMConstNull(l->ptr);
  }
  return LLVMBlockAddress(fn, bb);
}

/* The initializer: plain bytes, or with relocations a packed struct of byte
 * runs and pointer (or i32) fields, each &sym + addend. */
static LLVMValueRef global_init(KitLower *l, KitCgGlobal *g) {
  if (!g->nrelocs) return bytes_const(l, g->init, g->size);
  KitCgReloc *rs = malloc(g->nrelocs * sizeof *rs);
  memcpy(rs, g->relocs, g->nrelocs * sizeof *rs);
  qsort(rs, g->nrelocs, sizeof *rs, reloc_cmp);
  LLVMValueRef *fields = malloc((2 * g->nrelocs + 1) * sizeof *fields);
  unsigned nf = 0;
  uint64_t at = 0;
  for (uint32_t i = 0; i < g->nrelocs; i++) {
    KitCgReloc *r = &rs[i];
    if ((r->size != 8 && r->size != 4) || r->offset < at || r->offset + r->size > g->size ||
        r->sym >= l->m->nsyms) {
      kit_llvm__error(l, "global @%s: bad relocation at offset %llu", kit_cg_sym_name(l->m, g->sym),
                      (unsigned long long)r->offset);
      continue;
    }
    if (r->offset > at) fields[nf++] = bytes_const(l, g->init + at, r->offset - at);
    LLVMValueRef v = r->blk ? block_address(l, r) : l->syms[r->sym];
    if (r->blk2) {
      LLVMValueRef b2 = LLVMConstPtrToInt(block_address(l, &(KitCgReloc){.sym = r->sym, .blk = r->blk2}), l->i64);
      v = LLVMConstSub(LLVMConstPtrToInt(v, l->i64), b2);
      if (r->addend) v = LLVMConstAdd(v, LLVMConstInt(l->i64, (uint64_t)r->addend, 1));
      v = r->size == 4 ? LLVMConstTrunc(v, l->i32) : v;
      fields[nf++] = v;
      at = r->offset + r->size;
      continue;
    }
    if (r->addend) {
      LLVMValueRef off = LLVMConstInt(l->i64, (uint64_t)r->addend, 1);
      v = LLVMConstGEP2(l->i8, v, &off, 1);
    }
    if (r->size == 4) v = LLVMConstTrunc(LLVMConstPtrToInt(v, l->i64), l->i32);
    fields[nf++] = v;
    at = r->offset + r->size;
  }
  if (at < g->size) fields[nf++] = bytes_const(l, g->init + at, g->size - at);
  LLVMValueRef init = LLVMConstStructInContext(l->ctx, fields, nf, 1);
  free(fields);
  free(rs);
  return init;
}

/* JIT: the emulated-TLS control object of a TLS global, with the global's
 * linkage (common becomes weak: a common symbol cannot have an initializer). */
static void define_tls_control(KitLower *l, KitCgGlobal *g) {
  const KitCgSymbol *sy = &l->m->syms[g->sym];
  LLVMValueRef c = l->tlsctl[g->sym];
  LLVMSetVisibility(c, visibility_of(sy));
  if (!sy->defined) {
    if (sy->linkage == KIT_CG_LINK_WEAK) LLVMSetLinkage(c, LLVMExternalWeakLinkage);
    return;
  }
  LLVMSetLinkage(c, sy->linkage == KIT_CG_LINK_COMMON ? LLVMWeakAnyLinkage : linkage_of(sy));
  LLVMSetAlignment(c, 8);
  LLVMValueRef f[4] = {LLVMConstInt(l->i64, g->size, 0), LLVMConstInt(l->i64, g->align ? g->align : 1, 0),
                       l->syms[g->sym], LLVMConstInt(l->i64, 0, 0)};
  LLVMSetInitializer(c, LLVMConstNamedStruct(LLVMGlobalGetValueType(c), f, 4));
}

static void define_global(KitLower *l, KitCgGlobal *g) {
  const KitCgSymbol *sy = &l->m->syms[g->sym];
  LLVMValueRef gv = l->syms[g->sym];
  if (l->tlsctl[g->sym]) define_tls_control(l, g);
  if (g->section) LLVMSetSection(gv, kit_cg_strget(l->m, g->section));
  if (g->is_tls && !l->jit) LLVMSetThreadLocal(gv, 1);
  LLVMSetVisibility(gv, visibility_of(sy));
  if (!sy->defined) {
    if (sy->linkage == KIT_CG_LINK_WEAK) LLVMSetLinkage(gv, LLVMExternalWeakLinkage);
    return;
  }
  LLVMSetLinkage(gv, linkage_of(sy));
  LLVMSetAlignment(gv, g->align ? g->align : 1);
  LLVMSetGlobalConstant(gv, g->is_const);
  LLVMValueRef init = g->init && sy->linkage != KIT_CG_LINK_COMMON ? global_init(l, g)
                                                                  : LLVMConstNull(LLVMArrayType(l->i8, g->size));
  LLVMSetInitializer(gv, init);
}

/* Globals get their final type (from the initializer) only once every symbol
 * exists, since initializers point at each other: create them as [N x i8]
 * first, then replace those with relocations. */
static void create_global(KitLower *l, KitCgGlobal *g) {
  const KitCgSymbol *sy = &l->m->syms[g->sym];
  LLVMTypeRef ty = sy->defined ? LLVMArrayType(l->i8, g->size) : l->i8;
  l->syms[g->sym] = LLVMAddGlobal(l->mod, ty, llvm_name(l, g->sym));
  if (l->jit && g->is_tls) {
    LLVMTypeRef f[4] = {l->i64, l->i64, l->ptr, l->i64};
    LLVMTypeRef ct = LLVMStructTypeInContext(l->ctx, f, 4, 0);
    const char *base = llvm_name(l, g->sym);
    char *name = malloc(strlen(KIT_JIT_TLS_PREFIX) + strlen(base) + 1);
    strcpy(name, KIT_JIT_TLS_PREFIX);
    strcat(name, base);
    l->tlsctl[g->sym] = LLVMAddGlobal(l->mod, ct, name);
    free(name);
  }
}

static bool has_block_reloc(const KitCgGlobal *g) {
  for (uint32_t r = 0; r < g->nrelocs; r++)
    if (g->relocs[r].blk) return true;
  return false;
}

/* blockrefs: the globals whose initializers take block addresses, which
 * exist only once the function bodies are lowered; else all the others */
static void finish_globals(KitLower *l, bool blockrefs) {
  for (uint32_t i = 0; i < l->m->nglobals; i++) {
    KitCgGlobal *g = l->m->globals[i];
    if (has_block_reloc(g) != blockrefs) continue;
    LLVMValueRef old = l->syms[g->sym];
    if (!g->nrelocs || !l->m->syms[g->sym].defined || l->m->syms[g->sym].linkage == KIT_CG_LINK_COMMON) {
      define_global(l, g);
      continue;
    }
    LLVMValueRef init = global_init(l, g);
    LLVMValueRef gv = LLVMAddGlobal(l->mod, LLVMTypeOf(init), "");
    l->syms[g->sym] = gv;
    define_global(l, g);
    LLVMSetInitializer(gv, init);
    /* self-references inside init keep pointing at old: fixed by RAUW */
    LLVMReplaceAllUsesWith(old, gv);
    char *name = strdup(llvm_name(l, g->sym));
    LLVMDeleteGlobal(old);
    LLVMSetValueName2(gv, name, strlen(name));
    free(name);
  }
}

/* One pointer per entry in .init_array[.PRIO] / .fini_array[.PRIO], the
 * sections the linker sorts by priority. llvm.global_ctors would do the same
 * only with UseInitArray, which LLVM-C 16 cannot set (it would emit .ctors). */
static void init_array(KitLower *l, const char *kind, const KitCgCtor *cs, uint32_t n, LLVMValueRef *used,
                       uint32_t *nused) {
  for (uint32_t i = 0; i < n; i++) {
    if (cs[i].func >= l->m->nsyms) {
      kit_llvm__error(l, "%s: bad function symbol", kind);
      continue;
    }
    char sect[40];
    if (cs[i].priority >= 0 && cs[i].priority < 65535)
      snprintf(sect, sizeof sect, ".%s_array.%05d", kind, (int)cs[i].priority);
    else
      snprintf(sect, sizeof sect, ".%s_array", kind);
    char name[48];
    snprintf(name, sizeof name, "kit.%s.%u", kind, i);
    LLVMValueRef gv = LLVMAddGlobal(l->mod, l->ptr, name);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetInitializer(gv, l->syms[cs[i].func]);
    LLVMSetSection(gv, sect);
    LLVMSetAlignment(gv, 8);
    used[(*nused)++] = gv;
  }
}

static int prio_cmp(const void *a, const void *b) {
  const KitCgCtor *x = a, *y = b;
  return x->priority < y->priority ? -1 : x->priority > y->priority;
}

/* JIT: one external function per direction calling the entries in priority
 * order (destructors in reverse), since LLJIT's C API has no initializer run. */
static void ctor_func(KitLower *l, const char *name, const KitCgCtor *cs, uint32_t n, bool reverse) {
  LLVMValueRef fn = LLVMAddFunction(l->mod, name, LLVMFunctionType(l->voidt, NULL, 0, 0));
  LLVMBuilderRef b = l->b;
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(l->ctx, fn, ""));
  KitCgCtor *sorted = malloc((n ? n : 1) * sizeof *sorted);
  if (n) memcpy(sorted, cs, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, prio_cmp); /* stable enough: equal priorities keep no promised order */
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = reverse ? n - 1 - k : k;
    LLVMBuildCall2(b, LLVMFunctionType(l->voidt, NULL, 0, 0), l->syms[sorted[i].func], NULL, 0, "");
  }
  LLVMBuildRetVoid(b);
  free(sorted);
}

static void metadata_array(KitLower *l, const char *name, LLVMValueRef *el, uint32_t n) {
  LLVMValueRef gv = LLVMAddGlobal(l->mod, LLVMArrayType(l->ptr, n), name);
  LLVMSetLinkage(gv, LLVMAppendingLinkage);
  LLVMSetSection(gv, "llvm.metadata");
  LLVMSetInitializer(gv, LLVMConstArray(l->ptr, el, n));
}

static void used_array(KitLower *l, bool with_inits) {
  uint32_t n = with_inits ? l->m->nctors + l->m->ndtors : 0;
  for (uint32_t i = 0; i < l->m->nfuncs; i++) n += (l->m->funcs[i]->attrs & KIT_CG_FA_USED) != 0;
  if (!n) return;
  LLVMValueRef *el = malloc(n * sizeof *el);
  n = 0;
  for (uint32_t i = 0; i < l->m->nfuncs; i++)
    if ((l->m->funcs[i]->attrs & KIT_CG_FA_USED) && !kit_cg_func_is_decl(l->m->funcs[i]))
      el[n++] = l->syms[l->m->funcs[i]->sym];
  if (with_inits) {
    init_array(l, "init", l->m->ctors, l->m->nctors, el, &n);
    init_array(l, "fini", l->m->dtors, l->m->ndtors, el, &n);
  }
  if (!n) {
    free(el);
    return;
  }
  metadata_array(l, "llvm.used", el, n);
  free(el);
}

/* globals marked used (user attribute, arrays the passes made) survive
 * optimisation even when no code reads them, as clang's llvm.compiler.used */
static void compiler_used_array(KitLower *l) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < l->m->nglobals; i++) n += l->m->globals[i]->used && l->m->syms[l->m->globals[i]->sym].defined;
  if (!n) return;
  LLVMValueRef *el = malloc(n * sizeof *el);
  n = 0;
  for (uint32_t i = 0; i < l->m->nglobals; i++)
    if (l->m->globals[i]->used && l->m->syms[l->m->globals[i]->sym].defined) el[n++] = l->syms[l->m->globals[i]->sym];
  metadata_array(l, "llvm.compiler.used", el, n);
  free(el);
}

/* ---- debug info ------------------------------------------------------------ */

/* An absolute path splits into directory and name; a relative one is kept
 * whole and resolved against the compilation directory, as gcc records it
 * (DW_AT_name "src/a.c", DW_AT_comp_dir "/home/me/proj"), so symbolizers and
 * debuggers find the file from any working directory. */
static LLVMMetadataRef di_file_path(KitLower *l, const char *path) {
  if (path[0] == '/') {
    const char *slash = strrchr(path, '/');
    return LLVMDIBuilderCreateFile(l->dib, slash + 1, strlen(slash + 1), path, (size_t)(slash - path));
  }
  char cwd[4096];
  const char *dir = getcwd(cwd, sizeof cwd) ? cwd : ".";
  return LLVMDIBuilderCreateFile(l->dib, path, strlen(path), dir, strlen(dir));
}

LLVMMetadataRef kit_llvm__difile(KitLower *l, uint32_t str) {
  if (!l->difiles[str]) l->difiles[str] = di_file_path(l, kit_cg_strget(l->m, str));
  return l->difiles[str];
}

static void debug_begin(KitLower *l, const char *source_name) {
  l->dib = LLVMCreateDIBuilder(l->mod);
  l->difiles = calloc(l->m->nstrs, sizeof *l->difiles);
  const char *cufile = source_name ? source_name : kit_cg_strget(l->m, l->m->name);
  l->cu_file = di_file_path(l, cufile);
  l->cu = LLVMDIBuilderCreateCompileUnit(l->dib, LLVMDWARFSourceLanguageC11, l->cu_file, "kit", 3, 0, "", 0,
                                         0, "", 0, LLVMDWARFEmissionFull, 0, 0, 0, "", 0, "", 0);
  LLVMAddModuleFlag(l->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                    LLVMValueAsMetadata(LLVMConstInt(l->i32, LLVMDebugMetadataVersion(), 0)));
  LLVMAddModuleFlag(l->mod, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
                    LLVMValueAsMetadata(LLVMConstInt(l->i32, 4, 0)));
  kit_llvm__debug_begin_types(l);
}

/* A subprogram only for functions that carry file locations: lifted guest
 * code (pc locations) gets no line table. */
static LLVMMetadataRef debug_func(KitLower *l, KitCgFunc *f, LLVMValueRef fn) {
  uint32_t file = f->loc.file, line = f->loc.line;
  for (uint32_t b = 0; !file && b < f->nblocks; b++)
    for (uint32_t i = 0; !file && i < f->blocks[b].ninsts; i++)
      if (f->blocks[b].insts[i].loc.file) {
        file = f->blocks[b].insts[i].loc.file;
        line = f->blocks[b].insts[i].loc.line;
      }
  if (!file || file >= l->m->nstrs) return NULL;
  LLVMMetadataRef df = kit_llvm__difile(l, file);
  l->sp_file = file;
  LLVMMetadataRef st = kit_llvm__disubroutine(l, f, df);
  size_t nlen;
  const char *name = LLVMGetValueName2(fn, &nlen);
  bool local = l->m->syms[f->sym].linkage == KIT_CG_LINK_INTERNAL;
  LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(l->dib, df, name, nlen, name, nlen, df, line, st, local, 1, line,
                                                   LLVMDIFlagPrototyped, 0);
  LLVMSetSubprogram(fn, sp);
  return sp;
}

/* ---- module ------------------------------------------------------------------ */

static void create_symbols(KitLower *l) {
  KitCgModule *m = l->m;
  for (uint32_t s = 0; s < m->nsyms; s++) {
    const KitCgSymbol *sy = &m->syms[s];
    if (sy->kind == KIT_CG_SYM_FUNC) {
      KitCgFunc *f = m->funcs[sy->index];
      LLVMTypeRef ft = l->ftypes[sy->index] = func_type(l, f);
      LLVMValueRef fn = LLVMAddFunction(l->mod, llvm_name(l, s), ft);
      l->syms[s] = fn;
      LLVMSetLinkage(fn, linkage_of(sy));
      LLVMSetVisibility(fn, visibility_of(sy));
      func_attrs(l, f, fn);
    } else if (sy->kind == KIT_CG_SYM_GLOBAL) {
      create_global(l, m->globals[sy->index]);
    }
  }
  /* aliases last, repeatedly, since an alias may name a later alias */
  for (bool progress = true; progress;) {
    progress = false;
    for (uint32_t s = 0; s < m->nsyms; s++) {
      const KitCgSymbol *sy = &m->syms[s];
      if (sy->kind != KIT_CG_SYM_ALIAS || l->syms[s] || sy->index >= m->nsyms || !l->syms[sy->index]) continue;
      LLVMValueRef target = l->syms[sy->index];
      LLVMValueRef a = LLVMAddAlias2(l->mod, LLVMGlobalGetValueType(target), 0, target, llvm_name(l, s));
      LLVMSetLinkage(a, sy->linkage == KIT_CG_LINK_INTERNAL ? LLVMInternalLinkage
                        : sy->linkage == KIT_CG_LINK_WEAK   ? LLVMWeakAnyLinkage
                                                            : LLVMExternalLinkage);
      LLVMSetVisibility(a, visibility_of(sy));
      l->syms[s] = a;
      progress = true;
    }
  }
  for (uint32_t s = 0; s < m->nsyms; s++)
    if (m->syms[s].kind == KIT_CG_SYM_ALIAS && !l->syms[s]) {
      kit_llvm__error(l, "alias @%s: target is not a symbol of the module (or a cycle)", kit_cg_sym_name(m, s));
      l->syms[s] = LLVMConstNull(l->ptr);
    }
}

LLVMModuleRef kit_llvm__lower(KitCgModule *m, LLVMContextRef ctx, LLVMTargetMachineRef tm, KitTarget target,
                              bool debug_info, const char *source_name, bool jit, int jit_flags, const char *init_tag,
                              FILE *err) {
  KitLower L = {.m = m, .ctx = ctx, .target = target, .err = err, .jit = jit}, *l = &L;
  l->no_unwind = jit_flags & KIT_JIT_NO_UNWIND;
  l->mod = LLVMModuleCreateWithNameInContext(kit_cg_strget(m, m->name), ctx);
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(l->mod, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(l->mod, td);
  LLVMDisposeTargetData(td);
  init_types(l);
  l->b = LLVMCreateBuilderInContext(ctx);
  l->syms = calloc(m->nsyms + 1, sizeof *l->syms);
  l->tlsctl = calloc(m->nsyms + 1, sizeof *l->tlsctl);
  l->ftypes = calloc(m->nfuncs + 1, sizeof *l->ftypes);
  if (target == KIT_TARGET_RISCV64_LINUX)
    LLVMAddModuleFlag(l->mod, LLVMModuleFlagBehaviorError, "target-abi", 10, LLVMMDStringInContext2(ctx, "lp64d", 5));
  if (debug_info) debug_begin(l, source_name);
  kit_llvm__module_asm(l);
  create_symbols(l);
  finish_globals(l, false);
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    KitCgFunc *f = m->funcs[i];
    if (kit_cg_func_is_decl(f)) continue;
    LLVMValueRef fn = l->syms[f->sym];
    l->sp = l->dib ? debug_func(l, f, fn) : NULL;
    kit_llvm__lower_body(l, f, fn);
  }
  finish_globals(l, true);
  if (l->dib) kit_llvm__debug_globals(l);
  if (init_tag) {
    char name[128];
    snprintf(name, sizeof name, "__kit_init.%s", init_tag);
    ctor_func(l, name, m->ctors, m->nctors, false);
    snprintf(name, sizeof name, "__kit_fini.%s", init_tag);
    ctor_func(l, name, m->dtors, m->ndtors, true);
  }
  used_array(l, !init_tag);
  compiler_used_array(l);
  if (l->dib) {
    kit_llvm__debug_end_types(l);
    LLVMDIBuilderFinalize(l->dib);
    LLVMDisposeDIBuilder(l->dib);
  }
  LLVMDisposeBuilder(l->b);
  free(l->syms);
  free(l->tlsctl);
  free(l->ftypes);
  free(l->difiles);
  if (!l->nerrs && !(jit_flags & KIT_JIT_NO_VERIFY)) {
    char *msg = NULL;
    if (LLVMVerifyModule(l->mod, LLVMReturnStatusAction, &msg)) {
      if (err) fprintf(err, "llvm: internal error: the lowered module does not verify:\n%s", msg);
      l->nerrs++;
    }
    LLVMDisposeMessage(msg);
  }
  if (l->nerrs) {
    LLVMDisposeModule(l->mod);
    return NULL;
  }
  return l->mod;
}
