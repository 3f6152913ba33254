/* cg/baseline/select.c — instruction selection for the arithmetic, compare,
 * select and conversion ops: each CG instruction becomes a few x86-64
 * instructions on the registers regs.c hands out. */
#include "baseline_internal.h"

static int cc_of(KitCgPred p) {
  static const int cc[] = {[KIT_CG_EQ] = CC_E,   [KIT_CG_NE] = CC_NE,  [KIT_CG_SLT] = CC_L, [KIT_CG_SLE] = CC_LE,
                           [KIT_CG_SGT] = CC_G,  [KIT_CG_SGE] = CC_GE, [KIT_CG_ULT] = CC_B, [KIT_CG_ULE] = CC_BE,
                           [KIT_CG_UGT] = CC_A,  [KIT_CG_UGE] = CC_AE};
  return cc[p];
}
static KitCgPred swap_pred(KitCgPred p) {
  switch (p) {
  case KIT_CG_SLT: return KIT_CG_SGT;
  case KIT_CG_SGT: return KIT_CG_SLT;
  case KIT_CG_SLE: return KIT_CG_SGE;
  case KIT_CG_SGE: return KIT_CG_SLE;
  case KIT_CG_ULT: return KIT_CG_UGT;
  case KIT_CG_UGT: return KIT_CG_ULT;
  case KIT_CG_ULE: return KIT_CG_UGE;
  case KIT_CG_UGE: return KIT_CG_ULE;
  default: return p;
  }
}

/* copy of a into a new value id */
static void sel_copy(Emitter *e, KitCgVal id, KitCgVal a) {
  int ra = value_reg(e, a);
  int dst = result_reg(e, a, ra);
  enc_mov_rr(&e->code, 64, dst, ra);
  use_done(e, a);
  define_value(e, id, dst);
}

void sel_binary(Emitter *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0], b = in->args[1];
  int w = width(t), sz = opsize(t);
  bool comm = kit_cg_op_info[in->op].flags & KIT_CGO_COMM;
  int64_t imm;
  if (comm && e->v[e->canon[a]].isconst && !e->v[e->canon[b]].isconst) {
    KitCgVal s = a;
    a = b;
    b = s;
  }
  int alu = in->op == KIT_CG_OP_ADD || in->op == KIT_CG_OP_PTRADD ? ALU_ADD
            : in->op == KIT_CG_OP_SUB                            ? ALU_SUB
            : in->op == KIT_CG_OP_AND                            ? ALU_AND
            : in->op == KIT_CG_OP_OR                             ? ALU_OR
            : in->op == KIT_CG_OP_XOR                            ? ALU_XOR
                                                                 : -1;
  int ra = value_reg(e, a), dst;
  if (imm_ok(e, b, sz, &imm)) {
    dst = result_reg(e, a, ra);
    if (alu == ALU_ADD && dst != ra) { /* three operands: lea */
      enc_lea(&e->code, sz, dst, mem_op(ra, -1, (int32_t)imm));
    } else if (alu < 0) { /* mul */
      enc_imul_rri(&e->code, sz, dst, ra, (int32_t)imm);
    } else {
      enc_mov_rr(&e->code, 64, dst, ra);
      enc_alu_ri(&e->code, alu, sz, reg_op(dst), imm);
    }
  } else {
    int rb = value_reg(e, b);
    if (comm && last_use(e, b) && !last_use(e, a)) {
      KitCgVal s = a;
      a = b;
      b = s;
      int r = ra;
      ra = rb;
      rb = r;
    }
    dst = result_reg(e, a, ra);
    enc_mov_rr(&e->code, 64, dst, ra);
    if (alu < 0) enc_imul_rr(&e->code, sz, dst, rb);
    else enc_alu_rr(&e->code, alu, sz, dst, rb);
  }
  use_done(e, a);
  use_done(e, b);
  if (alu == ALU_ADD || alu == ALU_SUB || alu < 0) keep_zext(e, dst, w);
  define_value(e, in->id, dst);
}

void sel_shift(Emitter *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0], b = in->args[1];
  int w = width(t), sz = opsize(t);
  int digit = in->op == KIT_CG_OP_SHL ? SHIFT_SHL : in->op == KIT_CG_OP_LSHR ? SHIFT_SHR : SHIFT_SAR;
  if (w == 1) { /* shifted by a multiple of 1: unchanged */
    use_done(e, b);
    sel_copy(e, in->id, a);
    return;
  }
  Val *sh = &e->v[e->canon[a]];
  if (in->op == KIT_CG_OP_LSHR && sh->deferred && sh->def->op == KIT_CG_OP_SHL) { /* fold_low_halves(): zext of a low half */
    KitCgVal x = sh->def->args[0], root = x;
    Val *xv = &e->v[e->canon[x]];
    if (xv->deferred) root = xv->def->args[0]; /* sext(root) */
    int rr = value_reg(e, root);
    int dst = result_reg(e, root, rr);
    enc_mov_rr(&e->code, 32, dst, rr);
    if (xv->deferred) use_done(e, root);
    use_done(e, x);
    use_done(e, sh->def->args[1]);
    use_done(e, a);
    use_done(e, b);
    define_value(e, in->id, dst);
    return;
  }
  Val *bx = &e->v[e->canon[b]];
  unsigned amt = bx->isconst ? (unsigned)(bx->imm % (unsigned)w) : 0;
  if (!bx->isconst) { /* the amount goes to cl: rcx is a temporary of this instruction */
    spill_reg(e, RCX);
    clobber(e, RCX);
    e->pinned |= 1u << RCX;
    enc_mov_rr(&e->code, 64, RCX, value_reg(e, b));
    if (w < 32) enc_alu_ri(&e->code, ALU_AND, 32, reg_op(RCX), w - 1);
  }
  int ra = value_reg(e, a);
  int dst = result_reg(e, a, ra);
  enc_mov_rr(&e->code, 64, dst, ra);
  if (digit == SHIFT_SAR && w < 32) enc_movsx(&e->code, 32, dst, w, reg_op(dst));
  if (!bx->isconst) {
    enc_shift_cl(&e->code, sz, digit, dst);
  } else if (amt) {
    enc_shift_ri(&e->code, sz, digit, dst, amt);
  } else if (sz == 32) {
    enc_mov_rr(&e->code, 32, dst, dst); /* an operand's high bits may be left (elide_truncs) */
  }
  if (digit != SHIFT_SHR) keep_zext(e, dst, w);
  use_done(e, a);
  use_done(e, b);
  define_value(e, in->id, dst);
}

/* division: the dividend in rax, rdx its extension; both are temporaries */
void sel_divide(Emitter *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0], b = in->args[1];
  int w = width(t), sz = opsize(t);
  bool sgn = in->op == KIT_CG_OP_SDIV || in->op == KIT_CG_OP_SREM;
  bool rem = in->op == KIT_CG_OP_UREM || in->op == KIT_CG_OP_SREM;
  spill_reg(e, RAX);
  spill_reg(e, RDX);
  clobber(e, RAX);
  clobber(e, RDX);
  e->pinned |= 1u << RAX | 1u << RDX;
  int rb = value_reg(e, b);
  int ra = value_reg(e, a);
  if (sgn && w < 32) {
    enc_movsx(&e->code, 32, RAX, w, reg_op(ra));
    enc_movsx(&e->code, 32, SCRATCH, w, reg_op(rb));
    rb = SCRATCH;
  } else {
    enc_mov_rr(&e->code, 64, RAX, ra);
  }
  if (sgn) {
    enc_sign_extend_rax(&e->code, sz);
  } else {
    enc_alu_rr(&e->code, ALU_XOR, 32, RDX, RDX);
  }
  enc_unary(&e->code, sz, sgn ? UNARY_IDIV : UNARY_DIV, rb);
  use_done(e, a);
  use_done(e, b);
  int res = rem ? RDX : RAX;
  e->pinned &= ~(1u << (rem ? RAX : RDX));
  if (sgn && w < 32) enc_movzx(&e->code, res, w, reg_op(res)); /* the signed result's high bits */
  define_value(e, in->id, res);
}

void sel_minmax(Emitter *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0], b = in->args[1];
  int w = width(t), sz = opsize(t);
  bool sgn = in->op == KIT_CG_OP_SMIN || in->op == KIT_CG_OP_SMAX;
  int cc = in->op == KIT_CG_OP_SMIN ? CC_G : in->op == KIT_CG_OP_SMAX ? CC_L : in->op == KIT_CG_OP_UMIN ? CC_A : CC_B;
  int ra = value_reg(e, a), rb = value_reg(e, b);
  int dst = result_reg(e, a, ra);
  enc_mov_rr(&e->code, 64, dst, ra);
  enc_alu_rr(&e->code, ALU_CMP, sgn && w < 32 ? w : sz, dst, rb);
  enc_cmov(&e->code, sz, cc, dst, rb);
  use_done(e, a);
  use_done(e, b);
  define_value(e, in->id, dst);
}

void sel_icmp(Emitter *e, const KitCgInst *in, uint32_t blk, uint32_t idx) {
  KitCgVal a = in->args[0], b = in->args[1];
  KitCgPred p = (KitCgPred)in->pred;
  KitCgType t = vt(e, a);
  int w = width(t);
  int size = w == 64 ? 64 : w == 32 ? 32 : signed_pred(p) ? w : 32;
  if (e->v[e->canon[a]].isconst && !e->v[e->canon[b]].isconst) {
    KitCgVal s = a;
    a = b;
    b = s;
    p = swap_pred(p);
  }
  int64_t imm = 0; /* fold_loads_into_compares() made sure it fits */
  if (e->v[e->canon[b]].deferred) { /* a loaded operand: compare memory */
    KitCgVal s = a;
    a = b;
    b = s;
    p = swap_pred(p);
  }
  Val *la = &e->v[e->canon[a]];
  if (la->deferred && la->def->op == KIT_CG_OP_LOAD) {
    int lsize = width((KitCgType)la->def->type);
    Operand m = mem_operand(e, la->def->args[0]);
    la->uses--;
    imm_ok(e, b, lsize == 64 ? 64 : 32, &imm);
    enc_alu_ri(&e->code, ALU_CMP, lsize, m, imm);
  } else {
    int ra = value_reg(e, a);
    if (imm_ok(e, b, size == 64 ? 64 : 32, &imm)) enc_alu_ri(&e->code, ALU_CMP, size, reg_op(ra), imm);
    else enc_alu_rr(&e->code, ALU_CMP, size, ra, value_reg(e, b));
    use_done(e, a);
  }
  use_done(e, b);
  int cc = cc_of(p);
  const KitCgInst *nx = next_real(e, blk, idx);
  KitCgVal id = in->id;
  if (e->v[id].uses == 1 && nx &&
      ((nx->op == KIT_CG_OP_SELECT && e->canon[nx->args[0]] == id && e->canon[nx->args[1]] != id &&
        e->canon[nx->args[2]] != id) ||
       (nx->op == KIT_CG_OP_CONDBR && e->canon[nx->args[0]] == id))) {
    e->flags_val = id;
    e->flags_cc = cc;
    return;
  }
  int dst = alloc_reg(e);
  enc_setcc(&e->code, cc, dst);
  enc_movzx(&e->code, dst, 8, reg_op(dst));
  define_value(e, id, dst);
}

/* the condition code that holds when c is true: the flags of a fused icmp,
 * or a test of c's register */
int condition_code(Emitter *e, KitCgVal c) {
  c = e->canon[c];
  if (e->flags_val == c) {
    e->flags_val = 0;
    use_done(e, c);
    return e->flags_cc;
  }
  int rc = value_reg(e, c);
  enc_test_rr(&e->code, 32, rc, rc);
  use_done(e, c);
  return CC_NE;
}

void sel_select(Emitter *e, const KitCgInst *in, KitCgType t) {
  KitCgVal c = in->args[0], a = in->args[1], b = in->args[2];
  int sz = opsize(t);
  bool cconst = e->v[e->canon[c]].isconst;
  if (cconst) {
    bool tv = e->v[e->canon[c]].imm & 1;
    use_done(e, c);
    use_done(e, tv ? b : a);
    sel_copy(e, in->id, tv ? a : b);
    return;
  }
  int cc = condition_code(e, c);
  if ((in->flags & KIT_CG_F_LIKELY) && e->canon[a] != e->canon[b]) { /* a, and b out of line */
    Val *bx = &e->v[e->canon[b]];
    int ra = value_reg(e, a), rb = bx->isconst ? -1 : value_reg(e, b);
    int dst = result_reg(e, a, ra);
    enc_mov_rr(&e->code, 64, dst, ra);
    uint32_t at = enc_jcc(&e->code, cc ^ 1);
    if (room(e, (void **)&e->rare, e->nrare, &e->rarecap, sizeof *e->rare))
      e->rare[e->nrare++] = (OutOfLineMove){at, (uint32_t)e->code.n, (int8_t)dst, (int8_t)rb, bx->imm};
    use_done(e, a);
    use_done(e, b);
    define_value(e, in->id, dst);
    return;
  }
  int ra = value_reg(e, a), rb = value_reg(e, b), dst;
  if (e->canon[a] == e->canon[b]) {
    dst = result_reg(e, a, ra);
    enc_mov_rr(&e->code, 64, dst, ra);
  } else if (last_use(e, b)) {
    dst = result_reg(e, b, rb);
    enc_mov_rr(&e->code, 64, dst, rb);
    enc_cmov(&e->code, sz, cc, dst, ra);
  } else if (last_use(e, a)) {
    dst = result_reg(e, a, ra);
    enc_mov_rr(&e->code, 64, dst, ra);
    enc_cmov(&e->code, sz, cc ^ 1, dst, rb);
  } else {
    dst = alloc_reg(e);
    e->pinned |= 1u << dst;
    enc_mov_rr(&e->code, 64, dst, rb);
    enc_cmov(&e->code, sz, cc, dst, ra);
  }
  use_done(e, a);
  use_done(e, b);
  define_value(e, in->id, dst);
}

void sel_convert(Emitter *e, const KitCgInst *in) {
  KitCgVal a = in->args[0];
  int ws = width(vt(e, a)), wt = width((KitCgType)in->type);
  bool sext = in->op == KIT_CG_OP_SEXT;
  if (ws == wt || (ws < wt && !sext)) { /* zero-extended already */
    sel_copy(e, in->id, a);
    return;
  }
  int ra = value_reg(e, a);
  int dst = result_reg(e, a, ra);
  if (ws > wt) { /* truncation */
    if (wt == 32) enc_mov_rr(&e->code, 32, dst, ra);
    else if (wt == 16 || wt == 8) enc_movzx(&e->code, dst, wt, reg_op(ra));
    else {
      enc_mov_rr(&e->code, 64, dst, ra);
      enc_alu_ri(&e->code, ALU_AND, 32, reg_op(dst), 1);
    }
  } else if (ws == 1) {
    enc_mov_rr(&e->code, 64, dst, ra);
    enc_unary(&e->code, wt == 64 ? 64 : 32, UNARY_NEG, dst);
    keep_zext(e, dst, wt);
  } else {
    enc_movsx(&e->code, wt == 64 ? 64 : 32, dst, ws, reg_op(ra));
    keep_zext(e, dst, wt);
  }
  use_done(e, a);
  define_value(e, in->id, dst);
}

void sel_unary(Emitter *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0];
  int w = width(t), sz = opsize(t);
  int ra = value_reg(e, a);
  int dst = result_reg(e, a, ra);
  enc_mov_rr(&e->code, 64, dst, ra);
  if (in->op == KIT_CG_OP_NOT && w < 32) enc_alu_ri(&e->code, ALU_XOR, 32, reg_op(dst), (int64_t)mask_of(w));
  else enc_unary(&e->code, sz, in->op == KIT_CG_OP_NOT ? UNARY_NOT : UNARY_NEG, dst);
  if (in->op == KIT_CG_OP_NEG) keep_zext(e, dst, w);
  use_done(e, a);
  define_value(e, in->id, dst);
}

