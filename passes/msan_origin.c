/* passes/msan_origin.c — origins (-fsanitize-memory-track-origins; lifted
 * code at level 1, with KitMsanConfig.origin_add and state_origin): an i32
 * beside every shadow that may be set, naming where its
 * uninitialized bits were made, as clang's MemorySanitizer keeps them: a value
 * op takes the origin of an operand whose shadow is set (the last one, a select
 * on shadow != 0), memory keeps one origin per 4-byte granule at (address ^
 * 0x500000000000) + 0x100000000000 (stores write it where the stored shadow is
 * set; level 2 chains it to the store's stack first), a private stack object
 * (msan.c) one origin slot of its own, stack objects start with an origin the
 * runtime makes from "x@f" and the pc of their declaration. */
#include "msan_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORIGIN_ADD 0x100000000000ull /* origin of a: (shadow of a) + this, aligned down to 4 */

bool msan_origins(const MsanFn *M) { return M->c->origins > 0 && (!msan_lifted(M) || M->c->origin_add); }

static KitCgVal none(MsanFn *M) { return msan_clean(M, KIT_CG_I32); }

static bool clean_shadow(MsanFn *M, KitCgVal s) { return s == M->zero[kit_cg_val_type(M->f, s)]; }

KitCgVal msan_origin_of(MsanFn *M, KitCgVal v) {
  if (M->org && v && v < M->nvals0 && M->org[v] && !clean_shadow(M, msan_shadow_of(M, v))) return M->org[v];
  return none(M);
}

KitCgVal msan_origin_pick(MsanFn *M, KitCgVal o1, KitCgVal s2, KitCgVal o2) {
  if (o2 == none(M) || clean_shadow(M, s2)) return o1;
  if (o1 == none(M)) return o2;
  KitCgVal any = msan_any(M, s2);
  if (any == M->zero[KIT_CG_I1]) return o1;
  KitCgVal args[3] = {any, o2, o1};
  return msan_emit(M, KIT_CG_OP_SELECT, KIT_CG_I32, args, 3)->id;
}

KitCgVal msan_origin_combine(MsanFn *M, const KitCgInst *in) {
  KitCgVal o = none(M);
  for (uint32_t k = 0; k < in->nargs; k++) {
    KitCgVal a = in->args[k];
    if (a >= M->nvals0) continue;
    o = msan_origin_pick(M, o, msan_shadow_of(M, a), msan_origin_of(M, a));
  }
  return o;
}

/* clang's: the condition's origin when it is uninitialized, else the chosen side's */
KitCgVal msan_origin_select(MsanFn *M, const KitCgInst *in) {
  if (kit_cg_val_type(M->f, in->args[0]) != KIT_CG_I1) return msan_origin_combine(M, in);
  KitCgVal ox = msan_origin_of(M, in->args[1]), oy = msan_origin_of(M, in->args[2]), o = ox;
  if (ox != oy) {
    KitCgVal args[3] = {in->args[0], ox, oy};
    o = msan_emit(M, KIT_CG_OP_SELECT, KIT_CG_I32, args, 3)->id;
  }
  return msan_origin_pick(M, o, msan_shadow_of(M, in->args[0]), msan_origin_of(M, in->args[0]));
}

static KitCgVal origin_ptr(MsanFn *M, KitCgVal ptr) {
  if (M->orp && ptr < M->nvals0 && M->orp[ptr]) return M->orp[ptr];
  KitCgVal a = msan_emit(M, KIT_CG_OP_PTRTOINT, KIT_CG_I64, &ptr, 1)->id;
  if (msan_lifted(M)) {
    a = msan_op2(M, KIT_CG_OP_ADD, a, msan_i64(M, M->c->origin_add));
  } else {
    a = msan_op2(M, KIT_CG_OP_XOR, a, msan_i64(M, M->c->shadow_xor));
    a = msan_op2(M, KIT_CG_OP_ADD, a, msan_i64(M, ORIGIN_ADD));
  }
  a = msan_op2(M, KIT_CG_OP_AND, a, msan_i64(M, ~3ull));
  return msan_emit(M, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, &a, 1)->id;
}

/* an 8-byte value's: its second granule's when the first is initialized
 * (clang's takes the first granule's alone: a struct copied in registers
 * whose first member is set would name the copy's temporary) */
KitCgVal msan_load_origin(MsanFn *M, KitCgVal ptr, KitCgVal s) {
  KitCgVal op = origin_ptr(M, ptr), o = msan_load_origin_at(M, op);
  if (kit_cg_val_type(M->f, s) != KIT_CG_I64 || (M->orp && ptr < M->nvals0 && M->orp[ptr])) return o;
  KitCgVal a[2] = {op, msan_i64(M, 4)};
  KitCgVal o2 = msan_load_origin_at(M, msan_emit(M, KIT_CG_OP_PTRADD, KIT_CG_PTR, a, 2)->id);
  KitCgVal lo = msan_emit(M, KIT_CG_OP_TRUNC, KIT_CG_I32, &s, 1)->id;
  return msan_origin_pick(M, o2, lo, o);
}

static void store_i32(MsanFn *M, KitCgVal o, KitCgVal at) {
  KitCgVal args[2] = {o, at};
  msan_emit(M, KIT_CG_OP_STORE, KIT_CG_VOID, args, 2)->imm = 4;
}

static KitCgSym rt_fn(MsanFn *M, const char *name, KitCgType ret, const KitCgType *params, uint32_t n) {
  return kit_pass_runtime_fn(M->m, name, ret, params, n, false);
}

static KitCgInst *rt_call(MsanFn *M, KitCgSym fn, KitCgType ret, const KitCgVal *args, uint32_t n) {
  KitCgInst *in = kit_cg_emit(&M->b, KIT_CG_OP_CALL, ret, args, n);
  in->aux = fn;
  in->flags |= KIT_CG_F_NOINSTR;
  return in;
}

/* where shadow s of a t stored at ptr has a set bit: origin o into each of its
 * granules (a private object: its one slot); level 2 chains o to this store */
void msan_store_origin(MsanFn *M, KitCgVal s, KitCgType t, KitCgVal ptr, KitCgVal o) {
  if (clean_shadow(M, s) || o == none(M)) return;
  KitCgVal any = msan_any(M, s);
  if (any == M->zero[KIT_CG_I1]) return;
  KitCgBlkId cont = kit_cg_block_new(M->m, M->f), paint = kit_cg_block_new(M->m, M->f);
  KitCgLoc at_store = M->b.loc;
  if (!M->b.loc.line) M->b.loc = M->f->loc; /* a parameter's spill: the chain names the function's line */
  kit_cg_condbr(&M->b, any, paint, cont);
  KitCgBlock *bb = &M->f->blocks[M->b.blk];
  bb->insts[bb->ninsts - 1].flags |= KIT_CG_F_NOINSTR;
  kit_cg_builder_at(&M->b, paint);
  bool private = M->orp && ptr < M->nvals0 && M->orp[ptr];
  /* from -O1, clang's optimiser has made a promoted object's loads and
   * stores register moves before its pass runs: they chain nothing */
  bool promoted = M->promoted && ptr < M->nvals0 && M->promoted[ptr];
  if (M->c->origins > 1 && !promoted && !msan_lifted(M)) {
    KitCgType pt = KIT_CG_I32;
    o = rt_call(M, rt_fn(M, "__msan_chain_origin", KIT_CG_I32, &pt, 1), KIT_CG_I32, &o, 1)->id;
  }
  KitCgVal at = origin_ptr(M, ptr);
  uint64_t n = private ? 1 : (kit_cg_type_size(t) + 3) / 4;
  for (uint64_t k = 0; k < n; k++) {
    KitCgVal a[2] = {at, msan_i64(M, 4 * k)};
    store_i32(M, o, k ? msan_emit(M, KIT_CG_OP_PTRADD, KIT_CG_PTR, a, 2)->id : at);
  }
  kit_cg_br(&M->b, cont);
  kit_cg_builder_at(&M->b, cont);
  M->b.loc = at_store;
}

/* Stack objects SROA and mem2reg would take apart: their address reaches
 * only loads, stores, ptradds and constant-length memcpy/memmove/memset. */
void msan_find_promoted(MsanFn *M) {
  KitCgFunc *f = M->f;
  uint32_t n = M->nstack0;
  uint32_t *from = msan_stack_bases(f, n);
  uint8_t *esc = calloc(n + 1, 1);
  M->promoted = calloc(f->nvals + 1, sizeof *M->promoted);
  if (!esc || !M->promoted) abort();
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      bool memop = in->op == KIT_CG_OP_MEMCPY || in->op == KIT_CG_OP_MEMMOVE || in->op == KIT_CG_OP_MEMSET;
      for (uint32_t k = 0; k < in->nargs; k++) {
        if (in->args[k] > f->nvals || !from[in->args[k]]) continue;
        bool ok = (in->op == KIT_CG_OP_LOAD && k == 0) || (in->op == KIT_CG_OP_STORE && k == 1) ||
                  (in->op == KIT_CG_OP_PTRADD && k == 0) || (memop && k < 2);
        if (!ok || (in->flags & KIT_CG_F_VOLATILE)) esc[from[in->args[k]] - 1] = 1;
      }
    }
  for (uint32_t v = 1; v <= f->nvals && v < M->nvals0; v++) M->promoted[v] = from[v] && !esc[from[v] - 1];
  free(from);
  free(esc);
}

void msan_copy_origin(MsanFn *M, KitCgVal dst, KitCgVal src, uint64_t n) {
  KitCgVal sp = msan_shadow_ptr(M, dst), any = 0;
  for (uint64_t off = 0; off < n;) { /* the copied shadow, OR-ed in 8-, 4-, 2- and 1-byte pieces */
    uint64_t w = n - off >= 8 ? 8 : n - off >= 4 ? 4 : n - off >= 2 ? 2 : 1;
    KitCgType t = w == 8 ? KIT_CG_I64 : w == 4 ? KIT_CG_I32 : w == 2 ? KIT_CG_I16 : KIT_CG_I8;
    KitCgVal a[2] = {sp, msan_i64(M, off)};
    KitCgVal at = off ? msan_emit(M, KIT_CG_OP_PTRADD, KIT_CG_PTR, a, 2)->id : sp;
    KitCgInst *ld = msan_emit(M, KIT_CG_OP_LOAD, t, &at, 1);
    ld->imm = 1;
    KitCgVal piece = ld->id;
    if (t != KIT_CG_I64) piece = msan_emit(M, KIT_CG_OP_ZEXT, KIT_CG_I64, &piece, 1)->id;
    any = any ? msan_op2(M, KIT_CG_OP_OR, any, piece) : piece;
    off += w;
  }
  KitCgBlkId cont = kit_cg_block_new(M->m, M->f), copy = kit_cg_block_new(M->m, M->f);
  kit_cg_condbr(&M->b, msan_any(M, any), copy, cont);
  KitCgBlock *bb = &M->f->blocks[M->b.blk];
  bb->insts[bb->ninsts - 1].flags |= KIT_CG_F_NOINSTR | KIT_CG_F_COLD;
  kit_cg_builder_at(&M->b, copy);
  bool chain = M->c->origins > 1 && !(M->promoted && dst < M->nvals0 && M->promoted[dst]);
  KitCgType pt[4] = {KIT_CG_PTR, KIT_CG_PTR, KIT_CG_I64, KIT_CG_I32};
  KitCgVal args[4] = {dst, src, msan_i64(M, n), kit_cg_iconst(&M->b, KIT_CG_I32, chain)};
  rt_call(M, rt_fn(M, "__kit_msan_copy_origin", KIT_CG_VOID, pt, 4), KIT_CG_VOID, args, 4);
  kit_cg_br(&M->b, cont);
  kit_cg_builder_at(&M->b, cont);
}

/* "----x@f": the runtime keeps the origin's id in the first 4 bytes; an
 * object without a name (a temporary, alloca()) is "----@f", as clang's */
static KitCgSym descr_global(MsanFn *M, const char *var) {
  char text[300];
  snprintf(text, sizeof text, "----%.140s@%.140s", var, kit_cg_func_name(M->m, M->f));
  static unsigned counter;
  char name[48];
  do snprintf(name, sizeof name, ".msan.origin.%u", counter++);
  while (kit_cg_sym_find(M->m, name) != UINT32_MAX);
  size_t n = strlen(text) + 1;
  KitCgGlobal *g = kit_cg_global_new(M->m, name, n, 4);
  kit_cg_global_set_init(M->m, g, text, n);
  M->m->syms[g->sym].linkage = KIT_CG_LINK_INTERNAL;
  return g->sym;
}

/* the call that makes a stack origin (its pc, the builder's location, is the report's frame) */
static KitCgVal stack_origin(MsanFn *M, const char *var) {
  KitCgVal d = kit_cg_symaddr(&M->b, descr_global(M, var), 0);
  KitCgVal cached = msan_load_origin_at(M, d); /* "----" until the runtime has made the id */
  KitCgVal args[2] = {cached, kit_cg_iconst(&M->b, KIT_CG_I32, 0x2d2d2d2d)};
  KitCgInst *first = msan_emit(M, KIT_CG_OP_ICMP, KIT_CG_I1, args, 2);
  first->pred = KIT_CG_EQ;
  KitCgBlkId from = M->b.blk, make = kit_cg_block_new(M->m, M->f), cont = kit_cg_block_new(M->m, M->f);
  kit_cg_condbr(&M->b, first->id, make, cont);
  KitCgBlock *bb = &M->f->blocks[M->b.blk];
  bb->insts[bb->ninsts - 1].flags |= KIT_CG_F_NOINSTR | KIT_CG_F_COLD;
  kit_cg_builder_at(&M->b, make);
  KitCgType pt = KIT_CG_PTR;
  KitCgVal made = rt_call(M, rt_fn(M, "__kit_msan_stack_origin", KIT_CG_I32, &pt, 1), KIT_CG_I32, &d, 1)->id;
  kit_cg_br(&M->b, cont);
  kit_cg_builder_at(&M->b, cont);
  KitCgInst *id = kit_cg_phi(&M->b, KIT_CG_I32);
  id->flags |= KIT_CG_F_NOINSTR;
  kit_cg_phi_add(M->m, id, cached, from);
  kit_cg_phi_add(M->m, &M->f->blocks[M->b.blk].insts[M->f->blocks[M->b.blk].ninsts - 1], made, make);
  return M->f->blocks[M->b.blk].insts[M->f->blocks[M->b.blk].ninsts - 1].id;
}

static void set_origin(MsanFn *M, KitCgVal ptr, KitCgVal len, KitCgVal id) {
  KitCgType pt[3] = {KIT_CG_PTR, KIT_CG_I64, KIT_CG_I32};
  KitCgVal args[3] = {ptr, len, id};
  rt_call(M, rt_fn(M, "__msan_set_origin", KIT_CG_VOID, pt, 3), KIT_CG_VOID, args, 3);
}

/* stack object o was just poisoned: its origin, made at its declaration's line */
void msan_origin_object(MsanFn *M, uint32_t o) {
  if (!M->obj_origin[o]) {
    KitCgLoc at = M->b.loc;
    const KitCgStackObj *so = &M->f->stack[o];
    M->b.loc = so->loc.line ? so->loc : M->f->loc;
    M->obj_origin[o] = stack_origin(M, so->name ? kit_cg_strget(M->m, so->name) : "");
    M->b.loc = at;
  }
  KitCgVal id = M->obj_origin[o];
  if (M->origin_obj && M->origin_obj[o]) {
    store_i32(M, id, kit_cg_stackaddr(&M->b, M->origin_obj[o] - 1));
    return;
  }
  set_origin(M, kit_cg_stackaddr(&M->b, o), msan_i64(M, M->f->stack[o].size), id);
}

void msan_origin_alloca(MsanFn *M, const KitCgInst *in) {
  set_origin(M, in->id, in->args[0], stack_origin(M, in->tydesc ? "vla" : ""));
}

KitCgVal msan_load_origin_at(MsanFn *M, KitCgVal at) {
  KitCgInst *ld = msan_emit(M, KIT_CG_OP_LOAD, KIT_CG_I32, &at, 1);
  ld->imm = 4;
  return ld->id;
}

void msan_store_origin_at(MsanFn *M, KitCgVal o, KitCgVal at) { store_i32(M, o, at); }
