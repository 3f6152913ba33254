/* cg/llvm/lower_inst.c — CG function bodies -> LLVM IR: one case per op of
 * include/kit/cg_ops.def, blocks in reverse postorder so definitions come
 * before uses, phis completed once every block exists. CG semantics that
 * differ from LLVM's defaults are spelled out here (docs/cg.md). */
#include "llvm.h"

#include <stdlib.h>
#include <string.h>

static LLVMValueRef val(KitLower *l, KitCgVal v) {
  if (v == 0 || v >= l->f->nvals) {
    kit_llvm__error(l, "@%s: bad value %%%u", kit_cg_func_name(l->m, l->f), v);
    return LLVMGetUndef(l->i64);
  }
  if (!l->vals[v]) return LLVMGetUndef(kit_llvm__type(l, (KitCgType)l->f->vtype[v]));
  return l->vals[v];
}

static LLVMValueRef ci32(KitLower *l, uint64_t v) { return LLVMConstInt(l->i32, v, 0); }
static LLVMValueRef ci1(KitLower *l, bool v) { return LLVMConstInt(l->tys[KIT_CG_I1], v, 0); }

static LLVMValueRef intrin1(KitLower *l, const char *name, LLVMValueRef x) {
  LLVMTypeRef t = LLVMTypeOf(x);
  return kit_llvm__intrinsic(l, name, &t, 1, &x, 1);
}

static LLVMValueRef intrin2(KitLower *l, const char *name, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef a[2] = {x, y};
  return kit_llvm__intrinsic(l, name, &t, 1, a, 2);
}

/* a constant vector of lanes copies of c */
static LLVMValueRef splat(LLVMValueRef c, unsigned lanes) {
  LLVMValueRef v[128];
  for (unsigned i = 0; i < lanes && i < 128; i++) v[i] = c;
  return LLVMConstVector(v, lanes);
}

static LLVMValueRef constant(KitLower *l, const KitCgInst *in) {
  LLVMTypeRef t = kit_llvm__type(l, in->type);
  switch (in->type) {
  case KIT_CG_I128: {
    uint64_t w[2] = {in->imm, in->imm2};
    return LLVMConstIntOfArbitraryPrecision(t, 2, w);
  }
  case KIT_CG_F32: return LLVMConstBitCast(LLVMConstInt(l->i32, in->imm, 0), t);
  case KIT_CG_F64: return LLVMConstBitCast(LLVMConstInt(l->i64, in->imm, 0), t);
  case KIT_CG_F80: {
    if (l->target != KIT_TARGET_X86_64_LINUX) return LLVMGetUndef(t);
    uint64_t w[2] = {in->imm, in->imm2 & 0xffff};
    return LLVMConstBitCast(LLVMConstIntOfArbitraryPrecision(LLVMIntTypeInContext(l->ctx, 80), 2, w), t);
  }
  case KIT_CG_PTR: return LLVMConstIntToPtr(LLVMConstInt(l->i64, in->imm, 0), t);
  case KIT_CG_VOID: kit_llvm__error(l, "@%s: void constant", kit_cg_func_name(l->m, l->f)); return LLVMGetUndef(l->i8);
  default: return LLVMConstInt(t, in->imm, 0);
  }
}

static LLVMValueRef shift(KitLower *l, const KitCgInst *in, LLVMValueRef x, LLVMValueRef y) {
  /* CG takes the amount modulo the width unless the frontend knows it is in range */
  if (!(in->flags & KIT_CG_F_SHIFT_INRANGE)) {
    KitCgType e = kit_cg_type_elem((KitCgType)in->type);
    LLVMValueRef mask = LLVMConstInt(kit_llvm__type(l, e), kit_cg_type_bits(e) - 1, 0);
    if (kit_cg_type_is_vec((KitCgType)in->type)) mask = splat(mask, kit_cg_type_lanes((KitCgType)in->type));
    y = LLVMBuildAnd(l->b, y, mask, "");
  }
  switch (in->op) {
  case KIT_CG_OP_SHL: return LLVMBuildShl(l->b, x, y, "");
  case KIT_CG_OP_LSHR: return LLVMBuildLShr(l->b, x, y, "");
  default: return LLVMBuildAShr(l->b, x, y, "");
  }
}

static LLVMValueRef binop(KitLower *l, const KitCgInst *in, LLVMValueRef x, LLVMValueRef y) {
  LLVMBuilderRef b = l->b;
  bool nsw = in->flags & KIT_CG_F_NSW, nuw = in->flags & KIT_CG_F_NUW;
  switch (in->op) {
  case KIT_CG_OP_ADD: return nsw ? LLVMBuildNSWAdd(b, x, y, "") : nuw ? LLVMBuildNUWAdd(b, x, y, "") : LLVMBuildAdd(b, x, y, "");
  case KIT_CG_OP_SUB: return nsw ? LLVMBuildNSWSub(b, x, y, "") : nuw ? LLVMBuildNUWSub(b, x, y, "") : LLVMBuildSub(b, x, y, "");
  case KIT_CG_OP_MUL: return nsw ? LLVMBuildNSWMul(b, x, y, "") : nuw ? LLVMBuildNUWMul(b, x, y, "") : LLVMBuildMul(b, x, y, "");
  case KIT_CG_OP_SDIV: return in->flags & KIT_CG_F_EXACT ? LLVMBuildExactSDiv(b, x, y, "") : LLVMBuildSDiv(b, x, y, "");
  case KIT_CG_OP_UDIV: return in->flags & KIT_CG_F_EXACT ? LLVMBuildExactUDiv(b, x, y, "") : LLVMBuildUDiv(b, x, y, "");
  case KIT_CG_OP_SREM: return LLVMBuildSRem(b, x, y, "");
  case KIT_CG_OP_UREM: return LLVMBuildURem(b, x, y, "");
  case KIT_CG_OP_AND: return LLVMBuildAnd(b, x, y, "");
  case KIT_CG_OP_OR: return LLVMBuildOr(b, x, y, "");
  case KIT_CG_OP_XOR: return LLVMBuildXor(b, x, y, "");
  case KIT_CG_OP_SHL: case KIT_CG_OP_LSHR: case KIT_CG_OP_ASHR: return shift(l, in, x, y);
  case KIT_CG_OP_SMIN: return intrin2(l, "llvm.smin", x, y);
  case KIT_CG_OP_SMAX: return intrin2(l, "llvm.smax", x, y);
  case KIT_CG_OP_UMIN: return intrin2(l, "llvm.umin", x, y);
  case KIT_CG_OP_UMAX: return intrin2(l, "llvm.umax", x, y);
  case KIT_CG_OP_FADD: return LLVMBuildFAdd(b, x, y, "");
  case KIT_CG_OP_FSUB: return LLVMBuildFSub(b, x, y, "");
  case KIT_CG_OP_FMUL: return LLVMBuildFMul(b, x, y, "");
  case KIT_CG_OP_FDIV: return LLVMBuildFDiv(b, x, y, "");
  case KIT_CG_OP_FREM: return LLVMBuildFRem(b, x, y, "");
  case KIT_CG_OP_FMIN: return intrin2(l, "llvm.minnum", x, y);
  case KIT_CG_OP_FMAX: return intrin2(l, "llvm.maxnum", x, y);
  case KIT_CG_OP_FCOPYSIGN: return intrin2(l, "llvm.copysign", x, y);
  default: break;
  }
  const char *ovf = NULL;
  switch (in->op) {
  case KIT_CG_OP_SADDO: ovf = "llvm.sadd.with.overflow"; break;
  case KIT_CG_OP_UADDO: ovf = "llvm.uadd.with.overflow"; break;
  case KIT_CG_OP_SSUBO: ovf = "llvm.ssub.with.overflow"; break;
  case KIT_CG_OP_USUBO: ovf = "llvm.usub.with.overflow"; break;
  case KIT_CG_OP_SMULO: ovf = "llvm.smul.with.overflow"; break;
  case KIT_CG_OP_UMULO: ovf = "llvm.umul.with.overflow"; break;
  default: return NULL;
  }
  return LLVMBuildExtractValue(b, intrin2(l, ovf, x, y), 1, "");
}

static LLVMValueRef unop(KitLower *l, const KitCgInst *in, LLVMValueRef x) {
  LLVMBuilderRef b = l->b;
  unsigned bits = kit_cg_type_bits(kit_cg_type_elem((KitCgType)in->type));
  switch (in->op) {
  case KIT_CG_OP_NEG: return in->flags & KIT_CG_F_NSW ? LLVMBuildNSWNeg(b, x, "") : LLVMBuildNeg(b, x, "");
  case KIT_CG_OP_NOT: return LLVMBuildNot(b, x, "");
  case KIT_CG_OP_BSWAP: return bits < 16 ? x : intrin1(l, "llvm.bswap", x);
  case KIT_CG_OP_CLZ: return intrin2(l, "llvm.ctlz", x, ci1(l, false)); /* clz(0) = width */
  case KIT_CG_OP_CTZ: return intrin2(l, "llvm.cttz", x, ci1(l, false));
  case KIT_CG_OP_POPCNT: return intrin1(l, "llvm.ctpop", x);
  case KIT_CG_OP_FNEG: return LLVMBuildFNeg(b, x, "");
  case KIT_CG_OP_FABS: return intrin1(l, "llvm.fabs", x);
  case KIT_CG_OP_FSQRT: return intrin1(l, "llvm.sqrt", x);
  default: return NULL;
  }
}

static LLVMIntPredicate ipred(unsigned p) {
  static const LLVMIntPredicate t[] = {LLVMIntEQ,  LLVMIntNE,  LLVMIntSLT, LLVMIntSLE, LLVMIntSGT,
                                       LLVMIntSGE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
  return p < 10 ? t[p] : LLVMIntEQ;
}

static LLVMRealPredicate fpred(unsigned p) {
  static const LLVMRealPredicate t[] = {
      LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE, LLVMRealOLT, LLVMRealOLE,
      LLVMRealOGT, LLVMRealOGE, LLVMRealOEQ, LLVMRealONE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE,
      LLVMRealUEQ, LLVMRealUNE, LLVMRealULT, LLVMRealULE, LLVMRealUGT, LLVMRealUGE, LLVMRealORD, LLVMRealUNO};
  return p < KIT_CG_NPREDS ? t[p] : LLVMRealOEQ;
}

static LLVMValueRef convert(KitLower *l, const KitCgInst *in, LLVMValueRef x, KitCgType from) {
  LLVMBuilderRef b = l->b;
  LLVMTypeRef to = kit_llvm__type(l, in->type);
  if (from == in->type && in->op != KIT_CG_OP_FPTOSI && in->op != KIT_CG_OP_FPTOUI) return x;
  switch (in->op) {
  case KIT_CG_OP_TRUNC: return LLVMBuildTrunc(b, x, to, "");
  case KIT_CG_OP_ZEXT: return LLVMBuildZExt(b, x, to, "");
  case KIT_CG_OP_SEXT: return LLVMBuildSExt(b, x, to, "");
  case KIT_CG_OP_FPTRUNC: return LLVMBuildFPTrunc(b, x, to, "");
  case KIT_CG_OP_FPEXT: return LLVMBuildFPExt(b, x, to, "");
  case KIT_CG_OP_FPTOSI:
  case KIT_CG_OP_FPTOUI: {
    /* CG: saturating, NaN -> 0 (what the interpreter does), so no poison */
    LLVMTypeRef tys[2] = {to, LLVMTypeOf(x)};
    return kit_llvm__intrinsic(l, in->op == KIT_CG_OP_FPTOSI ? "llvm.fptosi.sat" : "llvm.fptoui.sat", tys, 2, &x, 1);
  }
  case KIT_CG_OP_SITOFP: return LLVMBuildSIToFP(b, x, to, "");
  case KIT_CG_OP_UITOFP: return LLVMBuildUIToFP(b, x, to, "");
  case KIT_CG_OP_PTRTOINT: return LLVMBuildPtrToInt(b, x, to, "");
  case KIT_CG_OP_INTTOPTR: return LLVMBuildIntToPtr(b, x, to, "");
  default:
    if (from == KIT_CG_PTR) return LLVMBuildPtrToInt(b, x, to, "");
    if (in->type == KIT_CG_PTR) return LLVMBuildIntToPtr(b, x, to, "");
    return LLVMBuildBitCast(b, x, to, "");
  }
}

static LLVMAtomicOrdering order(unsigned o) {
  static const LLVMAtomicOrdering t[] = {LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingAcquire,
                                         LLVMAtomicOrderingRelease, LLVMAtomicOrderingAcquireRelease,
                                         LLVMAtomicOrderingSequentiallyConsistent};
  return o <= KIT_CG_SEQCST ? t[o] : LLVMAtomicOrderingSequentiallyConsistent;
}

/* LLVM forbids release on loads and acquire on stores: keep the half that applies */
static LLVMAtomicOrdering load_order(unsigned o) {
  return o == KIT_CG_RELEASE ? LLVMAtomicOrderingMonotonic : o == KIT_CG_ACQREL ? LLVMAtomicOrderingAcquire : order(o);
}
static LLVMAtomicOrdering store_order(unsigned o) {
  return o == KIT_CG_ACQUIRE ? LLVMAtomicOrderingMonotonic : o == KIT_CG_ACQREL ? LLVMAtomicOrderingRelease : order(o);
}

static LLVMAtomicRMWBinOp rmw_op(unsigned r) {
  static const LLVMAtomicRMWBinOp t[] = {LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpAdd,  LLVMAtomicRMWBinOpSub,
                                        LLVMAtomicRMWBinOpAnd,  LLVMAtomicRMWBinOpOr,   LLVMAtomicRMWBinOpXor,
                                        LLVMAtomicRMWBinOpNand, LLVMAtomicRMWBinOpMax,  LLVMAtomicRMWBinOpMin,
                                        LLVMAtomicRMWBinOpUMax, LLVMAtomicRMWBinOpUMin};
  return r <= KIT_CG_RMW_UMIN ? t[r] : LLVMAtomicRMWBinOpXchg;
}

static unsigned atomic_align(const KitCgInst *in, KitCgType t) {
  return in->imm ? (unsigned)in->imm : kit_cg_type_size(t);
}

/* Atomics on i1: LLVM only has byte-sized atomic accesses, so they act on
 * the i8 that holds the i1 (0 or 1, as a plain i1 store leaves it). Every
 * rmw keeps that byte 0 or 1: add/sub are xor modulo 2, umax/smin are or,
 * umin/smax are and (i1 1 is -1 signed), and nand, which has no such
 * equivalent, is a compare-exchange loop. */
static LLVMValueRef atomic_i1(KitLower *l, const KitCgInst *in) {
  LLVMBuilderRef b = l->b;
  LLVMTypeRef i1 = l->tys[KIT_CG_I1];
  LLVMValueRef p = val(l, in->args[in->op == KIT_CG_OP_ASTORE ? 1 : 0]);
  unsigned align = in->imm ? (unsigned)in->imm : 1;
  switch (in->op) {
  case KIT_CG_OP_ALOAD: {
    LLVMValueRef v = LLVMBuildLoad2(b, l->i8, p, "");
    LLVMSetOrdering(v, load_order(in->pred));
    LLVMSetAlignment(v, align);
    if (in->flags & KIT_CG_F_VOLATILE) LLVMSetVolatile(v, 1);
    return LLVMBuildTrunc(b, v, i1, "");
  }
  case KIT_CG_OP_ASTORE: {
    LLVMValueRef s = LLVMBuildStore(b, LLVMBuildZExt(b, val(l, in->args[0]), l->i8, ""), p);
    LLVMSetOrdering(s, store_order(in->pred));
    LLVMSetAlignment(s, align);
    if (in->flags & KIT_CG_F_VOLATILE) LLVMSetVolatile(s, 1);
    return NULL;
  }
  case KIT_CG_OP_ACMPXCHG: {
    LLVMValueRef x = LLVMBuildAtomicCmpXchg(b, p, LLVMBuildZExt(b, val(l, in->args[1]), l->i8, ""),
                                            LLVMBuildZExt(b, val(l, in->args[2]), l->i8, ""), order(in->pred),
                                            load_order(in->pred), 0);
    if (in->flags & KIT_CG_F_VOLATILE) LLVMSetVolatile(x, 1);
    return LLVMBuildTrunc(b, LLVMBuildExtractValue(b, x, 0, ""), i1, "");
  }
  default: break;
  }
  LLVMValueRef v = LLVMBuildZExt(b, val(l, in->args[1]), l->i8, "");
  LLVMAtomicRMWBinOp op;
  switch (in->aux) {
  case KIT_CG_RMW_ADD: case KIT_CG_RMW_SUB: op = LLVMAtomicRMWBinOpXor; break;
  case KIT_CG_RMW_UMAX: case KIT_CG_RMW_SMIN: op = LLVMAtomicRMWBinOpOr; break;
  case KIT_CG_RMW_UMIN: case KIT_CG_RMW_SMAX: op = LLVMAtomicRMWBinOpAnd; break;
  case KIT_CG_RMW_NAND: {
    /* old = load; do { new = !(old & v) } while (!cmpxchg(p, old, new)) */
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "");
    LLVMValueRef first = LLVMBuildLoad2(b, l->i8, p, "");
    LLVMSetOrdering(first, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(first, align);
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef old = LLVMBuildPhi(b, l->i8, "");
    LLVMValueRef nv = LLVMBuildXor(b, LLVMBuildAnd(b, old, v, ""), LLVMConstInt(l->i8, 1, 0), "");
    LLVMValueRef x = LLVMBuildAtomicCmpXchg(b, p, old, nv, order(in->pred), load_order(in->pred), 0);
    if (in->flags & KIT_CG_F_VOLATILE) LLVMSetVolatile(x, 1);
    LLVMValueRef seen = LLVMBuildExtractValue(b, x, 0, "");
    LLVMBuildCondBr(b, LLVMBuildExtractValue(b, x, 1, ""), done, loop);
    LLVMAddIncoming(old, &first, &entry, 1);
    LLVMAddIncoming(old, &seen, &loop, 1);
    LLVMPositionBuilderAtEnd(b, done);
    return LLVMBuildTrunc(b, seen, i1, "");
  }
  default: op = rmw_op(in->aux); break; /* xchg and or xor keep 0/1 */
  }
  LLVMValueRef r = LLVMBuildAtomicRMW(b, op, p, v, order(in->pred), 0);
  if (in->flags & KIT_CG_F_VOLATILE) LLVMSetVolatile(r, 1);
  return LLVMBuildTrunc(b, r, i1, "");
}

/* Atomics on byte-sized types (i1 is atomic_i1's). */
static LLVMValueRef atomic(KitLower *l, const KitCgInst *in) {
  LLVMBuilderRef b = l->b;
  LLVMValueRef r = NULL;
  switch (in->op) {
  case KIT_CG_OP_ALOAD:
    r = LLVMBuildLoad2(b, kit_llvm__type(l, in->type), val(l, in->args[0]), "");
    LLVMSetOrdering(r, load_order(in->pred));
    LLVMSetAlignment(r, atomic_align(in, in->type));
    if (in->flags & KIT_CG_F_VOLATILE) LLVMSetVolatile(r, 1);
    return r;
  case KIT_CG_OP_ASTORE: {
    LLVMValueRef s = LLVMBuildStore(b, val(l, in->args[0]), val(l, in->args[1]));
    LLVMSetOrdering(s, store_order(in->pred));
    LLVMSetAlignment(s, atomic_align(in, kit_cg_val_type(l->f, in->args[0])));
    if (in->flags & KIT_CG_F_VOLATILE) LLVMSetVolatile(s, 1);
    return NULL;
  }
  case KIT_CG_OP_ARMW:
    return LLVMBuildAtomicRMW(b, rmw_op(in->aux), val(l, in->args[0]), val(l, in->args[1]), order(in->pred), 0);
  default: {
    LLVMValueRef x = LLVMBuildAtomicCmpXchg(b, val(l, in->args[0]), val(l, in->args[1]), val(l, in->args[2]),
                                            order(in->pred), load_order(in->pred), 0);
    return LLVMBuildExtractValue(b, x, 0, "");
  }
  }
}

static LLVMValueRef memop(KitLower *l, const KitCgInst *in) {
  LLVMValueRef len = val(l, in->args[2]);
  if (LLVMTypeOf(len) != l->i64) len = LLVMBuildZExt(l->b, len, l->i64, "");
  LLVMValueRef a[4] = {val(l, in->args[0]), val(l, in->args[1]), len, ci1(l, in->flags & KIT_CG_F_VOLATILE)};
  if (in->op == KIT_CG_OP_MEMSET) {
    LLVMTypeRef tys[2] = {l->ptr, l->i64};
    if (LLVMTypeOf(a[1]) != l->i8) a[1] = LLVMBuildTrunc(l->b, a[1], l->i8, "");
    return kit_llvm__intrinsic(l, "llvm.memset", tys, 2, a, 4);
  }
  LLVMTypeRef tys[3] = {l->ptr, l->ptr, l->i64};
  return kit_llvm__intrinsic(l, in->op == KIT_CG_OP_MEMCPY ? "llvm.memcpy" : "llvm.memmove", tys, 3, a, 4);
}

/* x86-64 va_arg of x86_fp80: the backend cannot lower it, and SysV always
 * passes long double on the stack, so take it from overflow_arg_area
 * (offset 8 of the va_list), aligned to 16. */
static LLVMValueRef vaarg_f80(KitLower *l, LLVMValueRef ap) {
  LLVMBuilderRef b = l->b;
  LLVMValueRef eight = LLVMConstInt(l->i64, 8, 0);
  LLVMValueRef slot = LLVMBuildGEP2(b, l->i8, ap, &eight, 1, "");
  LLVMValueRef area = LLVMBuildLoad2(b, l->ptr, slot, "");
  LLVMValueRef addr = LLVMBuildPtrToInt(b, area, l->i64, "");
  addr = LLVMBuildAnd(b, LLVMBuildAdd(b, addr, LLVMConstInt(l->i64, 15, 0), ""), LLVMConstInt(l->i64, ~15ull, 0), "");
  LLVMValueRef p = LLVMBuildIntToPtr(b, addr, l->ptr, "");
  LLVMValueRef v = LLVMBuildLoad2(b, l->tys[KIT_CG_F80], p, "");
  LLVMSetAlignment(v, 16);
  LLVMValueRef sixteen = LLVMConstInt(l->i64, 16, 0);
  LLVMBuildStore(b, LLVMBuildGEP2(b, l->i8, p, &sixteen, 1, ""), slot);
  return v;
}

/* x86-64 va_arg of everything else, by hand per SysV too: LLVM's va_arg
 * instruction gets i128 wrong once the registers run out (it must take two
 * GPRs while 16 bytes of gp area are left, else a 16-aligned overflow slot).
 * Branch-free: both addresses are computed and one is selected.
 * va_list = {i32 gp_offset, i32 fp_offset, ptr overflow_arg_area, ptr reg_save_area}. */
static LLVMValueRef vaarg_x86(KitLower *l, LLVMValueRef ap, KitCgType t) {
  if (t == KIT_CG_F80) return vaarg_f80(l, ap);
  LLVMBuilderRef b = l->b;
  bool fp = kit_cg_type_is_float(t);
  unsigned size = t == KIT_CG_I128 ? 16 : 8; /* bytes it takes in either area */
  unsigned step = fp ? 16 : size, limit = fp ? 176 : 48;
  LLVMValueRef offs[3] = {LLVMConstInt(l->i64, fp ? 4 : 0, 0), LLVMConstInt(l->i64, 8, 0), LLVMConstInt(l->i64, 16, 0)};
  LLVMValueRef offp = LLVMBuildGEP2(b, l->i8, ap, &offs[0], 1, "");
  LLVMValueRef off = LLVMBuildLoad2(b, l->i32, offp, "");
  LLVMValueRef in_regs = LLVMBuildICmp(b, LLVMIntULE, off, LLVMConstInt(l->i32, limit - step, 0), "");
  LLVMValueRef rsa = LLVMBuildLoad2(b, l->ptr, LLVMBuildGEP2(b, l->i8, ap, &offs[2], 1, ""), "");
  LLVMValueRef off64 = LLVMBuildZExt(b, off, l->i64, "");
  LLVMValueRef reg = LLVMBuildGEP2(b, l->i8, rsa, &off64, 1, "");
  LLVMValueRef ovp = LLVMBuildGEP2(b, l->i8, ap, &offs[1], 1, "");
  LLVMValueRef ov = LLVMBuildLoad2(b, l->ptr, ovp, "");
  LLVMValueRef slot = ov;
  if (size == 16) {
    LLVMValueRef a = LLVMBuildPtrToInt(b, ov, l->i64, "");
    a = LLVMBuildAnd(b, LLVMBuildAdd(b, a, LLVMConstInt(l->i64, 15, 0), ""), LLVMConstInt(l->i64, ~15ull, 0), "");
    slot = LLVMBuildIntToPtr(b, a, l->ptr, "");
  }
  LLVMValueRef v = LLVMBuildLoad2(b, kit_llvm__type(l, t), LLVMBuildSelect(b, in_regs, reg, slot, ""), "");
  LLVMSetAlignment(v, kit_cg_type_size(t) < 8 ? kit_cg_type_size(t) : 8);
  LLVMBuildStore(b, LLVMBuildSelect(b, in_regs, LLVMBuildAdd(b, off, LLVMConstInt(l->i32, step, 0), ""), off, ""),
                 offp);
  LLVMValueRef sz = LLVMConstInt(l->i64, size, 0);
  LLVMBuildStore(b, LLVMBuildSelect(b, in_regs, ov, LLVMBuildGEP2(b, l->i8, slot, &sz, 1, ""), ""), ovp);
  return v;
}

/* JIT: the address of a TLS global (also through aliases) is this thread's
 * copy, from __kit_tls_get(&control); anything else stays r. */
static LLVMValueRef tls_addr(KitLower *l, KitCgSym s, LLVMValueRef r) {
  const KitCgModule *m = l->m;
  for (uint32_t hops = 0; m->syms[s].kind == KIT_CG_SYM_ALIAS && m->syms[s].index < m->nsyms && hops < m->nsyms; hops++)
    s = m->syms[s].index;
  if (!l->tlsctl[s]) return r;
  LLVMTypeRef fty = LLVMFunctionType(l->ptr, &l->ptr, 1, 0);
  if (!l->tls_get) {
    l->tls_get = LLVMGetNamedFunction(l->mod, KIT_JIT_TLS_GET);
    if (!l->tls_get) l->tls_get = LLVMAddFunction(l->mod, KIT_JIT_TLS_GET, fty);
    LLVMAddAttributeAtIndex(l->tls_get, LLVMAttributeFunctionIndex, kit_llvm__attr(l->ctx, "nounwind"));
  }
  LLVMValueRef ctl = l->tlsctl[s];
  return LLVMBuildCall2(l->b, fty, l->tls_get, &ctl, 1, "");
}

static LLVMTypeRef site_type(KitLower *l, const KitCgInst *in, uint32_t first) {
  uint32_t n = in->nargs - first;
  bool var = in->flags & KIT_CG_F_VARARGS;
  uint32_t fixed = var && in->imm < n ? (uint32_t)in->imm : n;
  LLVMTypeRef ps[fixed ? fixed : 1];
  for (uint32_t i = 0; i < fixed; i++) ps[i] = LLVMTypeOf(val(l, in->args[first + i]));
  LLVMTypeRef ret = kit_llvm__type(l, in->type);
  if (in->type2 != KIT_CG_VOID) {
    LLVMTypeRef two[2] = {ret, kit_llvm__type(l, in->type2)};
    ret = LLVMStructTypeInContext(l->ctx, two, 2, 0);
  }
  return LLVMFunctionType(ret, ps, fixed, var);
}

static LLVMValueRef call(KitLower *l, const KitCgInst *in) {
  KitCgModule *m = l->m;
  const KitCgFunc *callee = NULL;
  LLVMValueRef target;
  LLVMTypeRef fty;
  uint32_t first = 0;
  if (in->op == KIT_CG_OP_CALL) {
    if (in->aux >= m->nsyms) {
      kit_llvm__error(l, "@%s: call to a bad symbol", kit_cg_func_name(m, l->f));
      return NULL;
    }
    target = l->syms[in->aux];
    if (m->syms[in->aux].kind == KIT_CG_SYM_FUNC) {
      callee = kit_cg_func_of(m, in->aux);
      fty = l->ftypes[m->syms[in->aux].index];
      if (in->nargs < callee->nparams || (!callee->variadic && in->nargs != callee->nparams)) {
        kit_llvm__error(l, "@%s: call to @%s with %u arguments", kit_cg_func_name(m, l->f),
                        kit_cg_func_name(m, callee), in->nargs);
        return NULL;
      }
    } else {
      fty = site_type(l, in, 0);
    }
  } else {
    target = val(l, in->args[0]);
    first = 1;
    fty = site_type(l, in, 1);
  }
  uint32_t n = in->nargs - first;
  LLVMValueRef *args = malloc((n ? n : 1) * sizeof *args);
  for (uint32_t i = 0; i < n; i++) args[i] = val(l, in->args[first + i]);
  LLVMValueRef c = LLVMBuildCall2(l->b, fty, target, args, n, "");
  free(args);
  if (in->argattrs)
    kit_llvm__site_attrs(l, callee ? callee->ret_attrs : 0, in->argattrs, n, c);
  else if (callee)
    kit_llvm__param_attrs(l, callee, c, true);
  if (in->flags & KIT_CG_F_TAIL) LLVMSetTailCall(c, 1);
  if (in->flags & KIT_CG_F_COLD) LLVMAddCallSiteAttribute(c, LLVMAttributeFunctionIndex, kit_llvm__attr(l->ctx, "cold"));
  if (in->flags & KIT_CG_F_NOMERGE)
    LLVMAddCallSiteAttribute(c, LLVMAttributeFunctionIndex, kit_llvm__attr(l->ctx, "nomerge"));
  return c;
}

static void branch_weights(KitLower *l, LLVMValueRef br, bool likely) {
  LLVMMetadataRef md[3] = {LLVMMDStringInContext2(l->ctx, "branch_weights", 14),
                           LLVMValueAsMetadata(ci32(l, likely ? 2000 : 1)),
                           LLVMValueAsMetadata(ci32(l, likely ? 1 : 2000))};
  unsigned kind = LLVMGetMDKindIDInContext(l->ctx, "prof", 4);
  LLVMSetMetadata(br, kind, LLVMMetadataAsValue(l->ctx, LLVMMDNodeInContext2(l->ctx, md, 3)));
}

static LLVMBasicBlockRef blk(KitLower *l, KitCgBlkId id) {
  if (id >= l->f->nblocks) {
    kit_llvm__error(l, "@%s: branch to missing block b%u", kit_cg_func_name(l->m, l->f), id);
    return l->blocks[0];
  }
  return l->blocks[id];
}

static void set_loc(KitLower *l, const KitCgInst *in) {
  if (!l->sp) return;
  LLVMMetadataRef scope = l->sp;
  unsigned line = 0, col = 0;
  if (in->loc.file && in->loc.file < l->m->nstrs) {
    if (in->loc.file != l->sp_file) {
      if (!l->scopes[in->loc.file])
        l->scopes[in->loc.file] = LLVMDIBuilderCreateLexicalBlockFile(l->dib, l->sp, kit_llvm__difile(l, in->loc.file), 0);
      scope = l->scopes[in->loc.file];
    }
    line = in->loc.line;
    col = in->loc.col;
  }
  LLVMSetCurrentDebugLocation2(l->b, LLVMDIBuilderCreateDebugLocation(l->ctx, line, col, scope, NULL));
}

static bool conv_ok(KitCgOp op, KitCgType from, KitCgType to) {
  if (kit_cg_type_is_vec(from) || kit_cg_type_is_vec(to)) {
    /* lane by lane between equal lane counts; a bitcast between any two types of one size */
    if (op == KIT_CG_OP_BITCAST)
      return kit_cg_type_valid(from) && kit_cg_type_valid(to) && kit_cg_type_bits(from) == kit_cg_type_bits(to) &&
             from != KIT_CG_F80 && to != KIT_CG_F80 && from != KIT_CG_PTR && to != KIT_CG_PTR;
    if (kit_cg_type_lanes(from) != kit_cg_type_lanes(to) || !kit_cg_type_is_vec(from) || !kit_cg_type_is_vec(to) ||
        op == KIT_CG_OP_PTRTOINT || op == KIT_CG_OP_INTTOPTR)
      return false;
    from = kit_cg_type_elem(from);
    to = kit_cg_type_elem(to);
  }
  bool fi = kit_cg_type_is_int(from), ti = kit_cg_type_is_int(to);
  bool ff = kit_cg_type_is_float(from), tf = kit_cg_type_is_float(to);
  unsigned fb = kit_cg_type_bits(from), tb = kit_cg_type_bits(to);
  switch (op) {
  case KIT_CG_OP_TRUNC: return fi && ti && fb >= tb;
  case KIT_CG_OP_ZEXT: case KIT_CG_OP_SEXT: return fi && ti && fb <= tb;
  case KIT_CG_OP_FPTRUNC: return ff && tf && fb >= tb;
  case KIT_CG_OP_FPEXT: return ff && tf && fb <= tb;
  case KIT_CG_OP_FPTOSI: case KIT_CG_OP_FPTOUI: return ff && ti;
  case KIT_CG_OP_SITOFP: case KIT_CG_OP_UITOFP: return fi && tf;
  case KIT_CG_OP_PTRTOINT: return from == KIT_CG_PTR && ti;
  case KIT_CG_OP_INTTOPTR: return fi && to == KIT_CG_PTR;
  default: return from != KIT_CG_VOID && fb == tb && from != KIT_CG_F80 && to != KIT_CG_F80;
  }
}

/* which operand (if any) must be a pointer; -1 = none, 2 = the first two */
static int ptr_operand(KitCgOp op) {
  switch (op) {
  case KIT_CG_OP_LOAD: case KIT_CG_OP_PTRADD: case KIT_CG_OP_MEMSET: case KIT_CG_OP_ALOAD: case KIT_CG_OP_ARMW:
  case KIT_CG_OP_ACMPXCHG: case KIT_CG_OP_VASTART: case KIT_CG_OP_VAEND: case KIT_CG_OP_VAARG: case KIT_CG_OP_CALLI:
    return 0;
  case KIT_CG_OP_STACKRESTORE: return 0;
  case KIT_CG_OP_STORE: case KIT_CG_OP_ASTORE: return 1;
  case KIT_CG_OP_MEMCPY: case KIT_CG_OP_MEMMOVE: case KIT_CG_OP_VACOPY: return 2;
  default: return -1;
  }
}

/* the vector ops' operand rules, and which other ops take vectors (NULL: fine) */
static const char *vector_why(KitLower *l, const KitCgInst *in) {
  KitCgFunc *f = l->f;
#define TY(i) ((KitCgType)f->vtype[in->args[i]])
  KitCgType t = (KitCgType)in->type;
  switch (in->op) {
  case KIT_CG_OP_SPLAT: return kit_cg_type_is_vec(t) && kit_cg_type_elem(t) == TY(0) ? NULL : "lane type differs";
  case KIT_CG_OP_EXTRACT:
    if (!kit_cg_type_is_vec(TY(0)) || kit_cg_type_elem(TY(0)) != t) return "lane type differs";
    return kit_cg_type_is_int(TY(1)) ? NULL : "index is not an integer";
  case KIT_CG_OP_INSERT:
    if (!kit_cg_type_is_vec(t) || TY(0) != t || kit_cg_type_elem(t) != TY(1)) return "lane type differs";
    return kit_cg_type_is_int(TY(2)) ? NULL : "index is not an integer";
  case KIT_CG_OP_SHUFFLE:
    if (!kit_cg_type_is_vec(TY(0)) || TY(0) != TY(1) || kit_cg_type_elem(t) != kit_cg_type_elem(TY(0)) ||
        !kit_cg_type_is_vec(t) || !in->cases)
      return "operand types differ";
    for (unsigned i = 0; i < kit_cg_type_lanes(t); i++)
      if (in->cases[i] < 0 || in->cases[i] >= 2 * (int64_t)kit_cg_type_lanes(TY(0))) return "lane index out of range";
    return NULL;
  case KIT_CG_OP_ICMP: case KIT_CG_OP_FCMP:
    return kit_cg_type_is_vec(TY(0)) && t != kit_cg_vec_int(TY(0)) ? "vector compare of the wrong type" : NULL;
  case KIT_CG_OP_SADDO: case KIT_CG_OP_UADDO: case KIT_CG_OP_SSUBO: case KIT_CG_OP_USUBO: case KIT_CG_OP_SMULO:
  case KIT_CG_OP_UMULO: case KIT_CG_OP_ARMW: case KIT_CG_OP_ACMPXCHG: case KIT_CG_OP_ALOAD: case KIT_CG_OP_ASTORE:
  case KIT_CG_OP_VAARG: case KIT_CG_OP_SWITCH: case KIT_CG_OP_CONDBR:
    for (uint32_t i = 0; i < in->nargs; i++)
      if (kit_cg_type_is_vec(TY(i))) return "vector operand";
    return kit_cg_type_is_vec(t) ? "vector result" : NULL;
  default: return NULL;
  }
#undef TY
}

/* LLVM's builder folds constants before its verifier runs and crashes on
 * ill-typed operands: refuse those with a message instead */
static bool operands_ok(KitLower *l, const KitCgInst *in) {
  KitCgFunc *f = l->f;
  unsigned flags = kit_cg_op_info[in->op].flags;
  for (uint32_t i = 0; i < in->nargs; i++)
    if (in->args[i] == 0 || in->args[i] >= f->nvals || f->vtype[in->args[i]] == KIT_CG_VOID) {
      kit_llvm__error(l, "@%s: %s: bad operand %%%u", kit_cg_func_name(l->m, f), kit_cg_op_info[in->op].name,
                      in->args[i]);
      return false;
    }
#define TY(i) ((KitCgType)f->vtype[in->args[i]])
  const char *why = NULL;
  if (in->op == KIT_CG_OP_CALLI && in->nargs == 0) why = "no callee";
  else if ((flags & (KIT_CGO_INT | KIT_CGO_FLT)) && in->nargs && in->op != KIT_CG_OP_ICMP &&
           ((flags & KIT_CGO_INT) ? !kit_cg_type_is_int(kit_cg_type_elem(TY(0)))
                                  : !kit_cg_type_is_float(kit_cg_type_elem(TY(0)))))
    why = "operand of the wrong kind";
  else if ((why = vector_why(l, in)) != NULL) {
  } else if (in->op == KIT_CG_OP_ICMP && !kit_cg_type_is_int(kit_cg_type_elem(TY(0))) && TY(0) != KIT_CG_PTR)
    why = "operand of the wrong kind";
  else if ((flags & (KIT_CGO_BIN | KIT_CGO_CMP)) && in->nargs >= 2 && TY(0) != TY(1)) why = "operand types differ";
  else if (in->op == KIT_CG_OP_FCOPYSIGN && TY(0) != TY(1)) why = "operand types differ";
  else if (in->op == KIT_CG_OP_FMA && (TY(0) != TY(1) || TY(0) != TY(2))) why = "operand types differ";
  else if ((flags & KIT_CGO_CONV) && !conv_ok(in->op, TY(0), in->type)) why = "impossible conversion";
  else if ((in->op == KIT_CG_OP_SELECT || in->op == KIT_CG_OP_CONDBR) && TY(0) != KIT_CG_I1) why = "condition is not i1";
  else if (in->op == KIT_CG_OP_SELECT && TY(1) != TY(2)) why = "operand types differ";
  else if (in->op == KIT_CG_OP_PTRADD && !kit_cg_type_is_int(TY(1))) why = "offset is not an integer";
  else if (in->op == KIT_CG_OP_MEMSET && !kit_cg_type_is_int(TY(1))) why = "fill value is not an integer";
  else if (in->op == KIT_CG_OP_ALLOCA && !kit_cg_type_is_int(TY(0))) why = "size is not an integer";
  else if ((in->op == KIT_CG_OP_MEMCPY || in->op == KIT_CG_OP_MEMMOVE || in->op == KIT_CG_OP_MEMSET) &&
           !kit_cg_type_is_int(TY(2)))
    why = "length is not an integer";
  else if ((in->op == KIT_CG_OP_ARMW && TY(1) != in->type) ||
           (in->op == KIT_CG_OP_ACMPXCHG && (TY(1) != in->type || TY(2) != in->type)))
    why = "operand types differ";
  else if ((in->op == KIT_CG_OP_ARMW || in->op == KIT_CG_OP_ACMPXCHG || in->op == KIT_CG_OP_ALOAD) &&
           !kit_cg_type_is_int(in->type) && in->type != KIT_CG_PTR && in->op != KIT_CG_OP_ALOAD)
    why = "atomic operation on a non-integer";
  else if (in->op == KIT_CG_OP_VAARG && (in->type == KIT_CG_I1 || in->type == KIT_CG_VOID))
    why = "va.arg of this type is not supported";
  else {
    int p = ptr_operand(in->op);
    if (p >= 0 && (int)in->nargs > (p == 2 ? 1 : p) &&
        (p == 2 ? TY(0) != KIT_CG_PTR || TY(1) != KIT_CG_PTR : TY(p) != KIT_CG_PTR))
      why = "operand is not a pointer";
  }
#undef TY
  if (why) kit_llvm__error(l, "@%s: %s: %s", kit_cg_func_name(l->m, f), kit_cg_op_info[in->op].name, why);
  return !why;
}

static LLVMValueRef vector_op(KitLower *l, const KitCgInst *in) {
  LLVMBuilderRef b = l->b;
  KitCgType t = (KitCgType)in->type;
  switch (in->op) {
  case KIT_CG_OP_SPLAT: {
    LLVMValueRef v = LLVMBuildInsertElement(b, LLVMGetUndef(kit_llvm__type(l, t)), val(l, in->args[0]), ci32(l, 0), "");
    return LLVMBuildShuffleVector(b, v, LLVMGetUndef(LLVMTypeOf(v)), splat(ci32(l, 0), kit_cg_type_lanes(t)), "");
  }
  case KIT_CG_OP_EXTRACT: return LLVMBuildExtractElement(b, val(l, in->args[0]), val(l, in->args[1]), "");
  case KIT_CG_OP_INSERT:
    return LLVMBuildInsertElement(b, val(l, in->args[0]), val(l, in->args[1]), val(l, in->args[2]), "");
  default: {
    LLVMValueRef mask[128];
    unsigned n = kit_cg_type_lanes(t);
    for (unsigned i = 0; i < n; i++) mask[i] = ci32(l, (uint64_t)in->cases[i]);
    return LLVMBuildShuffleVector(b, val(l, in->args[0]), val(l, in->args[1]), LLVMConstVector(mask, n), "");
  }
  }
}

static void lower_inst(KitLower *l, const KitCgInst *in) {
  LLVMBuilderRef b = l->b;
  KitCgFunc *f = l->f;
  unsigned flags = kit_cg_op_info[in->op].flags;
  uint32_t want = kit_cg_op_info[in->op].nargs;
  if ((int)want >= 0 && in->nargs < want) {
    kit_llvm__error(l, "@%s: %s with %u operands", kit_cg_func_name(l->m, f), kit_cg_op_info[in->op].name, in->nargs);
    return;
  }
  if (!operands_ok(l, in)) return;
  set_loc(l, in);
  LLVMValueRef r = NULL;
  if (flags & KIT_CGO_BIN) {
    r = binop(l, in, val(l, in->args[0]), val(l, in->args[1]));
  } else if ((flags & KIT_CGO_CONV)) {
    r = convert(l, in, val(l, in->args[0]), kit_cg_val_type(f, in->args[0]));
  } else {
    switch (in->op) {
    case KIT_CG_OP_CONST: r = constant(l, in); break;
    case KIT_CG_OP_SYMADDR:
      if (in->aux >= l->m->nsyms) {
        kit_llvm__error(l, "@%s: symaddr of a bad symbol", kit_cg_func_name(l->m, f));
        return;
      }
      r = l->syms[in->aux];
      if (l->jit) r = tls_addr(l, in->aux, r);
      if (in->imm) {
        LLVMValueRef off = LLVMConstInt(l->i64, in->imm, 1);
        r = LLVMBuildGEP2(b, l->i8, r, &off, 1, ""); /* folds to a constant unless r is a TLS call */
      }
      break;
    case KIT_CG_OP_STACKADDR:
      if (in->aux >= f->nstack) {
        kit_llvm__error(l, "@%s: stackaddr of missing $%u", kit_cg_func_name(l->m, f), in->aux);
        return;
      }
      r = l->allocas[in->aux];
      break;
    case KIT_CG_OP_PARAM: r = LLVMGetParam(l->fn, in->aux); break;
    case KIT_CG_OP_SADDO: case KIT_CG_OP_UADDO: case KIT_CG_OP_SSUBO:
    case KIT_CG_OP_USUBO: case KIT_CG_OP_SMULO: case KIT_CG_OP_UMULO: case KIT_CG_OP_FCOPYSIGN:
      r = binop(l, in, val(l, in->args[0]), val(l, in->args[1]));
      break;
    case KIT_CG_OP_NEG: case KIT_CG_OP_NOT: case KIT_CG_OP_BSWAP: case KIT_CG_OP_CLZ: case KIT_CG_OP_CTZ:
    case KIT_CG_OP_POPCNT: case KIT_CG_OP_FNEG: case KIT_CG_OP_FABS: case KIT_CG_OP_FSQRT:
      r = unop(l, in, val(l, in->args[0]));
      break;
    case KIT_CG_OP_FMA: {
      LLVMTypeRef t = kit_llvm__type(l, in->type);
      LLVMValueRef a[3] = {val(l, in->args[0]), val(l, in->args[1]), val(l, in->args[2])};
      r = kit_llvm__intrinsic(l, "llvm.fma", &t, 1, a, 3);
      break;
    }
    case KIT_CG_OP_ICMP:
    case KIT_CG_OP_FCMP:
      r = in->op == KIT_CG_OP_ICMP ? LLVMBuildICmp(b, ipred(in->pred), val(l, in->args[0]), val(l, in->args[1]), "")
                                   : LLVMBuildFCmp(b, fpred(in->pred), val(l, in->args[0]), val(l, in->args[1]), "");
      if (kit_cg_type_is_vec((KitCgType)in->type)) r = LLVMBuildSExt(b, r, kit_llvm__type(l, in->type), ""); /* lanes -1/0 */
      break;
    case KIT_CG_OP_SPLAT: case KIT_CG_OP_EXTRACT: case KIT_CG_OP_INSERT: case KIT_CG_OP_SHUFFLE:
      r = vector_op(l, in);
      break;
    case KIT_CG_OP_SELECT: r = LLVMBuildSelect(b, val(l, in->args[0]), val(l, in->args[1]), val(l, in->args[2]), ""); break;
    case KIT_CG_OP_LOAD:
      r = LLVMBuildLoad2(b, kit_llvm__type(l, in->type), val(l, in->args[0]), "");
      if (in->imm) LLVMSetAlignment(r, (unsigned)in->imm);
      if (in->flags & KIT_CG_F_VOLATILE) LLVMSetVolatile(r, 1);
      break;
    case KIT_CG_OP_STORE: {
      LLVMValueRef s = LLVMBuildStore(b, val(l, in->args[0]), val(l, in->args[1]));
      if (in->imm) LLVMSetAlignment(s, (unsigned)in->imm);
      if (in->flags & KIT_CG_F_VOLATILE) LLVMSetVolatile(s, 1);
      break;
    }
    case KIT_CG_OP_PTRADD: {
      LLVMValueRef off = val(l, in->args[1]);
      /* C pointer arithmetic (a tydesc) stays inside its object, as clang's inbounds GEPs say */
      r = in->tydesc ? LLVMBuildInBoundsGEP2(b, l->i8, val(l, in->args[0]), &off, 1, "")
                     : LLVMBuildGEP2(b, l->i8, val(l, in->args[0]), &off, 1, "");
      break;
    }
    case KIT_CG_OP_MEMCPY: case KIT_CG_OP_MEMMOVE: case KIT_CG_OP_MEMSET: memop(l, in); break;
    case KIT_CG_OP_ALLOCA: {
      LLVMValueRef n = val(l, in->args[0]);
      if (LLVMTypeOf(n) != l->i64) n = LLVMBuildZExt(b, n, l->i64, "");
      r = LLVMBuildArrayAlloca(b, l->i8, n, "");
      LLVMSetAlignment(r, in->imm ? (unsigned)in->imm : 16); /* 16: what C's alloca guarantees */
      break;
    }
    case KIT_CG_OP_STACKSAVE: r = kit_llvm__intrinsic(l, "llvm.stacksave", NULL, 0, NULL, 0); break;
    case KIT_CG_OP_STACKRESTORE: {
      LLVMValueRef p = val(l, in->args[0]);
      kit_llvm__intrinsic(l, "llvm.stackrestore", NULL, 0, &p, 1);
      break;
    }
    case KIT_CG_OP_LIFETIME_START:
    case KIT_CG_OP_LIFETIME_END: {
      if (in->aux >= f->nstack) break;
      LLVMValueRef a[2] = {LLVMConstInt(l->i64, f->stack[in->aux].size, 0), l->allocas[in->aux]};
      kit_llvm__intrinsic(l, in->op == KIT_CG_OP_LIFETIME_START ? "llvm.lifetime.start" : "llvm.lifetime.end", &l->ptr,
                          1, a, 2);
      break;
    }
    case KIT_CG_OP_ALOAD: case KIT_CG_OP_ASTORE: case KIT_CG_OP_ARMW: case KIT_CG_OP_ACMPXCHG:
      if ((in->op == KIT_CG_OP_ASTORE ? kit_cg_val_type(f, in->args[0]) : (KitCgType)in->type) != KIT_CG_I1) {
        r = atomic(l, in);
        break;
      }
      r = atomic_i1(l, in);
      break;
    case KIT_CG_OP_FENCE:
      if (in->pred != KIT_CG_RELAXED) LLVMBuildFence(b, order(in->pred), 0, "");
      break;
    case KIT_CG_OP_CALL:
    case KIT_CG_OP_CALLI: {
      LLVMValueRef c = call(l, in);
      if (!c || !in->id) break;
      if (in->type2 != KIT_CG_VOID) {
        l->aggs[in->id] = c;
        r = LLVMBuildExtractValue(b, c, 0, "");
      } else {
        r = c;
      }
      break;
    }
    case KIT_CG_OP_SECOND:
      if (in->args[0] >= f->nvals || !l->aggs[in->args[0]]) {
        kit_llvm__error(l, "@%s: second of a value that is not a two-result call", kit_cg_func_name(l->m, f));
        return;
      }
      r = LLVMBuildExtractValue(b, l->aggs[in->args[0]], 1, "");
      break;
    case KIT_CG_OP_VASTART: { LLVMValueRef a = val(l, in->args[0]); kit_llvm__intrinsic(l, "llvm.va_start", NULL, 0, &a, 1); break; }
    case KIT_CG_OP_VAEND: { LLVMValueRef a = val(l, in->args[0]); kit_llvm__intrinsic(l, "llvm.va_end", NULL, 0, &a, 1); break; }
    case KIT_CG_OP_VACOPY: {
      LLVMValueRef a[2] = {val(l, in->args[0]), val(l, in->args[1])};
      kit_llvm__intrinsic(l, "llvm.va_copy", NULL, 0, a, 2);
      break;
    }
    case KIT_CG_OP_VAARG:
      if (l->target == KIT_TARGET_X86_64_LINUX)
        r = vaarg_x86(l, val(l, in->args[0]), (KitCgType)in->type);
      else
        r = LLVMBuildVAArg(b, val(l, in->args[0]), kit_llvm__type(l, in->type), "");
      break;
    case KIT_CG_OP_FRAMEADDR: { LLVMValueRef z = ci32(l, (int)in->imm); r = kit_llvm__intrinsic(l, "llvm.frameaddress", &l->ptr, 1, &z, 1); break; }
    case KIT_CG_OP_RETADDR: { LLVMValueRef z = ci32(l, (int)in->imm); r = kit_llvm__intrinsic(l, "llvm.returnaddress", NULL, 0, &z, 1); break; }
    case KIT_CG_OP_BLOCKADDR: r = LLVMBlockAddress(l->fn, blk(l, in->nblks ? in->blks[0] : 0)); break;
    case KIT_CG_OP_ISCONST: {
      LLVMValueRef x = val(l, in->args[0]);
      LLVMTypeRef xt = LLVMTypeOf(x);
      r = LLVMBuildZExt(b, kit_llvm__intrinsic(l, "llvm.is.constant", &xt, 1, &x, 1), kit_llvm__type(l, in->type), "");
      break;
    }
    case KIT_CG_OP_PHI: r = LLVMBuildPhi(b, kit_llvm__type(l, in->type), ""); break;
    case KIT_CG_OP_BR: LLVMBuildBr(b, blk(l, in->nblks ? in->blks[0] : 0)); break;
    case KIT_CG_OP_CONDBR: {
      if (in->nblks < 2) {
        kit_llvm__error(l, "@%s: condbr without two targets", kit_cg_func_name(l->m, f));
        return;
      }
      LLVMValueRef br = LLVMBuildCondBr(b, val(l, in->args[0]), blk(l, in->blks[0]), blk(l, in->blks[1]));
      if (in->flags & (KIT_CG_F_LIKELY | KIT_CG_F_COLD)) branch_weights(l, br, in->flags & KIT_CG_F_LIKELY);
      break;
    }
    case KIT_CG_OP_SWITCH: {
      if (!in->nblks) {
        kit_llvm__error(l, "@%s: switch without a default", kit_cg_func_name(l->m, f));
        return;
      }
      LLVMValueRef v = val(l, in->args[0]);
      LLVMValueRef sw = LLVMBuildSwitch(b, v, blk(l, in->blks[0]), in->nblks - 1);
      for (uint32_t i = 1; i < in->nblks; i++)
        LLVMAddCase(sw, LLVMConstInt(LLVMTypeOf(v), (uint64_t)in->cases[i - 1], 1), blk(l, in->blks[i]));
      break;
    }
    case KIT_CG_OP_RET:
      if (in->nargs == 2) {
        LLVMValueRef two[2] = {val(l, in->args[0]), val(l, in->args[1])};
        LLVMBuildAggregateRet(b, two, 2);
      } else if (in->nargs == 1) {
        LLVMBuildRet(b, val(l, in->args[0]));
      } else if (f->ret[0] == KIT_CG_VOID) {
        LLVMBuildRetVoid(b);
      } else {
        LLVMBuildRet(b, LLVMGetUndef(LLVMGetReturnType(LLVMGlobalGetValueType(l->fn))));
      }
      break;
    case KIT_CG_OP_UNREACHABLE: LLVMBuildUnreachable(b); break;
    case KIT_CG_OP_INDIRECTBR: {
      LLVMValueRef ib = LLVMBuildIndirectBr(b, val(l, in->args[0]), in->nblks);
      for (uint32_t i = 0; i < in->nblks; i++) LLVMAddDestination(ib, blk(l, in->blks[i]));
      break;
    }
    case KIT_CG_OP_ASM:
    case KIT_CG_OP_ASMGOTO: kit_llvm__asm(l, in); break;
    case KIT_CG_OP_TRAP:
      kit_llvm__intrinsic(l, "llvm.trap", NULL, 0, NULL, 0);
      LLVMBuildUnreachable(b);
      break;
    default:
      kit_llvm__error(l, "@%s: op %s cannot be lowered", kit_cg_func_name(l->m, f), kit_cg_op_info[in->op].name);
      return;
    }
  }
  if (in->id && in->id < f->nvals) l->vals[in->id] = r ? r : LLVMGetUndef(kit_llvm__type(l, in->type));
}

/* reverse postorder from the entry, then unreachable blocks in index order */
static uint32_t *block_order(const KitCgFunc *f) {
  uint32_t n = f->nblocks, *order = malloc(n * sizeof *order), *stack = malloc(n * sizeof *stack);
  uint32_t *next = calloc(n, sizeof *next);
  uint8_t *seen = calloc(n, 1);
  uint32_t post = n, sp = 0;
  stack[sp++] = 0;
  seen[0] = 1;
  while (sp) {
    uint32_t bb = stack[sp - 1];
    const KitCgBlkId *succ;
    uint32_t ns = kit_cg_block_succs(f, bb, &succ);
    if (next[bb] < ns) {
      uint32_t s = succ[next[bb]++];
      if (s < n && !seen[s]) {
        seen[s] = 1;
        stack[sp++] = s;
      }
      continue;
    }
    order[--post] = bb;
    sp--;
  }
  /* reachable ones now fill order[post..n); move them to the front */
  uint32_t nr = n - post;
  memmove(order, order + post, nr * sizeof *order);
  for (uint32_t bb = 0; bb < n; bb++)
    if (!seen[bb]) order[nr++] = bb;
  free(stack);
  free(next);
  free(seen);
  return order;
}

/* how many CFG edges lead from block `from` to block `to` */
static unsigned edges_between(const KitCgFunc *f, KitCgBlkId from, KitCgBlkId to) {
  const KitCgBlkId *succ;
  uint32_t ns = kit_cg_block_succs(f, from, &succ);
  unsigned n = 0;
  for (uint32_t i = 0; i < ns; i++) n += succ[i] == to;
  return n;
}

int kit_llvm__lower_body(KitLower *l, KitCgFunc *f, LLVMValueRef fn) {
  int errs0 = l->nerrs;
  l->f = f;
  l->fn = fn;
  l->vals = calloc(f->nvals + 1, sizeof *l->vals);
  l->aggs = calloc(f->nvals + 1, sizeof *l->aggs);
  l->blocks = malloc(f->nblocks * sizeof *l->blocks);
  l->ends = malloc(f->nblocks * sizeof *l->ends);
  l->allocas = calloc(f->nstack + 1, sizeof *l->allocas);
  l->scopes = l->sp ? calloc(l->m->nstrs, sizeof *l->scopes) : NULL;
  for (uint32_t i = 0; i < f->nparams && i + 1 < f->nvals; i++) l->vals[i + 1] = LLVMGetParam(fn, i);
  for (uint32_t i = 0; i < f->nblocks; i++) l->blocks[i] = LLVMAppendBasicBlockInContext(l->ctx, fn, "");
  LLVMPositionBuilderAtEnd(l->b, l->blocks[0]);
  LLVMSetCurrentDebugLocation2(l->b, NULL);
  for (uint32_t i = 0; i < f->nstack; i++) {
    LLVMValueRef a = LLVMBuildAlloca(l->b, LLVMArrayType(l->i8, f->stack[i].size), "");
    LLVMSetAlignment(a, f->stack[i].align ? f->stack[i].align : 1);
    l->allocas[i] = a;
  }
  if (l->sp) kit_llvm__debug_vars(l);
  uint32_t *order = block_order(f);
  for (uint32_t k = 0; k < f->nblocks; k++) {
    KitCgBlock *bb = &f->blocks[order[k]];
    LLVMPositionBuilderAtEnd(l->b, l->blocks[order[k]]);
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      if (bb->insts[i].op >= KIT_CG_NOPS) {
        kit_llvm__error(l, "@%s: bad op %u", kit_cg_func_name(l->m, f), bb->insts[i].op);
        continue;
      }
      lower_inst(l, &bb->insts[i]);
    }
    if (!bb->ninsts || !(kit_cg_op_info[bb->insts[bb->ninsts - 1].op].flags & KIT_CGO_TERM)) {
      kit_llvm__error(l, "@%s: block b%u does not end with a terminator", kit_cg_func_name(l->m, f), order[k]);
      LLVMBuildUnreachable(l->b);
    }
    /* an op lowered to a loop (i1 atomic nand) splits its block: phis of the
     * successors must name the part that branches to them */
    l->ends[order[k]] = LLVMGetInsertBlock(l->b);
  }
  free(order);
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    KitCgBlock *bb = &f->blocks[bi];
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      KitCgInst *in = &bb->insts[i];
      if (in->op != KIT_CG_OP_PHI || !in->id) continue;
      for (uint32_t k = 0; k < in->nargs && k < in->nblks; k++) {
        LLVMValueRef v = val(l, in->args[k]);
        if (in->blks[k] >= f->nblocks) {
          blk(l, in->blks[k]); /* reports it */
          continue;
        }
        LLVMBasicBlockRef from = l->ends[in->blks[k]];
        /* CG lists a predecessor once; LLVM wants one entry per CFG edge
         * (condbr with both targets equal, switch cases sharing a target) */
        unsigned edges = edges_between(f, in->blks[k], bi);
        for (unsigned e = 0; e < (edges ? edges : 1); e++) LLVMAddIncoming(l->vals[in->id], &v, &from, 1);
      }
    }
  }
  free(l->vals);
  free(l->aggs);
  free(l->blocks);
  free(l->ends);
  free(l->allocas);
  free(l->scopes);
  l->vals = l->aggs = l->allocas = NULL;
  l->blocks = l->ends = NULL;
  l->scopes = NULL;
  return l->nerrs - errs0;
}
