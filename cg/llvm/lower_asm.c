/* cg/llvm/lower_asm.c — GNU inline assembly to LLVM: an ASM inst becomes a
 * call of an InlineAsm value (AT&T dialect), ASMGOTO a callbr (callbr.cpp);
 * direct outputs come back as the call's result (a struct for several) and
 * are stored through their pointers; module-level asm is appended as is. */
#include "llvm.h"

#include <stdlib.h>
#include <string.h>

LLVMValueRef kit_llvm__callbr(LLVMBuilderRef b, LLVMTypeRef fty, LLVMValueRef callee, LLVMBasicBlockRef dflt,
                              LLVMBasicBlockRef *indirect, unsigned nindirect, LLVMValueRef *args, unsigned nargs);

void kit_llvm__module_asm(KitLower *l) {
  for (uint32_t i = 0; i < l->m->nasms; i++) {
    const char *s = kit_cg_strget(l->m, l->m->asms[i]);
    LLVMAppendModuleInlineAsm(l->mod, s, strlen(s)); /* LLVM ends each piece with a newline */
  }
}

static LLVMValueRef opval(KitLower *l, KitCgVal v) {
  if (!v || v >= l->f->nvals || !l->vals[v]) return LLVMGetUndef(l->ptr);
  return l->vals[v];
}

static LLVMBasicBlockRef label(KitLower *l, KitCgBlkId b) {
  if (b < l->f->nblocks) return l->blocks[b];
  kit_llvm__error(l, "@%s: asm.goto to missing block b%u", kit_cg_func_name(l->m, l->f), b);
  return l->blocks[0];
}

/* An operand list split by what the entries make of it. */
typedef struct AsmOps {
  LLVMValueRef *args, *outp; /* LLVM call arguments; pointers the direct outputs go to */
  LLVMTypeRef *argt, *outt;
  uint32_t nargs, nouts;
  LLVMTypeRef *elem;         /* per call argument: elementtype of a memory operand, or NULL */
  bool mem_in, mem_out;      /* memory operands read, written */
} AsmOps;

static void split_ops(KitLower *l, const KitCgInst *in, const uint8_t *kinds, int n, AsmOps *o) {
  uint32_t k = 0;
  for (int e = 0; e < n && k < in->nargs; e++) {
    if (!kit_cg_asm_takes_arg(kinds[e])) continue;
    KitCgType et = in->argattrs ? (KitCgType)in->argattrs[k].type : KIT_CG_VOID;
    LLVMValueRef v = opval(l, in->args[k++]);
    if (kinds[e] == KIT_CG_ASM_OUT) {
      o->outp[o->nouts] = v;
      o->outt[o->nouts++] = kit_llvm__type(l, et);
      continue;
    }
    o->elem[o->nargs] = kinds[e] == KIT_CG_ASM_IN ? NULL : kit_llvm__type(l, et);
    o->mem_in |= kinds[e] == KIT_CG_ASM_IN_MEM;
    o->mem_out |= kinds[e] == KIT_CG_ASM_OUT_MEM;
    o->args[o->nargs] = v;
    o->argt[o->nargs++] = LLVMTypeOf(v);
  }
}

/* as clang: an asm without side effects that touches no memory is
 * memory(none), one that only reads memory operands memory(read) */
static void call_attrs(KitLower *l, const KitCgInst *in, const AsmOps *o, const char *cons, LLVMValueRef call) {
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, kit_llvm__attr(l->ctx, "nounwind"));
  unsigned ek = LLVMGetEnumAttributeKindForName("elementtype", 11);
  for (uint32_t i = 0; i < o->nargs; i++)
    if (o->elem[i]) LLVMAddCallSiteAttribute(call, i + 1, LLVMCreateTypeAttribute(l->ctx, ek, o->elem[i]));
  if ((in->flags & KIT_CG_F_VOLATILE) || strstr(cons, "~{memory}") || o->mem_out) return;
  unsigned mk = LLVMGetEnumAttributeKindForName("memory", 6);
  /* MemoryEffects: two bits (ref, mod) per location kind, three kinds */
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->ctx, mk, o->mem_in ? 0x15 : 0));
}

/* the direct outputs: stored through their pointers, in the block the builder is at */
static void store_outs(KitLower *l, const AsmOps *o, LLVMValueRef call) {
  for (uint32_t i = 0; i < o->nouts; i++) {
    LLVMValueRef v = o->nouts == 1 ? call : LLVMBuildExtractValue(l->b, call, i, "");
    LLVMBuildStore(l->b, v, o->outp[i]);
  }
}

void kit_llvm__asm(KitLower *l, const KitCgInst *in) {
  const char *tmpl = in->aux < l->m->nstrs ? kit_cg_strget(l->m, in->aux) : "";
  const char *cons = in->imm < l->m->nstrs ? kit_cg_strget(l->m, (uint32_t)in->imm) : "";
  int n = kit_cg_asm_entries(cons, NULL, 0);
  if (n < 0) {
    kit_llvm__error(l, "@%s: malformed asm constraints \"%s\"", kit_cg_func_name(l->m, l->f), cons);
    return;
  }
  uint8_t *kinds = malloc((size_t)n + 1);
  size_t na = in->nargs + 1;
  AsmOps o = {.args = malloc(na * sizeof *o.args), .outp = malloc(na * sizeof *o.outp),
              .argt = malloc(na * sizeof *o.argt), .outt = malloc(na * sizeof *o.outt),
              .elem = malloc(na * sizeof *o.elem)};
  kit_cg_asm_entries(cons, kinds, n);
  split_ops(l, in, kinds, n, &o);
  LLVMTypeRef rt = !o.nouts ? l->voidt : o.nouts == 1 ? o.outt[0] : LLVMStructTypeInContext(l->ctx, o.outt, o.nouts, 0);
  LLVMTypeRef fty = LLVMFunctionType(rt, o.argt, o.nargs, 0);
  LLVMValueRef ia = LLVMGetInlineAsm(fty, (char *)tmpl, strlen(tmpl), (char *)cons, strlen(cons),
                                     (in->flags & KIT_CG_F_VOLATILE) != 0, 0, LLVMInlineAsmDialectATT, 0);
  LLVMValueRef call;
  if (in->op == KIT_CG_OP_ASMGOTO && in->nblks) {
    LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b), dflt = label(l, in->blks[0]);
    LLVMBasicBlockRef *ind = malloc(in->nblks * sizeof *ind);
    for (uint32_t i = 1; i < in->nblks; i++) ind[i - 1] = label(l, in->blks[i]);
    LLVMBasicBlockRef ft = o.nouts ? LLVMAppendBasicBlockInContext(l->ctx, l->fn, "asm.fallthrough") : dflt;
    call = kit_llvm__callbr(l->b, fty, ia, ft, ind, in->nblks - 1, o.args, o.nargs);
    free(ind);
    if (o.nouts) {
      LLVMPositionBuilderAtEnd(l->b, ft);
      store_outs(l, &o, call);
      LLVMBuildBr(l->b, dflt);
      LLVMPositionBuilderAtEnd(l->b, here); /* phis of the labels name the callbr's block */
    }
  } else {
    call = LLVMBuildCall2(l->b, fty, ia, o.args, o.nargs, "");
    store_outs(l, &o, call);
  }
  call_attrs(l, in, &o, cons, call);
  free(kinds);
  free(o.args);
  free(o.outp);
  free(o.argt);
  free(o.outt);
  free(o.elem);
}
