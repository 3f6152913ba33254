/* cg/llvm/debug.c — CG's debug-info side table (ditypes, function variables,
 * described globals) -> DWARF through LLVM's DIBuilder: one DI type per
 * ditype, a dbg.declare per variable on its stack slot (or byval parameter),
 * a global variable expression per described global. The line table and the
 * subprograms are lower.c's and lower_inst.c's. */
#include "llvm.h"

#include <stdlib.h>
#include <string.h>

#define DW_TAG_CONST 0x26
#define DW_TAG_VOLATILE 0x35
#define DW_OP_DEREF 0x06
#define DW_OP_PLUS_UCONST 0x23

static const char *str(KitLower *l, uint32_t s) { return s < l->m->nstrs ? kit_cg_strget(l->m, s) : ""; }

static LLVMMetadataRef file_of(KitLower *l, const KitCgLoc *loc) {
  if (loc->file && loc->file < l->m->nstrs) return kit_llvm__difile(l, loc->file);
  return l->cu_file;
}

void kit_llvm__debug_begin_types(KitLower *l) {
  uint32_t n = l->m->nditypes + 1;
  l->ditypes = calloc(n, sizeof *l->ditypes);
  l->ditemps = calloc(n, sizeof *l->ditemps);
  l->dibusy = calloc(n, 1);
  if (!l->ditypes || !l->ditemps || !l->dibusy) abort();
}

void kit_llvm__debug_end_types(KitLower *l) {
  /* a temporary left means a type never finished: nothing refers to it then */
  for (uint32_t i = 0; i <= l->m->nditypes; i++)
    if (l->ditemps[i]) LLVMDisposeTemporaryMDNode(l->ditemps[i]);
  free(l->ditypes);
  free(l->ditemps);
  free(l->dibusy);
  l->ditypes = l->ditemps = NULL;
  l->dibusy = NULL;
}

static LLVMMetadataRef ditype(KitLower *l, uint32_t t);

/* a type being built that refers back to itself (through a pointer or a
 * member) gets a temporary node, replaced once the type exists */
static LLVMMetadataRef placeholder(KitLower *l, uint32_t t) {
  if (!l->ditemps[t]) l->ditemps[t] = LLVMTemporaryMDNode(l->ctx, NULL, 0);
  return l->ditemps[t];
}

/* bytes of a ditype, seen through typedefs and qualifiers */
static uint64_t size_of(KitLower *l, uint32_t t) {
  for (uint32_t steps = 0; t && t < l->m->nditypes && steps < l->m->nditypes; steps++) {
    const KitCgDiType *d = &l->m->ditypes[t];
    if (d->kind != KIT_CG_DI_TYPEDEF && d->kind != KIT_CG_DI_CONST && d->kind != KIT_CG_DI_VOLATILE) return d->size;
    t = d->base;
  }
  return 0;
}

static LLVMMetadataRef composite(KitLower *l, uint32_t t, const KitCgDiType *d) {
  LLVMMetadataRef self = placeholder(l, t), file = file_of(l, &d->loc);
  const char *name = str(l, d->name);
  LLVMMetadataRef *el = calloc(d->nmembers + 1, sizeof *el);
  if (!el) abort();
  for (uint32_t k = 0; k < d->nmembers; k++) {
    const KitCgDiMember *mb = &d->members[k];
    uint64_t msize = size_of(l, mb->type);
    LLVMMetadataRef ty = ditype(l, mb->type);
    const char *mn = str(l, mb->name);
    if (mb->bit_size) {
      uint64_t unit = msize ? msize * 8 : 32;
      el[k] = LLVMDIBuilderCreateBitFieldMemberType(l->dib, self, mn, strlen(mn), file, d->loc.line, mb->bit_size,
                                                    mb->offset_bits, mb->offset_bits / unit * unit, LLVMDIFlagZero,
                                                    ty);
    } else {
      el[k] = LLVMDIBuilderCreateMemberType(l->dib, self, mn, strlen(mn), file, d->loc.line, msize * 8,
                                            0, mb->offset_bits, LLVMDIFlagZero, ty);
    }
  }
  LLVMDIFlags fl = d->flags & KIT_CG_DIF_DECL ? LLVMDIFlagFwdDecl : LLVMDIFlagZero;
  uint64_t bits = d->flags & KIT_CG_DIF_DECL ? 0 : d->size * 8;
  LLVMMetadataRef r;
  if (d->kind == KIT_CG_DI_UNION)
    r = LLVMDIBuilderCreateUnionType(l->dib, l->cu, name, strlen(name), file, d->loc.line, bits, d->align * 8, fl, el,
                                     d->nmembers, 0, "", 0);
  else
    r = LLVMDIBuilderCreateStructType(l->dib, l->cu, name, strlen(name), file, d->loc.line, bits, d->align * 8, fl,
                                      NULL, el, d->nmembers, 0, NULL, "", 0);
  free(el);
  return r;
}

static LLVMMetadataRef enumeration(KitLower *l, const KitCgDiType *d) {
  LLVMMetadataRef *el = calloc(d->nmembers + 1, sizeof *el);
  if (!el) abort();
  for (uint32_t k = 0; k < d->nmembers; k++) {
    const char *n = str(l, d->members[k].name);
    el[k] = LLVMDIBuilderCreateEnumerator(l->dib, n, strlen(n), d->members[k].value, 0);
  }
  const char *name = str(l, d->name);
  LLVMMetadataRef r = LLVMDIBuilderCreateEnumerationType(l->dib, l->cu, name, strlen(name), file_of(l, &d->loc),
                                                         d->loc.line, d->size * 8, d->align * 8, el, d->nmembers,
                                                         ditype(l, d->base));
  free(el);
  return r;
}

/* return type first; a variadic type ends with a null entry (DWARF's
 * unspecified parameters) */
static LLVMMetadataRef subroutine(KitLower *l, const KitCgDiType *d, LLVMMetadataRef file) {
  LLVMMetadataRef *el = calloc(d->nmembers + 2, sizeof *el);
  if (!el) abort();
  unsigned n = 0;
  el[n++] = ditype(l, d->base);
  for (uint32_t k = 0; k < d->nmembers; k++) el[n++] = ditype(l, d->members[k].type);
  if (d->flags & KIT_CG_DIF_VARIADIC) el[n++] = NULL;
  LLVMMetadataRef r = LLVMDIBuilderCreateSubroutineType(l->dib, file, el, n, LLVMDIFlagPrototyped);
  free(el);
  return r;
}

static LLVMMetadataRef build(KitLower *l, uint32_t t, const KitCgDiType *d) {
  const char *name = str(l, d->name);
  switch (d->kind) {
  case KIT_CG_DI_BASE:
    return LLVMDIBuilderCreateBasicType(l->dib, name, strlen(name), d->size * 8, d->encoding, LLVMDIFlagZero);
  case KIT_CG_DI_POINTER:
    return LLVMDIBuilderCreatePointerType(l->dib, ditype(l, d->base), (d->size ? d->size : 8) * 8, 0, 0, "", 0);
  case KIT_CG_DI_TYPEDEF:
    return LLVMDIBuilderCreateTypedef(l->dib, ditype(l, d->base), name, strlen(name), file_of(l, &d->loc), d->loc.line,
                                      l->cu, 0);
  case KIT_CG_DI_STRUCT:
  case KIT_CG_DI_UNION: return composite(l, t, d);
  case KIT_CG_DI_ARRAY: {
    LLVMMetadataRef sub = LLVMDIBuilderGetOrCreateSubrange(l->dib, 0, d->count < 0 ? -1 : d->count);
    return LLVMDIBuilderCreateArrayType(l->dib, d->size * 8, d->align * 8, ditype(l, d->base), &sub, 1);
  }
  case KIT_CG_DI_ENUM: return enumeration(l, d);
  case KIT_CG_DI_FUNC: return subroutine(l, d, file_of(l, &d->loc));
  case KIT_CG_DI_CONST: return LLVMDIBuilderCreateQualifiedType(l->dib, DW_TAG_CONST, ditype(l, d->base));
  case KIT_CG_DI_VOLATILE: return LLVMDIBuilderCreateQualifiedType(l->dib, DW_TAG_VOLATILE, ditype(l, d->base));
  default: return LLVMDIBuilderCreateUnspecifiedType(l->dib, "?", 1);
  }
}

/* the DI type of ditype t; NULL for 0 (void) */
static LLVMMetadataRef ditype(KitLower *l, uint32_t t) {
  if (!t || t >= l->m->nditypes) return NULL;
  if (l->ditypes[t]) return l->ditypes[t];
  if (l->dibusy[t]) return placeholder(l, t);
  l->dibusy[t] = 1;
  LLVMMetadataRef r = build(l, t, &l->m->ditypes[t]);
  l->dibusy[t] = 0;
  l->ditypes[t] = r;
  if (l->ditemps[t]) {
    LLVMMetadataReplaceAllUsesWith(l->ditemps[t], r);
    l->ditemps[t] = NULL;
  }
  return r;
}

LLVMMetadataRef kit_llvm__disubroutine(KitLower *l, const KitCgFunc *f, LLVMMetadataRef file) {
  if (f->ditype && f->ditype < l->m->nditypes && l->m->ditypes[f->ditype].kind == KIT_CG_DI_FUNC)
    return subroutine(l, &l->m->ditypes[f->ditype], file);
  return LLVMDIBuilderCreateSubroutineType(l->dib, file, NULL, 0, LLVMDIFlagZero);
}

void kit_llvm__debug_globals(KitLower *l) {
  unsigned dbg = LLVMGetMDKindIDInContext(l->ctx, "dbg", 3);
  for (uint32_t i = 0; i < l->m->nglobals; i++) {
    const KitCgGlobal *g = l->m->globals[i];
    const KitCgSymbol *sy = &l->m->syms[g->sym];
    if (!g->ditype || !sy->defined || !l->syms[g->sym] || !LLVMIsAGlobalVariable(l->syms[g->sym])) continue;
    const char *name = g->diname ? str(l, g->diname) : kit_cg_sym_name(l->m, g->sym);
    LLVMMetadataRef expr = LLVMDIBuilderCreateExpression(l->dib, NULL, 0);
    LLVMMetadataRef gve = LLVMDIBuilderCreateGlobalVariableExpression(
        l->dib, l->cu, name, strlen(name), NULL, 0, file_of(l, &g->loc), g->loc.line, ditype(l, g->ditype),
        sy->linkage == KIT_CG_LINK_INTERNAL, expr, NULL, 0);
    LLVMGlobalSetMetadata(l->syms[g->sym], dbg, gve);
  }
}

/* dbg.declare of every variable of the function being lowered, at the end of
 * the entry block built so far (after the allocas) */
void kit_llvm__debug_vars(KitLower *l) {
  const KitCgFunc *f = l->f;
  for (uint32_t i = 0; i < f->ndivars; i++) {
    const KitCgDiVar *v = &f->divars[i];
    LLVMValueRef storage = v->at == KIT_CG_DV_VALUE ? (v->where < f->nvals ? l->vals[v->where] : NULL)
                           : v->where < f->nstack   ? l->allocas[v->where]
                                                    : NULL;
    if (!storage) continue;
    const char *name = str(l, v->name);
    LLVMMetadataRef file = file_of(l, &v->loc), ty = ditype(l, v->type), var;
    if (v->arg)
      var = LLVMDIBuilderCreateParameterVariable(l->dib, l->sp, name, strlen(name), v->arg, file, v->loc.line, ty, 1,
                                                 LLVMDIFlagZero);
    else
      var = LLVMDIBuilderCreateAutoVariable(l->dib, l->sp, name, strlen(name), file, v->loc.line, ty, 1,
                                            LLVMDIFlagZero, 0);
    uint64_t ops[3];
    size_t n = 0;
    if (v->deref) ops[n++] = DW_OP_DEREF;
    if (v->offset) {
      ops[n++] = DW_OP_PLUS_UCONST;
      ops[n++] = v->offset;
    }
    LLVMMetadataRef expr = LLVMDIBuilderCreateExpression(l->dib, n ? ops : NULL, n);
    LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(l->ctx, v->loc.line, v->loc.col, l->sp, NULL);
    LLVMDIBuilderInsertDeclareAtEnd(l->dib, storage, var, expr, loc, LLVMGetInsertBlock(l->b));
  }
}
