/* frontends/c/abi.c — the x86-64 System V calling convention for kitcc:
 * classifying parameters and return values into eightbytes (INTEGER, SSE,
 * MEMORY), with the register accounting that decides when a small struct
 * still goes to memory, so kitcc and gcc objects call each other. */
#include "lower.h"

#include "lower_expr.h"

typedef enum Cls { C_NONE, C_INT, C_SSE, C_X87, C_MEM, C_SSEUP } Cls; /* SSEUP: a 16-byte vector's upper half */

static Cls merge(Cls a, Cls b) {
  if (a == C_SSEUP) a = C_SSE;
  if (b == C_SSEUP) b = C_SSE;
  if (a == b) return a;
  if (a == C_NONE) return b;
  if (b == C_NONE) return a;
  if (a == C_MEM || b == C_MEM) return C_MEM;
  if (a == C_INT || b == C_INT) return C_INT;
  if (a == C_X87 || b == C_X87) return C_MEM;
  return C_SSE;
}

/* classify the part of type t that lies at byte `off` into cls[0..1] */
static void classify(const CType *t, int64_t off, Cls cls[2]) {
  t = type_unqual((CType *)t);
  switch (t->kind) {
  case TY_STRUCT:
  case TY_UNION:
    for (CMember *m = t->members; m; m = m->next) {
      if (m->bit_width == 0) continue;
      if (m->offset % (m->align ? m->align : 1) && m->bit_width < 0) {
        cls[0] = cls[1] = C_MEM; /* unaligned (packed) member */
        return;
      }
      if (m->type->kind == TY_ARRAY && m->type->len < 0) continue; /* flexible array */
      classify(m->type, off + m->offset, cls);
    }
    return;
  case TY_ARRAY:
    if (t->len <= 0) return;
    for (int64_t i = 0; i < t->len; i++) classify(t->base, off + i * t->base->size, cls);
    return;
  case TY_COMPLEX: /* as struct { T real, imag; } */
    classify(t->base, off, cls);
    classify(t->base, off + t->base->size, cls);
    return;
  case TY_LDOUBLE:
    cls[off / 8 > 1 ? 1 : off / 8] = merge(cls[off / 8 > 1 ? 1 : off / 8], C_X87);
    return;
  case TY_VECTOR: /* gcc: SSE (a 16-byte one SSE + SSEUP), under 8 bytes INTEGER, over 16 MEMORY */
    if (t->size > 16 || off % (t->size < 8 ? t->size : 8)) {
      cls[0] = cls[1] = C_MEM;
    } else if (t->size == 16) {
      cls[0] = merge(cls[0], C_SSE);
      cls[1] = cls[1] == C_NONE ? C_SSEUP : merge(cls[1], C_SSE);
    } else {
      int i = off / 8 > 1 ? 1 : (int)(off / 8);
      cls[i] = merge(cls[i], t->size == 8 ? C_SSE : C_INT);
    }
    return;
  case TY_INT128:
  case TY_UINT128:
    cls[0] = merge(cls[0], C_INT);
    cls[1] = merge(cls[1], C_INT);
    return;
  case TY_FLOAT:
  case TY_DOUBLE: {
    int i = off / 8 > 1 ? 1 : (int)(off / 8);
    cls[i] = merge(cls[i], C_SSE);
    return;
  }
  default: {
    int i = off / 8 > 1 ? 1 : (int)(off / 8);
    cls[i] = merge(cls[i], C_INT);
    return;
  }
  }
}

KitCgType abi_cg_type(const CType *t) {
  t = type_unqual((CType *)t);
  if (t->kind == TY_ENUM) t = t->base;
  switch (t->kind) {
  case TY_BOOL: case TY_CHAR: case TY_SCHAR: case TY_UCHAR: return KIT_CG_I8;
  case TY_SHORT: case TY_USHORT: return KIT_CG_I16;
  case TY_INT: case TY_UINT: return KIT_CG_I32;
  case TY_LONG: case TY_ULONG: case TY_LLONG: case TY_ULLONG: return KIT_CG_I64;
  case TY_INT128: case TY_UINT128: return KIT_CG_I128;
  case TY_FLOAT: return KIT_CG_F32;
  case TY_DOUBLE: return KIT_CG_F64;
  case TY_LDOUBLE: return KIT_CG_F80;
  case TY_PTR: case TY_ARRAY: case TY_FUNC: return KIT_CG_PTR;
  case TY_VECTOR: return lower_vector_cg_type(t);
  default: return KIT_CG_VOID;
  }
}

static bool is_aggregate(const CType *t) {
  t = type_unqual((CType *)t);
  return t->kind == TY_STRUCT || t->kind == TY_UNION || t->kind == TY_ARRAY || t->kind == TY_COMPLEX;
}

uint32_t abi_split_offset(const AbiArg *a, int k) { return k ? (a->cg[0] == KIT_CG_F80 ? 16 : 8) : 0; }
/* a vector by value, as gcc without AVX: 16 bytes in one XMM register, 8 in
 * the low half of one (carried as f64), 1 to 4 in a general register, more in memory */
static AbiArg classify_vector(CType *t, bool is_return, int *gp, int *sse) {
  AbiArg a = {.kind = ABI_DIRECT, .n = 1};
  if (t->size > 16) {
    a.kind = ABI_MEMORY;
    return a;
  }
  a.cg[0] = t->size == 16 ? abi_cg_type(t) : t->size == 8 ? KIT_CG_F64 : t->size == 4 ? KIT_CG_I32
            : t->size == 2 ? KIT_CG_I16 : KIT_CG_I8;
  int *regs = t->size >= 8 ? sse : gp;
  if (!is_return && *regs > 0) (*regs)--;
  return a;
}

/* classify one value; *gp and *sse are the registers still free (params) */
static AbiArg classify_value(CType *t, bool is_return, int *gp, int *sse) {
  AbiArg a = {0};
  t = type_unqual(t);
  if (t->kind == TY_VOID) {
    a.kind = ABI_IGNORE;
    return a;
  }
  if (t->kind == TY_VECTOR) return classify_vector(t, is_return, gp, sse);
  if (!is_aggregate(t)) {
    a.kind = ABI_DIRECT;
    a.n = 1;
    a.cg[0] = abi_cg_type(t);
    CType *u = t->kind == TY_ENUM ? t->base : t;
    if (u->kind == TY_BOOL || u->kind == TY_UCHAR || u->kind == TY_USHORT) a.attrs = KIT_CG_PA_ZEXT;
    if (u->kind == TY_CHAR || u->kind == TY_SCHAR || u->kind == TY_SHORT) a.attrs = KIT_CG_PA_SEXT;
    if (a.cg[0] == KIT_CG_F32 || a.cg[0] == KIT_CG_F64) {
      if (*sse > 0) (*sse)--;
    } else if (a.cg[0] == KIT_CG_I128) {
      if (*gp >= 2) *gp -= 2;
    } else if (a.cg[0] != KIT_CG_F80) {
      if (*gp > 0) (*gp)--;
    }
    return a;
  }
  if (t->size <= 0) {
    a.kind = ABI_IGNORE;
    return a;
  }
  Cls cls[2] = {C_NONE, C_NONE};
  if (t->size > 16)
    cls[0] = C_MEM;
  else
    classify(t, 0, cls);
  if (is_return && t->kind == TY_COMPLEX && t->base->kind == TY_LDOUBLE) {
    /* COMPLEX_X87: the real part in %st0, the imaginary part in %st1 */
    a.kind = ABI_SPLIT;
    a.n = 2;
    a.cg[0] = a.cg[1] = KIT_CG_F80;
    return a;
  }
  if (is_return && t->size == 16 && cls[0] == C_X87 && cls[1] == C_NONE) {
    /* a struct or union holding one long double is X87+X87UP: returned in %st0 */
    a.kind = ABI_SPLIT;
    a.n = 1;
    a.cg[0] = KIT_CG_F80;
    return a;
  }
  if (cls[0] == C_SSE && cls[1] == C_SSEUP) { /* a struct of one 16-byte vector: one XMM register */
    if (!is_return && *sse < 1) {
      a.kind = ABI_MEMORY;
      return a;
    }
    if (!is_return) (*sse)--;
    a.kind = ABI_SPLIT;
    a.n = 1;
    a.cg[0] = kit_cg_vec_type(KIT_CG_I64, 2);
    return a;
  }
  if (cls[1] == C_SSEUP) cls[1] = C_SSE;
  int n = t->size > 8 ? 2 : 1;
  bool mem = cls[0] == C_MEM || cls[1] == C_MEM || cls[0] == C_X87 || cls[1] == C_X87;
  int need_gp = 0, need_sse = 0;
  for (int i = 0; i < n; i++) {
    if (cls[i] == C_NONE) cls[i] = C_SSE; /* padding-only eightbyte */
    if (cls[i] == C_INT) need_gp++;
    if (cls[i] == C_SSE) need_sse++;
  }
  if (!mem && !is_return && (need_gp > *gp || need_sse > *sse)) mem = true;
  if (mem) {
    a.kind = ABI_MEMORY;
    if (is_return && *gp > 0) (*gp)--; /* the sret pointer takes RDI */
    return a;
  }
  if (!is_return) {
    *gp -= need_gp;
    *sse -= need_sse;
  }
  a.kind = ABI_SPLIT;
  a.n = (uint8_t)n;
  for (int i = 0; i < n; i++) a.cg[i] = cls[i] == C_INT ? KIT_CG_I64 : KIT_CG_F64;
  return a;
}

void abi_classify(CType *fn, CType **vararg_types, int nvarargs, AbiSig *out) {
  fn = type_unqual(fn);
  int gp = 6, sse = 8;
  out->ret = classify_value(fn->base, true, &gp, &sse);
  int n = 0;
  for (CParam *p = fn->params; p; p = p->next) n++;
  out->nparams = n + nvarargs;
  out->variadic = fn->variadic;
  out->params = c_alloc(sizeof(AbiArg) * (out->nparams ? out->nparams : 1));
  int i = 0;
  for (CParam *p = fn->params; p; p = p->next) out->params[i++] = classify_value(p->type, false, &gp, &sse);
  for (int k = 0; k < nvarargs; k++) out->params[i++] = classify_value(vararg_types[k], false, &gp, &sse);
}
