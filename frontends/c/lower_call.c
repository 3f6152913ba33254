/* frontends/c/lower_call.c — lowering calls (the SysV argument and result
 * passing decided by abi.c: direct scalars, split eightbytes, byval and sret
 * memory) and the GNU/C11 builtins kitcc supports. */
#include <stdio.h>
#include <string.h>

#include "lower_expr.h"

static KitCgVal stack_temp(Lower *L, int64_t size, int align) {
  uint32_t so = kit_cg_stack_new(L->m, L->f, (uint64_t)(size > 0 ? size : 1), (uint32_t)(align > 0 ? align : 1), 0);
  return kit_cg_stackaddr(&L->b, so);
}

static int count_args(CExprList *a) {
  int n = 0;
  for (; a; a = a->next) n++;
  return n;
}

/* the function directly named by a callee expression, or NULL */
static CObj *direct_callee(CExpr *c) {
  if (c->kind == EX_ADDR && c->lhs->kind == EX_VAR && c->lhs->obj->is_function) return c->lhs->obj;
  if (c->kind == EX_VAR && c->obj->is_function) return c->obj;
  return NULL;
}

/* UBSan nonnull-attribute and returns-nonnull-attribute: an ICMP (address
 * != 0) at the checked value's location whose ptr tydesc is named by where
 * the attribute is written, with `bits` = the argument number (0: the value
 * returned). Unused otherwise, and dropped by LLVM. docs/ubsan.md */
void lower_nonnull_fact(Lower *L, KitCgVal v, CPos at, CPos attr, unsigned argno) {
  if (kit_cg_val_type(L->f, v) != KIT_CG_PTR || !attr.line) return;
  const char *file = L->diag->pp ? cpp_file_name(L->diag->pp, attr.file) : NULL;
  char name[600];
  snprintf(name, sizeof name, "%s:%u:%u", file ? file : kit_cg_strget(L->m, L->file_str), attr.line, attr.col);
  KitCgLoc saved = L->b.loc;
  lower_set_loc(L, at);
  KitCgVal addr = kit_cg_conv(&L->b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, v);
  kit_cg_cmp(&L->b, KIT_CG_NE, addr, kit_cg_iconst(&L->b, KIT_CG_I64, 0));
  last_inst(L)->tydesc = kit_cg_tydesc(L->m, name, KIT_CG_TD_PTR, false, argno);
  L->b.loc = saved;
}

/* where clang reports a nonnull argument: an expression under an implicit
 * conversion at its first token, else at its operator */
static CPos arg_loc(CExpr *e) {
  return e->kind == EX_DECAY || (e->kind == EX_CAST && e->implicit) ? lower_ub_begin(e) : lower_ub_loc(e, false);
}

KitCgVal lower_call(Lower *L, CExpr *e) {
  CType *ct = type_unqual(e->lhs->type);
  CType *ft = type_unqual(ct->kind == TY_PTR ? ct->base : ct);
  int nargs = count_args(e->args), nfixed = 0;
  for (CParam *p = ft->params; p; p = p->next) nfixed++;
  bool unproto = ft->old_style || (!ft->params && !ft->variadic && nargs > 0);
  CType fake;
  if (unproto) {
    /* an unprototyped call passes promoted arguments like a variadic one */
    fake = *ft;
    fake.params = NULL;
    fake.variadic = true;
    ft = &fake;
    nfixed = 0;
  }
  int nextra = nargs > nfixed ? nargs - nfixed : 0;
  CType **vt = c_alloc(sizeof(CType *) * (nextra ? nextra : 1));
  {
    int i = 0, k = 0;
    for (CExprList *a = e->args; a; a = a->next, i++)
      if (i >= nfixed) vt[k++] = a->expr->type;
  }
  AbiSig sig;
  abi_classify(ft, vt, nextra, &sig);

  KitCgVal *cg = c_alloc(sizeof(KitCgVal) * (2 * nargs + 2));
  KitCgParam *attrs = c_alloc(sizeof(KitCgParam) * (2 * nargs + 2));
  bool any_attrs = false;
  uint32_t n = 0, nfixed_cg = 0;
  KitCgVal sret = 0;
  if (sig.ret.kind == ABI_MEMORY) {
    sret = stack_temp(L, ft->base->size, ft->base->align);
    attrs[n] = (KitCgParam){.type = KIT_CG_PTR, .attrs = KIT_CG_PA_SRET};
    any_attrs = true;
    cg[n++] = sret;
  }
  CObj *direct = direct_callee(e->lhs);
  KitCgVal callee = direct && !unproto ? 0 : lower_expr(L, e->lhs);
  int i = 0;
  for (CExprList *a = e->args; a; a = a->next, i++) {
    if (i == nfixed) nfixed_cg = n;
    AbiArg *ab = &sig.params[i];
    CType *at = a->expr->type;
    KitCgVal v = lower_expr(L, a->expr);
    if (direct && i < 64 && i < nfixed &&
        ((direct->attr_nonnull_args >> i & 1) || (direct->attr_nonnull_all && type_unqual(at)->kind == TY_PTR)))
      lower_nonnull_fact(L, v, arg_loc(a->expr), direct->attr_nonnull_pos, (unsigned)i + 1);
    switch (ab->kind) {
    case ABI_IGNORE:
      break;
    case ABI_DIRECT:
      attrs[n] = (KitCgParam){.type = ab->cg[0], .attrs = ab->attrs};
      any_attrs |= ab->attrs != 0;
      cg[n++] = type_unqual(at)->kind == TY_VECTOR ? lower_vector_abi(L, v, ab->cg[0]) : v;
      break;
    case ABI_SPLIT: {
      KitCgVal tmp = stack_temp(L, 16, 8);
      kit_cg_memop(&L->b, KIT_CG_OP_MEMCPY, tmp, v, lower_i64(L, at->size), KIT_CG_PROGRAM);
      for (int k = 0; k < ab->n; k++) {
        KitCgVal at_k = k ? kit_cg_ptradd(&L->b, tmp, lower_i64(L, 8)) : tmp;
        attrs[n] = (KitCgParam){.type = ab->cg[k], .attrs = KIT_CG_PA_PARTIAL};
        any_attrs = true;
        cg[n++] = kit_cg_load(&L->b, ab->cg[k], at_k, 8, KIT_CG_PROGRAM);
      }
      break;
    }
    case ABI_MEMORY: {
      KitCgVal tmp = stack_temp(L, at->size, at->align < 8 ? 8 : at->align);
      if (type_unqual(at)->kind == TY_VECTOR) /* a value, not an address */
        kit_cg_store(&L->b, v, tmp, 0, KIT_CG_PROGRAM);
      else
        kit_cg_memop(&L->b, KIT_CG_OP_MEMCPY, tmp, v, lower_i64(L, at->size), KIT_CG_PROGRAM);
      attrs[n] = (KitCgParam){.type = KIT_CG_PTR, .attrs = KIT_CG_PA_BYVAL, .byval_size = (uint32_t)at->size,
                              .byval_align = (uint32_t)(at->align < 8 ? 8 : at->align)};
      any_attrs = true;
      cg[n++] = tmp;
      break;
    }
    }
  }
  if (i <= nfixed) nfixed_cg = n;
  lower_set_loc(L, e->pos);
  KitCgType rt = KIT_CG_VOID;
  if (sig.ret.kind == ABI_DIRECT || sig.ret.kind == ABI_SPLIT) rt = sig.ret.cg[0];
  KitCgVal r;
  if (callee) {
    r = kit_cg_calli(&L->b, callee, rt, cg, n);
    if (ft->variadic) {
      last_inst(L)->flags |= KIT_CG_F_VARARGS;
      last_inst(L)->imm = nfixed_cg;
    }
  } else {
    /* a gnu_inline body stands for its function in direct calls, not in its own */
    CObj *target = direct->gnu_inline_body && direct->gnu_inline_body != L->fn ? direct->gnu_inline_body : direct;
    r = kit_cg_call(&L->b, lower_obj_sym(L, target), rt, cg, n);
  }
  KitCgInst *call = last_inst(L);
  if ((callee || ft->variadic) && any_attrs) {
    /* an indirect, unprototyped or variadic call: the callee's declaration
     * cannot say how the (extra) arguments are passed, the call site does */
    call->argattrs = kit_cg_alloc(L->m, sizeof(KitCgParam) * (n + 1));
    memcpy(call->argattrs, attrs, sizeof(KitCgParam) * n);
  }
  if (sig.ret.kind == ABI_SPLIT && sig.ret.n == 2) {
    call->type2 = (uint8_t)sig.ret.cg[1];
  }
  if (direct && direct->attr_noreturn) {
    kit_cg_unreachable(&L->b);
    lower_start_block(L, lower_new_block(L));
  }
  bool vec_ret = type_unqual(ft->base)->kind == TY_VECTOR;
  switch (sig.ret.kind) {
  case ABI_DIRECT:
    return vec_ret ? lower_vector_abi(L, r, abi_cg_type(ft->base)) : r;
  case ABI_SPLIT: {
    KitCgVal tmp = stack_temp(L, ABI_SPLIT_TEMP, 16);
    kit_cg_store(&L->b, r, tmp, 8, KIT_CG_PROGRAM);
    if (sig.ret.n == 2) {
      KitCgVal second = kit_cg_emit(&L->b, KIT_CG_OP_SECOND, sig.ret.cg[1], &r, 1)->id;
      kit_cg_store(&L->b, second, kit_cg_ptradd(&L->b, tmp, lower_i64(L, abi_split_offset(&sig.ret, 1))), 8,
                   KIT_CG_PROGRAM);
    }
    return tmp;
  }
  case ABI_MEMORY:
    return vec_ret ? kit_cg_load(&L->b, abi_cg_type(ft->base), sret, 0, KIT_CG_PROGRAM) : sret;
  default:
    return 0;
  }
}

/* ---- builtins --------------------------------------------------------------------- */

static CExpr *arg(CExpr *e, int i) {
  CExprList *a = e->args;
  while (a && i--) a = a->next;
  return a ? a->expr : NULL;
}

/* a va_list argument: the array form (a local va_list) or a pointer (a parameter) */
static KitCgVal va_ptr(Lower *L, CExpr *a) {
  CType *t = type_unqual(a->type);
  if (t->kind == TY_ARRAY) return lower_addr(L, a);
  return lower_expr(L, a);
}

static KitCgOrder order_of(CExpr *a) {
  int64_t v;
  if (!a || !c_eval_int(a, &v)) return KIT_CG_SEQCST;
  switch (v) {
  case 0: return KIT_CG_RELAXED;
  case 1: case 2: return KIT_CG_ACQUIRE;
  case 3: return KIT_CG_RELEASE;
  case 4: return KIT_CG_ACQREL;
  default: return KIT_CG_SEQCST;
  }
}

static KitCgVal to_type(Lower *L, KitCgVal v, CType *from, CType *to) { return lower_convert(L, v, from, to); }


static KitCgRmw rmw_of(CBuiltin b) {
  switch (b) {
  case BI_ATOMIC_EXCHANGE: return KIT_CG_RMW_XCHG;
  case BI_ATOMIC_FETCH_ADD: case BI_ATOMIC_ADD_FETCH: return KIT_CG_RMW_ADD;
  case BI_ATOMIC_FETCH_SUB: case BI_ATOMIC_SUB_FETCH: return KIT_CG_RMW_SUB;
  case BI_ATOMIC_FETCH_AND: case BI_ATOMIC_AND_FETCH: return KIT_CG_RMW_AND;
  case BI_ATOMIC_FETCH_OR: case BI_ATOMIC_OR_FETCH: return KIT_CG_RMW_OR;
  case BI_ATOMIC_FETCH_XOR: case BI_ATOMIC_XOR_FETCH: return KIT_CG_RMW_XOR;
  default: return KIT_CG_RMW_NAND;
  }
}

static KitCgVal apply_rmw(Lower *L, KitCgRmw r, KitCgVal old, KitCgVal v) {
  switch (r) {
  case KIT_CG_RMW_ADD: return kit_cg_binop(&L->b, KIT_CG_OP_ADD, old, v);
  case KIT_CG_RMW_SUB: return kit_cg_binop(&L->b, KIT_CG_OP_SUB, old, v);
  case KIT_CG_RMW_AND: return kit_cg_binop(&L->b, KIT_CG_OP_AND, old, v);
  case KIT_CG_RMW_OR: return kit_cg_binop(&L->b, KIT_CG_OP_OR, old, v);
  case KIT_CG_RMW_XOR: return kit_cg_binop(&L->b, KIT_CG_OP_XOR, old, v);
  default: return kit_cg_unop(&L->b, KIT_CG_OP_NOT, kit_cg_binop(&L->b, KIT_CG_OP_AND, old, v));
  }
}

static KitCgVal atomic_builtin(Lower *L, CExpr *e) {
  CExpr *pe = arg(e, 0);
  CType *vt = pe ? type_unqual(type_unqual(pe->type)->base ? type_unqual(pe->type)->base : e->type) : e->type;
  KitCgType ct = abi_cg_type(vt);
  switch (e->builtin) {
  case BI_ATOMIC_LOAD: {
    KitCgVal p = lower_expr(L, pe);
    KitCgInst *in = kit_cg_emit(&L->b, KIT_CG_OP_ALOAD, ct, &p, 1);
    in->pred = (uint8_t)order_of(arg(e, 1));
    in->cls = KIT_CG_PROGRAM;
    return to_type(L, in->id, vt, e->type);
  }
  case BI_ATOMIC_STORE: case BI_SYNC_LOCK_RELEASE: case BI_ATOMIC_CLEAR: {
    KitCgVal p = lower_expr(L, pe);
    KitCgVal v;
    KitCgOrder o;
    if (e->builtin == BI_ATOMIC_STORE) {
      v = to_type(L, lower_expr(L, arg(e, 1)), arg(e, 1)->type, vt);
      o = order_of(arg(e, 2));
    } else {
      if (e->builtin == BI_ATOMIC_CLEAR) ct = KIT_CG_I8;
      v = kit_cg_iconst(&L->b, ct, 0);
      o = e->builtin == BI_ATOMIC_CLEAR ? order_of(arg(e, 1)) : KIT_CG_RELEASE;
    }
    KitCgVal a[2] = {v, p};
    KitCgInst *in = kit_cg_emit(&L->b, KIT_CG_OP_ASTORE, KIT_CG_VOID, a, 2);
    in->pred = (uint8_t)o;
    in->cls = KIT_CG_PROGRAM;
    return 0;
  }
  case BI_ATOMIC_TEST_AND_SET: {
    KitCgVal p = lower_expr(L, pe);
    KitCgVal a[2] = {p, kit_cg_iconst(&L->b, KIT_CG_I8, 1)};
    KitCgInst *in = kit_cg_emit(&L->b, KIT_CG_OP_ARMW, KIT_CG_I8, a, 2);
    in->aux = KIT_CG_RMW_XCHG;
    in->pred = (uint8_t)order_of(arg(e, 1));
    KitCgVal old = in->id;
    return to_type(L, kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I8, kit_cg_cmp(&L->b, KIT_CG_NE, old, kit_cg_iconst(&L->b, KIT_CG_I8, 0))),
                   ty_bool, e->type);
  }
  case BI_ATOMIC_CMPXCHG: case BI_SYNC_VAL_CAS: case BI_SYNC_BOOL_CAS: {
    KitCgVal p = lower_expr(L, pe);
    bool sync = e->builtin != BI_ATOMIC_CMPXCHG;
    KitCgVal expected_ptr = 0, expected;
    if (sync) {
      expected = to_type(L, lower_expr(L, arg(e, 1)), arg(e, 1)->type, vt);
    } else {
      expected_ptr = lower_expr(L, arg(e, 1));
      expected = kit_cg_load(&L->b, ct, expected_ptr, 0, KIT_CG_PROGRAM);
    }
    KitCgVal desired = to_type(L, lower_expr(L, arg(e, 2)), arg(e, 2)->type, vt);
    KitCgVal a[3] = {p, expected, desired};
    KitCgInst *in = kit_cg_emit(&L->b, KIT_CG_OP_ACMPXCHG, ct, a, 3);
    in->pred = (uint8_t)(sync ? KIT_CG_SEQCST : order_of(arg(e, 4)));
    in->cls = KIT_CG_PROGRAM;
    KitCgVal old = in->id;
    if (e->builtin == BI_SYNC_VAL_CAS) return to_type(L, old, vt, e->type);
    KitCgVal ok = kit_cg_cmp(&L->b, KIT_CG_EQ, ct == KIT_CG_PTR ? kit_cg_conv(&L->b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, old) : old,
                             ct == KIT_CG_PTR ? kit_cg_conv(&L->b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, expected) : expected);
    if (!sync) {
      /* on failure the current value goes back to *expected */
      KitCgBlkId fail = lower_new_block(L), done = lower_new_block(L);
      kit_cg_condbr(&L->b, ok, done, fail);
      lower_start_block(L, fail);
      kit_cg_store(&L->b, old, expected_ptr, 0, KIT_CG_PROGRAM);
      kit_cg_br(&L->b, done);
      lower_start_block(L, done);
    }
    return to_type(L, kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I8, ok), ty_bool, e->type);
  }
  case BI_ATOMIC_THREAD_FENCE: case BI_SYNC_SYNCHRONIZE: {
    KitCgInst *in = kit_cg_emit(&L->b, KIT_CG_OP_FENCE, KIT_CG_VOID, NULL, 0);
    in->pred = (uint8_t)(e->builtin == BI_SYNC_SYNCHRONIZE ? KIT_CG_SEQCST : order_of(arg(e, 0)));
    return 0;
  }
  case BI_ATOMIC_SIGNAL_FENCE:
    return 0;
  default: {
    /* exchange, fetch-op and op-fetch */
    KitCgVal p = lower_expr(L, pe);
    CType *opt = vt->kind == TY_PTR ? ty_long : vt;
    KitCgVal v = to_type(L, lower_expr(L, arg(e, 1)), arg(e, 1)->type, vt->kind == TY_PTR ? vt : opt);
    KitCgRmw r = rmw_of(e->builtin);
    KitCgVal a[2] = {p, v};
    KitCgInst *in = kit_cg_emit(&L->b, KIT_CG_OP_ARMW, ct, a, 2);
    in->aux = r;
    in->pred = (uint8_t)order_of(arg(e, 2));
    in->cls = KIT_CG_PROGRAM;
    KitCgVal old = in->id;
    bool op_fetch = e->builtin >= BI_ATOMIC_ADD_FETCH && e->builtin <= BI_ATOMIC_NAND_FETCH;
    KitCgVal res = op_fetch ? apply_rmw(L, r, old, v) : old;
    return to_type(L, res, vt, e->type);
  }
  }
}

/* __builtin_X_overflow(a, b, p) stores the wrapped result through p; the _p
 * forms only answer, for the type of their third operand (whose value is
 * ignored; gcc still evaluates it) */
static KitCgVal overflow_builtin(Lower *L, CExpr *e) {
  CExpr *ea = arg(e, 0), *eb = arg(e, 1), *ep = arg(e, 2);
  bool answer_only = e->builtin >= BI_ADD_OVERFLOW_P && e->builtin <= BI_MUL_OVERFLOW_P;
  CType *rt = answer_only ? type_unqual(ep->type) : type_unqual(type_unqual(ep->type)->base);
  if (rt->kind == TY_ENUM) rt = type_unqual(rt->base);
  KitCgVal a = lower_expr(L, ea), b = lower_expr(L, eb), p = lower_expr(L, ep);
  CBuiltin kind = answer_only ? (CBuiltin)(e->builtin - BI_ADD_OVERFLOW_P + BI_ADD_OVERFLOW) : e->builtin;
  KitCgOp op = kind == BI_ADD_OVERFLOW ? KIT_CG_OP_ADD : kind == BI_SUB_OVERFLOW ? KIT_CG_OP_SUB : KIT_CG_OP_MUL;
  KitCgVal res, ovf;
  if (type_compatible(type_unqual(ea->type), rt) && type_compatible(type_unqual(eb->type), rt)) {
    bool s = type_is_signed(rt);
    KitCgOp o = op == KIT_CG_OP_ADD ? (s ? KIT_CG_OP_SADDO : KIT_CG_OP_UADDO)
              : op == KIT_CG_OP_SUB ? (s ? KIT_CG_OP_SSUBO : KIT_CG_OP_USUBO)
                                    : (s ? KIT_CG_OP_SMULO : KIT_CG_OP_UMULO);
    ovf = kit_cg_binop(&L->b, o, a, b);
    res = kit_cg_binop(&L->b, op, a, b);
  } else {
    /* mixed types: compute exactly in 128 bits, then check the result fits */
    KitCgVal wa = to_type(L, a, ea->type, ty_int128), wb = to_type(L, b, eb->type, ty_int128);
    KitCgVal w = kit_cg_binop(&L->b, op, wa, wb);
    res = to_type(L, w, ty_int128, rt);
    KitCgVal back = to_type(L, res, rt, ty_int128);
    ovf = kit_cg_cmp(&L->b, KIT_CG_NE, back, w);
    if (!type_is_signed(rt)) {
      /* an unsigned result is also wrong when the exact value is negative */
      KitCgVal neg = kit_cg_cmp(&L->b, KIT_CG_SLT, w, kit_cg_i128const(&L->b, 0, 0));
      ovf = kit_cg_binop(&L->b, KIT_CG_OP_OR, ovf, neg);
    }
  }
  if (!answer_only) lower_store(L, res, p, rt, false);
  return to_type(L, kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, KIT_CG_I8, ovf), ty_bool, e->type);
}

static KitCgSym libc_fn(Lower *L, const char *name, KitCgType ret, const KitCgType *params, uint32_t n) {
  KitCgFunc *f = kit_cg_func_declare(L->m, name, ret, params, n, false);
  return f ? f->sym : 0;
}

static KitCgVal float_class(Lower *L, CExpr *e) {
  CExpr *x = arg(e, 0);
  KitCgVal v = lower_expr(L, x);
  KitCgType ct = kit_cg_val_type(L->f, v);
  KitCgVal r;
  switch (e->builtin) {
  case BI_ISNAN:
    r = kit_cg_cmp(&L->b, KIT_CG_FUNO, v, v);
    break;
  case BI_ISINF:
    r = kit_cg_cmp(&L->b, KIT_CG_FOEQ, kit_cg_unop(&L->b, KIT_CG_OP_FABS, v), kit_cg_fconst(&L->b, ct, __builtin_inf()));
    break;
  case BI_ISFINITE:
    r = kit_cg_cmp(&L->b, KIT_CG_FOLT, kit_cg_unop(&L->b, KIT_CG_OP_FABS, v), kit_cg_fconst(&L->b, ct, __builtin_inf()));
    break;
  case BI_SIGNBIT: {
    /* the sign is the top bit of the value's bytes (f80: bit 15 of the upper word) */
    KitCgVal tmp = kit_cg_stackaddr(&L->b, kit_cg_stack_new(L->m, L->f, 16, 16, 0));
    kit_cg_store(&L->b, v, tmp, 0, KIT_CG_INTERNAL);
    int off = ct == KIT_CG_F32 ? 3 : ct == KIT_CG_F64 ? 7 : 9;
    KitCgVal byte = kit_cg_load(&L->b, KIT_CG_I8, kit_cg_ptradd(&L->b, tmp, lower_i64(L, off)), 1, KIT_CG_INTERNAL);
    r = kit_cg_cmp(&L->b, KIT_CG_SLT, byte, kit_cg_iconst(&L->b, KIT_CG_I8, 0));
    break;
  }
  default: {
    KitCgVal w = lower_expr(L, arg(e, 1));
    KitCgPred p = e->builtin == BI_ISUNORDERED   ? KIT_CG_FUNO
                  : e->builtin == BI_ISLESS      ? KIT_CG_FOLT
                  : e->builtin == BI_ISLESSEQUAL ? KIT_CG_FOLE
                  : e->builtin == BI_ISGREATER   ? KIT_CG_FOGT
                  : e->builtin == BI_ISGREATEREQUAL ? KIT_CG_FOGE
                                                    : KIT_CG_FONE;
    r = kit_cg_cmp(&L->b, p, v, w);
    break;
  }
  }
  return kit_cg_conv(&L->b, KIT_CG_OP_ZEXT, abi_cg_type(e->type), r);
}

static KitCgVal bit_builtin(Lower *L, CExpr *e) {
  CExpr *x = arg(e, 0);
  KitCgVal v = lower_expr(L, x);
  KitCgType ct = kit_cg_val_type(L->f, v);
  KitCgVal r;
  switch (e->builtin) {
  case BI_CLZ: case BI_CTZ:
    r = kit_cg_unop(&L->b, e->builtin == BI_CLZ ? KIT_CG_OP_CLZ : KIT_CG_OP_CTZ, v);
    /* a tydesc marks the C builtin, whose zero argument is UB (UBSan's builtin check) */
    last_inst(L)->tydesc = lower_ub_tydesc(L, x->type, true);
    break;
  case BI_POPCOUNT: r = kit_cg_unop(&L->b, KIT_CG_OP_POPCNT, v); break;
  case BI_PARITY:
    r = kit_cg_binop(&L->b, KIT_CG_OP_AND, kit_cg_unop(&L->b, KIT_CG_OP_POPCNT, v), kit_cg_iconst(&L->b, ct, 1));
    break;
  case BI_FFS: {
    KitCgVal z = kit_cg_cmp(&L->b, KIT_CG_EQ, v, kit_cg_iconst(&L->b, ct, 0));
    KitCgVal t = kit_cg_binop(&L->b, KIT_CG_OP_ADD, kit_cg_unop(&L->b, KIT_CG_OP_CTZ, v), kit_cg_iconst(&L->b, ct, 1));
    r = kit_cg_select(&L->b, z, kit_cg_iconst(&L->b, ct, 0), t);
    break;
  }
  case BI_CLRSB: {
    KitCgVal neg = kit_cg_cmp(&L->b, KIT_CG_SLT, v, kit_cg_iconst(&L->b, ct, 0));
    KitCgVal m = kit_cg_select(&L->b, neg, kit_cg_unop(&L->b, KIT_CG_OP_NOT, v), v);
    r = kit_cg_binop(&L->b, KIT_CG_OP_SUB, kit_cg_unop(&L->b, KIT_CG_OP_CLZ, m), kit_cg_iconst(&L->b, ct, 1));
    break;
  }
  default: /* bswap */
    return kit_cg_unop(&L->b, KIT_CG_OP_BSWAP, v);
  }
  return lower_convert(L, r, type_is_signed(x->type) ? ty_ulong : x->type, e->type);
}

KitCgVal lower_builtin(Lower *L, CExpr *e) {
  switch (e->builtin) {
  case BI_VA_START: {
    KitCgVal ap = va_ptr(L, arg(e, 0));
    kit_cg_emit(&L->b, KIT_CG_OP_VASTART, KIT_CG_VOID, &ap, 1);
    return 0;
  }
  case BI_VA_END: {
    KitCgVal ap = va_ptr(L, arg(e, 0));
    kit_cg_emit(&L->b, KIT_CG_OP_VAEND, KIT_CG_VOID, &ap, 1);
    return 0;
  }
  case BI_VA_COPY: {
    KitCgVal a[2] = {va_ptr(L, arg(e, 0)), va_ptr(L, arg(e, 1))};
    kit_cg_emit(&L->b, KIT_CG_OP_VACOPY, KIT_CG_VOID, a, 2);
    return 0;
  }
  case BI_CONSTANT_P: {
    KitCgVal v = lower_expr(L, arg(e, 0));
    return kit_cg_emit(&L->b, KIT_CG_OP_ISCONST, KIT_CG_I32, &v, 1)->id;
  }
  case BI_EXPECT: case BI_ASSUME_ALIGNED: {
    KitCgVal v = lower_expr(L, arg(e, 0));
    for (CExprList *a = e->args->next; a; a = a->next) lower_expr(L, a->expr);
    return lower_convert(L, v, arg(e, 0)->type, e->type);
  }
  case BI_UNREACHABLE: case BI_TRAP:
    /* a tydesc on UNREACHABLE says the program asserted it (UBSan's unreachable check) */
    kit_cg_emit(&L->b, e->builtin == BI_TRAP ? KIT_CG_OP_TRAP : KIT_CG_OP_UNREACHABLE, KIT_CG_VOID, NULL, 0)->tydesc =
        e->builtin == BI_TRAP ? 0 : lower_tydesc(L, ty_void);
    lower_start_block(L, lower_new_block(L));
    return 0;
  case BI_BSWAP16: case BI_BSWAP32: case BI_BSWAP64:
  case BI_CLZ: case BI_CTZ: case BI_POPCOUNT: case BI_PARITY: case BI_FFS: case BI_CLRSB:
    return bit_builtin(L, e);
  case BI_ADD_OVERFLOW: case BI_SUB_OVERFLOW: case BI_MUL_OVERFLOW:
  case BI_ADD_OVERFLOW_P: case BI_SUB_OVERFLOW_P: case BI_MUL_OVERFLOW_P:
    return overflow_builtin(L, e);
  case BI_MEMCPY: case BI_MEMMOVE: case BI_MEMSET: {
    KitCgVal d = lower_expr(L, arg(e, 0));
    KitCgVal s = lower_expr(L, arg(e, 1));
    KitCgVal n = lower_convert(L, lower_expr(L, arg(e, 2)), arg(e, 2)->type, ty_ulong);
    if (e->builtin == BI_MEMSET) s = lower_convert(L, s, arg(e, 1)->type, ty_uchar);
    kit_cg_memop(&L->b, e->builtin == BI_MEMCPY ? KIT_CG_OP_MEMCPY : e->builtin == BI_MEMMOVE ? KIT_CG_OP_MEMMOVE : KIT_CG_OP_MEMSET,
                 d, s, n, KIT_CG_PROGRAM);
    last_inst(L)->flags |= KIT_CG_F_PASSED; /* memset(&a[n], 0, 0) is fine: &a[n] is only formed */
    return d;
  }
  case BI_MEMCMP: case BI_STRCMP: case BI_STRLEN: case BI_STRCPY: {
    static const char *names[] = {"memcmp", "strcmp", "strlen", "strcpy"};
    int k = e->builtin == BI_MEMCMP ? 0 : e->builtin == BI_STRCMP ? 1 : e->builtin == BI_STRLEN ? 2 : 3;
    KitCgType ps[3] = {KIT_CG_PTR, KIT_CG_PTR, KIT_CG_I64};
    uint32_t np = k == 0 ? 3 : k == 2 ? 1 : 2;
    KitCgType rt = k == 2 ? KIT_CG_I64 : k == 3 ? KIT_CG_PTR : KIT_CG_I32;
    KitCgVal a[3];
    for (uint32_t i = 0; i < np; i++) {
      CExpr *x = arg(e, (int)i);
      a[i] = lower_convert(L, lower_expr(L, x), x->type, i == 2 ? ty_ulong : x->type);
    }
    return kit_cg_call(&L->b, libc_fn(L, names[k], rt, ps, np), rt, a, np);
  }
  case BI_OBJECT_SIZE: {
    /* llvm.objectsize (p, min, null is unknown, dynamic): LLVM folds it once
     * inlining has shown the object, else to -1 (types 0, 1) or 0 (2, 3); as
     * in clang, types 1 and 3 measure the whole object, not the member */
    KitCgType ps[4] = {KIT_CG_PTR, KIT_CG_I1, KIT_CG_I1, KIT_CG_I1};
    KitCgVal a[4] = {lower_expr(L, arg(e, 0)), kit_cg_iconst(&L->b, KIT_CG_I1, (e->ival & 2) != 0),
                     kit_cg_iconst(&L->b, KIT_CG_I1, 1), kit_cg_iconst(&L->b, KIT_CG_I1, (e->ival & 4) != 0)};
    return kit_cg_call(&L->b, libc_fn(L, "llvm.objectsize.i64.p0", KIT_CG_I64, ps, 4), KIT_CG_I64, a, 4);
  }
  case BI_ALLOCA: {
    KitCgVal n = lower_convert(L, lower_expr(L, arg(e, 0)), arg(e, 0)->type, ty_ulong);
    KitCgInst *in = kit_cg_emit(&L->b, KIT_CG_OP_ALLOCA, KIT_CG_PTR, &n, 1);
    in->imm = 16;
    return in->id;
  }
  case BI_FRAME_ADDRESS: case BI_RETURN_ADDRESS: {
    KitCgInst *in = kit_cg_emit(&L->b, e->builtin == BI_FRAME_ADDRESS ? KIT_CG_OP_FRAMEADDR : KIT_CG_OP_RETADDR,
                                KIT_CG_PTR, NULL, 0);
    in->imm = (uint64_t)e->ival; /* the level, a constant (builtin.c) */
    return in->id;
  }
  case BI_FABS: case BI_SQRT: {
    KitCgVal v = lower_expr(L, arg(e, 0));
    return kit_cg_unop(&L->b, e->builtin == BI_FABS ? KIT_CG_OP_FABS : KIT_CG_OP_FSQRT, v);
  }
  case BI_COPYSIGN: case BI_FMIN: case BI_FMAX: {
    KitCgVal a = lower_expr(L, arg(e, 0)), b = lower_expr(L, arg(e, 1));
    KitCgOp op = e->builtin == BI_COPYSIGN ? KIT_CG_OP_FCOPYSIGN : e->builtin == BI_FMIN ? KIT_CG_OP_FMIN : KIT_CG_OP_FMAX;
    KitCgVal args[2] = {a, b};
    return kit_cg_emit(&L->b, op, kit_cg_val_type(L->f, a), args, 2)->id;
  }
  case BI_FMA: {
    KitCgVal a[3] = {lower_expr(L, arg(e, 0)), lower_expr(L, arg(e, 1)), lower_expr(L, arg(e, 2))};
    return kit_cg_emit(&L->b, KIT_CG_OP_FMA, kit_cg_val_type(L->f, a[0]), a, 3)->id;
  }
  case BI_ISNAN: case BI_ISINF: case BI_ISFINITE: case BI_SIGNBIT: case BI_ISUNORDERED: case BI_ISLESS:
  case BI_ISLESSEQUAL: case BI_ISGREATER: case BI_ISGREATEREQUAL: case BI_ISLESSGREATER:
    return float_class(L, e);
  case BI_PREFETCH:
    for (CExprList *a = e->args; a; a = a->next) lower_expr(L, a->expr);
    return 0;
  case BI_SETJMP: case BI_LONGJMP:
    c_error(L->diag, e->pos, "__builtin_setjmp/__builtin_longjmp are not supported by kitcc yet; use setjmp/longjmp");
    return kit_cg_iconst(&L->b, KIT_CG_I32, 0);
  default:
    return atomic_builtin(L, e);
  }
}
