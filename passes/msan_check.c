/* passes/msan_check.c — where the MSan pass meets memory and the runtime: the
 * report check (a cold block calling __msan_warning[_noreturn]), shadow memory
 * (address ^ shadow_xor, clang's x86-64 layout), the function entry (stack
 * objects poisoned, parameter shadows), calls (eager argument checks, the
 * shadows of struct pieces through __msan_param_tls, results through
 * __msan_retval_tls), returns, and memcpy/memmove/memset through the runtime. */
#include "msan_internal.h"

#include <stdio.h>
#include <string.h>

#define TLS_SIZE 800 /* bytes of __msan_param_tls and __msan_retval_tls, as clang's */


static KitCgInst *rt_call(MsanFn *M, KitCgSym fn, KitCgType ret, const KitCgVal *args, uint32_t n) {
  KitCgInst *in = kit_cg_emit(&M->b, KIT_CG_OP_CALL, ret, args, n);
  in->aux = fn;
  in->flags |= KIT_CG_F_NOINSTR;
  return in;
}

void msan_check(MsanFn *M, KitCgVal s, KitCgVal o) {
  KitCgVal bad = msan_any(M, s);
  if (bad == M->zero[KIT_CG_I1]) return;
  KitCgBlkId cont = kit_cg_block_new(M->m, M->f), report = kit_cg_block_new(M->m, M->f);
  kit_cg_condbr(&M->b, bad, report, cont);
  KitCgBlock *bb = &M->f->blocks[M->b.blk];
  bb->insts[bb->ninsts - 1].flags |= KIT_CG_F_COLD | KIT_CG_F_NOINSTR;
  kit_cg_builder_at(&M->b, report);
  if (msan_lifted(M)) { /* the guest pc of the instruction; the runtime decides whether it returns */
    KitCgType pt[2] = {KIT_CG_I64, KIT_CG_I32};
    bool sel = M->c->select_pc && M->c->select_pc(M->c->user, M->b.loc.pc);
    bool with_origin = !sel && msan_origins(M);
    const char *name = sel ? "__msan_emu_select" : with_origin ? "__msan_emu_warning_origin" : "__msan_emu_warning";
    KitCgSym fn = kit_pass_runtime_fn(M->m, name, KIT_CG_VOID, pt, 1 + with_origin, false);
    KitCgVal args[2] = {msan_i64(M, M->b.loc.pc), o ? o : msan_clean(M, KIT_CG_I32)};
    rt_call(M, fn, KIT_CG_VOID, args, 1 + with_origin)->flags |= KIT_CG_F_NOMERGE | KIT_CG_F_COLD;
    kit_cg_br(&M->b, cont);
    kit_cg_builder_at(&M->b, cont);
    return;
  }
  bool recover = M->c->recover;
  if (msan_origins(M)) { /* clang's __msan_warning_with_origin[_noreturn](u32) */
    KitCgType pt = KIT_CG_I32;
    KitCgSym fn = kit_pass_runtime_fn(M->m, recover ? "__msan_warning_with_origin" : "__msan_warning_with_origin_noreturn",
                                      KIT_CG_VOID, &pt, 1, !recover);
    KitCgVal org = o ? o : msan_clean(M, KIT_CG_I32);
    rt_call(M, fn, KIT_CG_VOID, &org, 1)->flags |= KIT_CG_F_NOMERGE | KIT_CG_F_COLD;
  } else {
    KitCgSym fn = kit_pass_runtime_fn(M->m, recover ? "__msan_warning" : "__msan_warning_noreturn", KIT_CG_VOID, NULL,
                                      0, !recover);
    rt_call(M, fn, KIT_CG_VOID, NULL, 0)->flags |= KIT_CG_F_NOMERGE | KIT_CG_F_COLD;
  }
  if (recover)
    kit_cg_br(&M->b, cont);
  else
    kit_cg_unreachable(&M->b);
  kit_cg_builder_at(&M->b, cont);
}

void msan_check_value(MsanFn *M, KitCgVal v) {
  msan_check(M, msan_shadow_of(M, v), msan_origins(M) ? msan_origin_of(M, v) : 0);
}

KitCgVal msan_shadow_ptr(MsanFn *M, KitCgVal ptr) {
  if (M->shp && ptr < M->nvals0 && M->shp[ptr]) return M->shp[ptr];
  KitCgVal a = msan_emit(M, KIT_CG_OP_PTRTOINT, KIT_CG_I64, &ptr, 1)->id;
  KitCgVal s = M->c->shadow_add ? msan_op2(M, KIT_CG_OP_ADD, a, msan_i64(M, M->c->shadow_add))
                                : msan_op2(M, KIT_CG_OP_XOR, a, msan_i64(M, M->c->shadow_xor));
  return msan_emit(M, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, &s, 1)->id;
}

static KitCgVal load_at(MsanFn *M, KitCgType st, KitCgVal sp) {
  KitCgInst *ld = msan_emit(M, KIT_CG_OP_LOAD, st, &sp, 1);
  ld->imm = 1;
  return ld->id;
}

static void store_at(MsanFn *M, KitCgVal s, KitCgVal sp) {
  KitCgVal args[2] = {s, sp};
  msan_emit(M, KIT_CG_OP_STORE, KIT_CG_VOID, args, 2)->imm = 1;
}

KitCgVal msan_load_shadow(MsanFn *M, KitCgType t, KitCgVal ptr) {
  KitCgVal sp = msan_shadow_ptr(M, ptr);
  if (t == KIT_CG_I1) return msan_any(M, load_at(M, KIT_CG_I8, sp));
  KitCgVal s = load_at(M, msan_shadow_type(t), sp);
  if (t == KIT_CG_F80) /* the 6 bytes past the 80 value bits are the slot's padding */
    s = msan_op2(M, KIT_CG_OP_AND, s, kit_cg_i128const(&M->b, ~0ull, 0xffff));
  return s;
}

void msan_store_shadow(MsanFn *M, KitCgVal s, KitCgType t, KitCgVal ptr) {
  KitCgVal sp = msan_shadow_ptr(M, ptr);
  if (t == KIT_CG_I1) s = msan_emit(M, KIT_CG_OP_SEXT, KIT_CG_I8, &s, 1)->id;
  store_at(M, s, sp);
}

void msan_set_shadow(MsanFn *M, KitCgVal ptr, uint8_t byte, KitCgVal len) {
  KitCgVal args[3] = {msan_shadow_ptr(M, ptr), kit_cg_iconst(&M->b, KIT_CG_I8, byte), len};
  msan_emit(M, KIT_CG_OP_MEMSET, KIT_CG_VOID, args, 3);
}

/* the TLS slot bytes one argument takes: its size (a byval copy's), 8-aligned */
static uint64_t arg_slot(const KitCgParam *p, KitCgType t) {
  uint64_t n = p && (p->attrs & KIT_CG_PA_BYVAL) ? p->byval_size : kit_cg_type_size(t);
  return (n + 7) & ~7ull;
}

static bool through_tls(const MsanFn *M, const KitCgParam *p) {
  if (p && (p->attrs & KIT_CG_PA_BYVAL)) return false;
  return !M->c->eager_checks || (p && (p->attrs & KIT_CG_PA_PARTIAL));
}

void msan_entry(MsanFn *M) {
  KitCgFunc *f = M->f;
  uint64_t off = 0;
  for (uint32_t i = 0; i < f->nparams && !msan_lifted(M); i++) {
    const KitCgParam *p = &f->params[i];
    KitCgVal v = kit_cg_param(f, i);
    uint64_t slot = arg_slot(p, (KitCgType)p->type);
    /* a byval copy is made by the call itself, out of the pass's sight */
    if (p->attrs & KIT_CG_PA_BYVAL) msan_set_shadow(M, v, 0, msan_i64(M, p->byval_size));
    if (through_tls(M, p) && off + slot <= TLS_SIZE) {
      M->sh[v] = load_at(M, msan_shadow_type((KitCgType)p->type), kit_cg_symaddr(&M->b, M->param_tls, (int64_t)off));
      if (msan_origins(M)) M->org[v] = msan_load_origin_at(M, kit_cg_symaddr(&M->b, M->param_origin_tls, (int64_t)off));
    }
    off += slot;
  }
  for (uint32_t o = 0; o < M->nstack0; o++) msan_poison_object(M, o);
}

static KitCgFunc *direct_callee(const MsanFn *M, const KitCgInst *in) {
  if (in->op != KIT_CG_OP_CALL || in->aux >= M->m->nsyms || M->m->syms[in->aux].kind != KIT_CG_SYM_FUNC)
    return NULL;
  return kit_cg_func_of(M->m, in->aux);
}

/* Calls of the libc functions LLVM rewrites into others (strcpy into memcpy,
 * sprintf into strcpy, memcmp into loads, fwrite into fputs) go to the
 * runtime's interceptor under a name LLVM does not know, as clang's
 * MemorySanitizer marks them nobuiltin: else the rewritten call would bypass
 * the interceptor and leave the copy's shadow stale. */
static bool redirect_libcall(MsanFn *M, KitCgInst *in, const KitCgFunc *callee, const char *name) {
  static const char *const fns[] = {"strcpy", "stpcpy", "strncpy", "strcat", "strncat", "memcmp",
                                    "sprintf", "snprintf", "vsprintf", "vsnprintf", "fwrite"};
  for (size_t k = 0; k < sizeof fns / sizeof *fns; k++) {
    if (strcmp(name, fns[k])) continue;
    char rt[40];
    snprintf(rt, sizeof rt, "__kit_msan_%s", fns[k]);
    KitCgType types[8];
    uint32_t n = callee->nparams < 8 ? callee->nparams : 8;
    for (uint32_t i = 0; i < n; i++) types[i] = (KitCgType)callee->params[i].type;
    KitCgFunc *f = kit_cg_func_declare(M->m, rt, (KitCgType)callee->ret[0], types, n, callee->variadic);
    if (!f) return false;
    f->attrs |= KIT_CG_FA_NOUNWIND;
    in->aux = f->sym;
    return false; /* an ordinary call still: its arguments are checked */
  }
  return false;
}

/* calls of memcpy/memmove/memset go to the runtime's shadow-copying versions */
static bool redirect_memfn(MsanFn *M, KitCgInst *in, const KitCgFunc *callee) {
  const char *name = kit_cg_func_name(M->m, callee);
  static const char *const fns[] = {"memcpy", "memmove", "memset"};
  for (int k = 0; k < 3; k++) {
    if (strcmp(name, fns[k]) || in->nargs != 3) continue;
    char rt[32] = "__msan_";
    strcat(rt, fns[k]);
    KitCgType p[3] = {KIT_CG_PTR, k == 2 ? KIT_CG_I32 : KIT_CG_PTR, KIT_CG_I64};
    in->aux = kit_pass_runtime_fn(M->m, rt, KIT_CG_PTR, p, 3, false);
    in->argattrs = NULL;
    return true;
  }
  return redirect_libcall(M, in, callee, name);
}

/* a result whose shadow comes back through __msan_retval_tls (else: clean) */
static bool result_through_tls(const MsanFn *M, const KitCgInst *in) {
  if (in->type == KIT_CG_VOID) return false;
  const KitCgFunc *callee = direct_callee(M, in);
  if (!callee) return true;
  return !M->c->eager_checks || (callee->ret_attrs & KIT_CG_PA_PARTIAL);
}

static KitCgVal retval_slot(MsanFn *M, int k) { return kit_cg_symaddr(&M->b, M->retval_tls, 16 * k); }

void msan_call_before(MsanFn *M, KitCgInst *in) {
  if ((in->flags & KIT_CG_F_NOINSTR) || msan_lifted(M)) return;
  KitCgFunc *callee = direct_callee(M, in);
  if (callee && redirect_memfn(M, in, callee)) return;
  uint32_t first = in->op == KIT_CG_OP_CALLI;
  if (first) msan_check_value(M, in->args[0]);
  uint64_t off = 0;
  for (uint32_t i = first; i < in->nargs; i++) {
    uint32_t k = i - first;
    const KitCgParam *p = in->argattrs ? &in->argattrs[k] : callee && k < callee->nparams ? &callee->params[k] : NULL;
    KitCgType t = kit_cg_val_type(M->f, in->args[i]);
    uint64_t slot = arg_slot(p, t);
    KitCgVal s = msan_shadow_of(M, in->args[i]);
    if (through_tls(M, p)) {
      if (off + slot <= TLS_SIZE) store_at(M, s, kit_cg_symaddr(&M->b, M->param_tls, (int64_t)off));
      if (off + slot <= TLS_SIZE && msan_origins(M) && s != msan_clean(M, kit_cg_val_type(M->f, s)))
        msan_store_origin_at(M, msan_origin_of(M, in->args[i]), kit_cg_symaddr(&M->b, M->param_origin_tls, (int64_t)off));
    } else if (!(p && (p->attrs & KIT_CG_PA_BYVAL))) {
      msan_check_value(M, in->args[i]);
    }
    off += slot;
  }
  if (result_through_tls(M, in)) {
    /* an uninstrumented callee leaves the slots alone: its result is initialized */
    store_at(M, msan_clean(M, msan_shadow_type((KitCgType)in->type)), retval_slot(M, 0));
    if (in->type2 != KIT_CG_VOID)
      store_at(M, msan_clean(M, msan_shadow_type((KitCgType)in->type2)), retval_slot(M, 1));
  }
}

/* lifted code: an emulator helper's result is as initialized as its integer arguments */
static KitCgVal helper_result(MsanFn *M, const KitCgInst *in, KitCgType st) {
  KitCgVal any = 0;
  for (uint32_t i = in->op == KIT_CG_OP_CALLI; i < in->nargs; i++) {
    KitCgType t = kit_cg_val_type(M->f, in->args[i]);
    if (!kit_cg_type_is_int(t) && t != KIT_CG_F32 && t != KIT_CG_F64) continue;
    KitCgVal a = msan_any(M, msan_shadow_of(M, in->args[i]));
    if (a == M->zero[KIT_CG_I1]) continue;
    any = any ? msan_op2(M, KIT_CG_OP_OR, any, a) : a;
  }
  if (!any || kit_cg_type_is_vec(st)) return msan_clean(M, st);
  return st == KIT_CG_I1 ? any : msan_emit(M, KIT_CG_OP_SEXT, st, &any, 1)->id;
}

void msan_call_after(MsanFn *M, const KitCgInst *in) {
  KitCgType st = msan_shadow_type((KitCgType)in->type);
  if (msan_lifted(M) && (in->op == KIT_CG_OP_CALLI || (in->flags & KIT_CG_F_TAIL))) {
    /* a chained exit's tail call: the next block's result (its pc was checked
     * where the exit branched on it), and nothing between it and its ret */
    M->sh[in->id] = msan_clean(M, st);
    return;
  }
  if (msan_lifted(M)) {
    M->sh[in->id] = helper_result(M, in, st);
    if (msan_origins(M)) M->org[in->id] = msan_origin_combine(M, in);
    if (in->type2 != KIT_CG_VOID) M->sh2[in->id] = helper_result(M, in, msan_shadow_type((KitCgType)in->type2));
    return;
  }
  const KitCgFunc *callee = direct_callee(M, in);
  bool runtime = callee && !strncmp(kit_cg_func_name(M->m, callee), "__msan_", 7);
  if ((in->flags & KIT_CG_F_NOINSTR) || runtime || !result_through_tls(M, in)) {
    M->sh[in->id] = msan_clean(M, st);
    return;
  }
  M->sh[in->id] = load_at(M, st, retval_slot(M, 0));
  if (msan_origins(M)) M->org[in->id] = msan_load_origin_at(M, kit_cg_symaddr(&M->b, M->retval_origin_tls, 0));
  if (in->type2 != KIT_CG_VOID) M->sh2[in->id] = load_at(M, msan_shadow_type((KitCgType)in->type2), retval_slot(M, 1));
}

void msan_ret(MsanFn *M, const KitCgInst *in) {
  if (msan_lifted(M)) { /* the next guest pc: where an uninitialized bit sends the guest (a branch) */
    if (!in->nargs) return;
    KitCgVal v = in->args[0];
    KitCgLoc at = M->b.loc;
    M->b.loc = msan_value_loc(M, v);
    msan_check_value(M, v);
    M->b.loc = at;
    return;
  }
  bool eager = M->c->eager_checks && !(M->f->ret_attrs & KIT_CG_PA_PARTIAL);
  KitCgVal org = msan_origins(M) ? msan_clean(M, KIT_CG_I32) : 0; /* one for the results, as clang's */
  for (uint32_t k = 0; k < in->nargs && k < 2; k++) {
    KitCgVal v = in->args[k], s = msan_shadow_of(M, v);
    /* reported where the value is computed: the symbolizer places a report
     * call after the epilogue at no line */
    KitCgLoc at = M->b.loc;
    if (v < M->nvals0 && M->vloc[v].file) M->b.loc = M->vloc[v];
    if (eager && !(in->flags & KIT_CG_F_NOINSTR)) msan_check_value(M, v);
    M->b.loc = at;
    store_at(M, s, retval_slot(M, (int)k));
    if (org) org = msan_origin_pick(M, org, s, msan_origin_of(M, v));
  }
  if (org && org != msan_clean(M, KIT_CG_I32))
    msan_store_origin_at(M, org, kit_cg_symaddr(&M->b, M->retval_origin_tls, 0));
}

/* v's constant value when an instruction of f makes it one */
static bool const_val(const MsanFn *M, KitCgVal v, uint64_t *k) {
  for (uint32_t bi = 0; bi < M->f->nblocks; bi++)
    for (uint32_t i = 0; i < M->f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &M->f->blocks[bi].insts[i];
      if (in->id != v) continue;
      if (in->op != KIT_CG_OP_CONST) return false;
      *k = in->imm;
      return true;
    }
  return false;
}

#define INLINE_MEMOP 64 /* bytes: a struct copy or clear; its shadow's is inline too */

void msan_memop(MsanFn *M, const KitCgInst *in) {
  KitCgVal dst = in->args[0], src = in->args[1], len = in->args[2];
  uint64_t n;
  if (const_val(M, len, &n) && n <= INLINE_MEMOP) { /* clang's optimiser has made these loads and stores */
    kit_pass_append_original(M->m, M->f, M->b.blk, in);
    if (in->op == KIT_CG_OP_MEMSET) {
      msan_set_shadow(M, dst, 0, len);
    } else {
      KitCgVal args[3] = {msan_shadow_ptr(M, dst), msan_shadow_ptr(M, src), len};
      msan_emit(M, (KitCgOp)in->op, KIT_CG_VOID, args, 3);
      if (msan_origins(M) && !msan_lifted(M)) msan_copy_origin(M, dst, src, n);
    }
    return;
  }
  const char *name = in->op == KIT_CG_OP_MEMCPY ? "__msan_memcpy" : in->op == KIT_CG_OP_MEMMOVE ? "__msan_memmove"
                                                                                              : "__msan_memset";
  KitCgType p[3] = {KIT_CG_PTR, in->op == KIT_CG_OP_MEMSET ? KIT_CG_I32 : KIT_CG_PTR, KIT_CG_I64};
  if (in->op == KIT_CG_OP_MEMSET) src = msan_emit(M, KIT_CG_OP_ZEXT, KIT_CG_I32, &src, 1)->id;
  KitCgVal args[3] = {dst, src, len};
  rt_call(M, kit_pass_runtime_fn(M->m, name, KIT_CG_PTR, p, 3, false), KIT_CG_PTR, args, 3);
}

/* ---- lifted code: the guest CPU state ---- */

static KitCgVal state_slot(MsanFn *M, uint64_t off) {
  KitCgVal a = msan_i64(M, M->c->state_shadow + off);
  return msan_emit(M, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, &a, 1)->id;
}

KitCgVal msan_state_load(MsanFn *M, KitCgType t, uint64_t off) {
  if (off == M->c->state_pc) return msan_clean(M, msan_shadow_type(t));
  return load_at(M, msan_shadow_type(t), state_slot(M, off));
}

/* with origins: a register's origin, one per 4 bytes of the CPU state */
static KitCgVal state_origin_slot(MsanFn *M, uint64_t off) {
  KitCgVal a = msan_i64(M, M->c->state_origin + (off & ~3ull));
  return msan_emit(M, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, &a, 1)->id;
}

KitCgVal msan_state_load_origin(MsanFn *M, uint64_t off) {
  if (off == M->c->state_pc) return msan_clean(M, KIT_CG_I32);
  return msan_load_origin_at(M, state_origin_slot(M, off));
}

void msan_state_store(MsanFn *M, const KitCgInst *in, uint64_t off) {
  KitCgVal v = in->args[0], s = msan_shadow_of(M, v);
  if (off == M->c->state_pc) return; /* the next pc is checked at the block's ret (msan_ret) */
  if (off == M->c->state_sp) { /* down: a new frame */
    KitCgVal old = msan_emit(M, KIT_CG_OP_LOAD, KIT_CG_I64, &in->args[1], 1)->id;
    KitCgVal cmp[2] = {v, old};
    KitCgInst *down = msan_emit(M, KIT_CG_OP_ICMP, KIT_CG_I1, cmp, 2);
    down->pred = KIT_CG_ULT;
    KitCgBlkId cont = kit_cg_block_new(M->m, M->f), poison = kit_cg_block_new(M->m, M->f);
    kit_cg_condbr(&M->b, down->id, poison, cont);
    M->f->blocks[M->b.blk].insts[M->f->blocks[M->b.blk].ninsts - 1].flags |= KIT_CG_F_NOINSTR;
    kit_cg_builder_at(&M->b, poison);
    /* with origins, the new frame's origin names this instruction (the prologue's) */
    KitCgType pt[3] = {KIT_CG_I64, KIT_CG_I64, KIT_CG_I64};
    uint32_t n = msan_origins(M) ? 3 : 2;
    KitCgSym fn = kit_pass_runtime_fn(M->m, n == 3 ? "__msan_emu_sp_origin" : "__msan_emu_sp", KIT_CG_VOID, pt, n, false);
    KitCgVal args[3] = {old, v, msan_i64(M, M->b.loc.pc)};
    rt_call(M, fn, KIT_CG_VOID, args, n);
    kit_cg_br(&M->b, cont);
    kit_cg_builder_at(&M->b, cont);
  }
  store_at(M, s, state_slot(M, off));
  if (msan_origins(M)) msan_store_origin_at(M, msan_origin_of(M, v), state_origin_slot(M, off));
}

void msan_poison_object(MsanFn *M, uint32_t o) {
  KitCgVal len = msan_i64(M, M->f->stack[o].size);
  if (M->shadow_obj && M->shadow_obj[o]) {
    KitCgVal args[3] = {kit_cg_stackaddr(&M->b, M->shadow_obj[o] - 1), kit_cg_iconst(&M->b, KIT_CG_I8, 0xff), len};
    msan_emit(M, KIT_CG_OP_MEMSET, KIT_CG_VOID, args, 3);
  } else {
    msan_set_shadow(M, kit_cg_stackaddr(&M->b, o), 0xff, len);
  }
  if (msan_origins(M) && !msan_lifted(M)) msan_origin_object(M, o);
}
