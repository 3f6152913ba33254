/* cg/builder.c — building function bodies: blocks, values, stack objects, and
 * one helper per op family that frontends and lifters call. */
#include "internal.h"

#include <string.h>

#define GROW KIT_CG_GROW

KitCgVal kit_cg_param(const KitCgFunc *f, uint32_t i) { return i < f->nparams ? i + 1 : 0; }

KitCgVal kit_cg_val_new(KitCgModule *m, KitCgFunc *f, KitCgType t) {
  GROW(m, f->vtype, f->vals_cap, f->nvals + 1);
  f->vtype[f->nvals] = (uint8_t)t;
  return f->nvals++;
}

KitCgBlkId kit_cg_block_new(KitCgModule *m, KitCgFunc *f) {
  GROW(m, f->blocks, f->blocks_cap, f->nblocks + 1);
  memset(&f->blocks[f->nblocks], 0, sizeof(KitCgBlock));
  m->syms[f->sym].defined = true;
  return f->nblocks++;
}

uint32_t kit_cg_stack_new(KitCgModule *m, KitCgFunc *f, uint64_t size, uint32_t align, uint32_t name) {
  GROW(m, f->stack, f->stack_cap, f->nstack + 1);
  f->stack[f->nstack] = (KitCgStackObj){.size = size, .align = align ? align : 1, .name = name, .escapes = 1};
  return f->nstack++;
}

void kit_cg_builder_init(KitCgBuilder *b, KitCgModule *m, KitCgFunc *f) {
  memset(b, 0, sizeof *b);
  b->m = m;
  b->f = f;
}

bool kit_cg_block_terminated(const KitCgFunc *f, KitCgBlkId blk) {
  const KitCgBlock *bb = &f->blocks[blk];
  return bb->ninsts && (kit_cg_op_info[bb->insts[bb->ninsts - 1].op].flags & KIT_CGO_TERM);
}

KitCgInst *kit_cg_insert(KitCgModule *m, KitCgFunc *f, KitCgBlkId blk, uint32_t pos, KitCgOp op, KitCgType type,
                         const KitCgVal *args, uint32_t nargs) {
  KitCgBlock *bb = &f->blocks[blk];
  GROW(m, bb->insts, bb->cap, bb->ninsts + 1);
  if (pos > bb->ninsts) pos = bb->ninsts;
  memmove(&bb->insts[pos + 1], &bb->insts[pos], (bb->ninsts - pos) * sizeof(KitCgInst));
  bb->ninsts++;
  KitCgInst *in = &bb->insts[pos];
  memset(in, 0, sizeof *in);
  in->op = (uint16_t)op;
  in->type = (uint8_t)type;
  if (nargs) {
    in->args = kit_cg_alloc(m, nargs * sizeof(KitCgVal));
    memcpy(in->args, args, nargs * sizeof(KitCgVal));
    in->nargs = nargs;
  }
  if (type != KIT_CG_VOID) in->id = kit_cg_val_new(m, f, type);
  return in;
}

KitCgInst *kit_cg_emit(KitCgBuilder *b, KitCgOp op, KitCgType type, const KitCgVal *args, uint32_t nargs) {
  KitCgInst *in = kit_cg_insert(b->m, b->f, b->blk, UINT32_MAX, op, type, args, nargs);
  in->loc = b->loc;
  return in;
}

void kit_cg_inst_set_blks(KitCgModule *m, KitCgInst *in, const KitCgBlkId *blks, uint32_t n) {
  in->blks = kit_cg_alloc(m, (n ? n : 1) * sizeof(KitCgBlkId));
  memcpy(in->blks, blks, n * sizeof(KitCgBlkId));
  in->nblks = n;
}

KitCgVal kit_cg_iconst(KitCgBuilder *b, KitCgType t, uint64_t v) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_CONST, t, NULL, 0);
  unsigned bits = kit_cg_type_bits(t);
  if (bits < 64) v &= (1ull << bits) - 1;
  in->imm = v;
  if (t == KIT_CG_I128 && (int64_t)v < 0) in->imm2 = ~0ull; /* sign-extend a negative int64 */
  return in->id;
}

KitCgVal kit_cg_i128const(KitCgBuilder *b, uint64_t lo, uint64_t hi) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_CONST, KIT_CG_I128, NULL, 0);
  in->imm = lo;
  in->imm2 = hi;
  return in->id;
}

KitCgVal kit_cg_f80const(KitCgBuilder *b, long double v) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_CONST, KIT_CG_F80, NULL, 0);
  unsigned char bytes[16] = {0};
  memcpy(bytes, &v, 10);
  memcpy(&in->imm, bytes, 8);
  memcpy(&in->imm2, bytes + 8, 8);
  in->imm2 &= 0xffff;
  return in->id;
}

KitCgVal kit_cg_fconst(KitCgBuilder *b, KitCgType t, double v) {
  if (t == KIT_CG_F80) return kit_cg_f80const(b, (long double)v);
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_CONST, t, NULL, 0);
  if (t == KIT_CG_F32) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    in->imm = u;
  } else {
    memcpy(&in->imm, &v, 8);
  }
  return in->id;
}

KitCgVal kit_cg_symaddr(KitCgBuilder *b, KitCgSym s, int64_t offset) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_SYMADDR, KIT_CG_PTR, NULL, 0);
  in->aux = s;
  in->imm = (uint64_t)offset;
  return in->id;
}

KitCgVal kit_cg_stackaddr(KitCgBuilder *b, uint32_t obj) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_STACKADDR, KIT_CG_PTR, NULL, 0);
  in->aux = obj;
  return in->id;
}

static KitCgType result_type_of(KitCgOp op, KitCgType operand) {
  switch (op) {
  case KIT_CG_OP_SADDO: case KIT_CG_OP_UADDO: case KIT_CG_OP_SSUBO:
  case KIT_CG_OP_USUBO: case KIT_CG_OP_SMULO: case KIT_CG_OP_UMULO:
  case KIT_CG_OP_ICMP: case KIT_CG_OP_FCMP:
    return KIT_CG_I1;
  default:
    return operand;
  }
}

KitCgVal kit_cg_binop(KitCgBuilder *b, KitCgOp op, KitCgVal x, KitCgVal y) {
  KitCgVal a[2] = {x, y};
  return kit_cg_emit(b, op, result_type_of(op, kit_cg_val_type(b->f, x)), a, 2)->id;
}

KitCgVal kit_cg_unop(KitCgBuilder *b, KitCgOp op, KitCgVal x) {
  return kit_cg_emit(b, op, kit_cg_val_type(b->f, x), &x, 1)->id;
}

KitCgVal kit_cg_cmp(KitCgBuilder *b, KitCgPred p, KitCgVal x, KitCgVal y) {
  KitCgVal a[2] = {x, y};
  KitCgType t = kit_cg_val_type(b->f, x); /* a vector compare gives lanes of -1/0 */
  KitCgOp op = kit_cg_type_is_float(kit_cg_type_elem(t)) ? KIT_CG_OP_FCMP : KIT_CG_OP_ICMP;
  KitCgInst *in = kit_cg_emit(b, op, kit_cg_type_is_vec(t) ? kit_cg_vec_int(t) : KIT_CG_I1, a, 2);
  in->pred = (uint8_t)p;
  return in->id;
}

KitCgVal kit_cg_conv(KitCgBuilder *b, KitCgOp op, KitCgType to, KitCgVal x) {
  return kit_cg_emit(b, op, to, &x, 1)->id;
}

KitCgVal kit_cg_select(KitCgBuilder *b, KitCgVal c, KitCgVal x, KitCgVal y) {
  KitCgVal a[3] = {c, x, y};
  return kit_cg_emit(b, KIT_CG_OP_SELECT, kit_cg_val_type(b->f, x), a, 3)->id;
}

KitCgVal kit_cg_load(KitCgBuilder *b, KitCgType t, KitCgVal ptr, uint32_t align, KitCgClass cls) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_LOAD, t, &ptr, 1);
  in->imm = align;
  in->cls = (uint8_t)cls;
  return in->id;
}

void kit_cg_store(KitCgBuilder *b, KitCgVal v, KitCgVal ptr, uint32_t align, KitCgClass cls) {
  KitCgVal a[2] = {v, ptr};
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_STORE, KIT_CG_VOID, a, 2);
  in->imm = align;
  in->cls = (uint8_t)cls;
}

KitCgVal kit_cg_ptradd(KitCgBuilder *b, KitCgVal ptr, KitCgVal off) {
  KitCgVal a[2] = {ptr, off};
  return kit_cg_emit(b, KIT_CG_OP_PTRADD, KIT_CG_PTR, a, 2)->id;
}

void kit_cg_memop(KitCgBuilder *b, KitCgOp op, KitCgVal dst, KitCgVal src, KitCgVal len, KitCgClass cls) {
  KitCgVal a[3] = {dst, src, len};
  kit_cg_emit(b, op, KIT_CG_VOID, a, 3)->cls = (uint8_t)cls;
}

static void set_varargs(KitCgModule *m, KitCgInst *in, const KitCgFunc *callee) {
  if (callee && callee->variadic) {
    in->flags |= KIT_CG_F_VARARGS;
    in->imm = callee->nparams;
  }
  (void)m;
}

KitCgVal kit_cg_call(KitCgBuilder *b, KitCgSym callee, KitCgType ret, const KitCgVal *args, uint32_t nargs) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_CALL, ret, args, nargs);
  in->aux = callee;
  if (b->m->syms[callee].kind == KIT_CG_SYM_FUNC) set_varargs(b->m, in, kit_cg_func_of(b->m, callee));
  return in->id;
}

KitCgVal kit_cg_calli(KitCgBuilder *b, KitCgVal fnptr, KitCgType ret, const KitCgVal *args, uint32_t nargs) {
  KitCgVal tmp[64];
  KitCgVal *all = nargs + 1 <= 64 ? tmp : kit_cg_alloc(b->m, (nargs + 1) * sizeof(KitCgVal));
  all[0] = fnptr;
  if (nargs) memcpy(all + 1, args, nargs * sizeof(KitCgVal));
  return kit_cg_emit(b, KIT_CG_OP_CALLI, ret, all, nargs + 1)->id;
}

void kit_cg_br(KitCgBuilder *b, KitCgBlkId to) {
  kit_cg_inst_set_blks(b->m, kit_cg_emit(b, KIT_CG_OP_BR, KIT_CG_VOID, NULL, 0), &to, 1);
}

void kit_cg_condbr(KitCgBuilder *b, KitCgVal c, KitCgBlkId t, KitCgBlkId f) {
  KitCgBlkId bl[2] = {t, f};
  kit_cg_inst_set_blks(b->m, kit_cg_emit(b, KIT_CG_OP_CONDBR, KIT_CG_VOID, &c, 1), bl, 2);
}

KitCgInst *kit_cg_switch(KitCgBuilder *b, KitCgVal v, KitCgBlkId dflt, const int64_t *cases,
                         const KitCgBlkId *targets, uint32_t ncases) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_SWITCH, KIT_CG_VOID, &v, 1);
  in->blks = kit_cg_alloc(b->m, (ncases + 1) * sizeof(KitCgBlkId));
  in->nblks = ncases + 1;
  in->blks[0] = dflt;
  if (ncases) {
    memcpy(in->blks + 1, targets, ncases * sizeof(KitCgBlkId));
    in->cases = kit_cg_alloc(b->m, ncases * sizeof(int64_t));
    memcpy(in->cases, cases, ncases * sizeof(int64_t));
  }
  return in;
}

void kit_cg_ret(KitCgBuilder *b, KitCgVal v) { kit_cg_emit(b, KIT_CG_OP_RET, KIT_CG_VOID, &v, v ? 1 : 0); }

void kit_cg_unreachable(KitCgBuilder *b) { kit_cg_emit(b, KIT_CG_OP_UNREACHABLE, KIT_CG_VOID, NULL, 0); }

KitCgVal kit_cg_blockaddr(KitCgBuilder *b, KitCgBlkId blk) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_BLOCKADDR, KIT_CG_PTR, NULL, 0);
  kit_cg_inst_set_blks(b->m, in, &blk, 1);
  return in->id;
}

KitCgInst *kit_cg_indirectbr(KitCgBuilder *b, KitCgVal addr, const KitCgBlkId *targets, uint32_t ntargets) {
  KitCgInst *in = kit_cg_emit(b, KIT_CG_OP_INDIRECTBR, KIT_CG_VOID, &addr, 1);
  if (ntargets) kit_cg_inst_set_blks(b->m, in, targets, ntargets);
  return in;
}

KitCgInst *kit_cg_phi(KitCgBuilder *b, KitCgType t) { return kit_cg_emit(b, KIT_CG_OP_PHI, t, NULL, 0); }

void kit_cg_phi_add(KitCgModule *m, KitCgInst *phi, KitCgVal v, KitCgBlkId from) {
  KitCgVal *na = kit_cg_alloc(m, (phi->nargs + 1) * sizeof(KitCgVal));
  KitCgBlkId *nb = kit_cg_alloc(m, (phi->nblks + 1) * sizeof(KitCgBlkId));
  if (phi->nargs) memcpy(na, phi->args, phi->nargs * sizeof(KitCgVal));
  if (phi->nblks) memcpy(nb, phi->blks, phi->nblks * sizeof(KitCgBlkId));
  na[phi->nargs++] = v;
  nb[phi->nblks++] = from;
  phi->args = na;
  phi->blks = nb;
}

KitCgInst *kit_cg_def(const KitCgFunc *f, KitCgVal v) {
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++)
      if (f->blocks[b].insts[i].id == v) return &f->blocks[b].insts[i];
  return NULL;
}

uint32_t kit_cg_block_succs(const KitCgFunc *f, KitCgBlkId blk, const KitCgBlkId **out) {
  const KitCgBlock *bb = &f->blocks[blk];
  *out = NULL;
  if (!bb->ninsts) return 0;
  const KitCgInst *t = &bb->insts[bb->ninsts - 1];
  if (!(kit_cg_op_info[t->op].flags & KIT_CGO_TERM)) return 0;
  *out = t->blks;
  return t->nblks;
}
