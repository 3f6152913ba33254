/* cg/baseline/emit.c — the walk over the blocks in layout order: each block's
 * starting registers (empty, continued from the block before, or a cold
 * path's), each instruction to its selector, then the out-of-line moves and
 * the patches of branches and frame sizes. */
#include <string.h>

#include "baseline_internal.h"

static void branch_to(Emitter *e, uint32_t blk, int cc /* -1: always */) {
  uint32_t at = cc < 0 ? enc_jmp(&e->code) : enc_jcc(&e->code, cc);
  if (!room(e, (void **)&e->fix, e->nfix, &e->fixcap, sizeof *e->fix)) return;
  e->fix[e->nfix++] = (BranchFix){at, blk};
}

/* where a branch from the current block to blk goes: a cold path's way
 * back to its continuation is its return stub (block id nblocks + 1 + A) */
static uint32_t branch_target(Emitter *e, uint32_t blk) {
  int32_t a = e->cold_of[e->cur_blk];
  return a >= 0 && (int32_t)blk == e->cont_of[a] ? e->f->nblocks + 1 + (uint32_t)a : blk;
}

/* a cold block begins: the first of its path with the registers of its
 * branch, whose values go to their slots (the return stub reloads them),
 * the others with none */
static void cold_start(Emitter *e, uint32_t bi) {
  uint32_t a = (uint32_t)e->cold_of[bi];
  forget_regs(e);
  e->flags_val = 0;
  if (e->cold_started[a]) {
    if (e->home >= 0) bind_reg(e, 1, e->home);
    return;
  }
  e->cold_started[a] = true;
  const RegSnapshot *sn = &e->snap[a];
  memcpy(e->kconst, sn->kconst, sizeof e->kconst);
  e->kvalid = sn->kvalid;
  for (int r = 0; r < 16; r++) {
    KitCgVal v = sn->regval[r];
    if (!v) continue;
    e->regval[r] = v;
    e->v[v].reg = (int8_t)r;
    if (e->v[v].isconst || r == e->home) continue;
    /* stored even when its slot has it by now: that may be a store the
     * hot path makes only after the branch */
    enc_store(&e->code, 64, slot_op(e, &e->v[v]), r);
    if (!e->v[v].in_slot) e->flipped[e->nflipped++] = v;
    e->v[v].in_slot = true;
  }
}

/* after a cold path's last block: its return stub puts the branch's
 * registers back and jumps to the continuation */
static void cold_return(Emitter *e, uint32_t a) {
  const RegSnapshot *sn = &e->snap[a];
  e->blkoff[e->f->nblocks + 1 + a] = (uint32_t)e->code.n;
  for (int r = 0; r < 16; r++) {
    KitCgVal v = sn->regval[r];
    if (!v && (sn->kvalid & 1u << r)) enc_mov_ri(&e->code, r, sn->kconst[r]);
    else if (v && e->v[v].isconst) enc_mov_ri(&e->code, r, e->v[v].imm);
    else if (v && r != e->home) enc_load(&e->code, 64, r, slot_op(e, &e->v[v]));
  }
  branch_to(e, (uint32_t)e->cont_of[a], -1);
  for (uint32_t i = 0; i < e->nflipped; i++) e->v[e->flipped[i]].in_slot = false;
  e->nflipped = 0;
  forget_regs(e);
}

/* the parameters at the function's entry: in their argument registers (the
 * first in its home), zero-extended, and in their slots when used later */
static void bind_params(Emitter *e) {
  const KitCgFunc *f = e->f;
  for (uint32_t p = 1; p <= f->nparams; p++) {
    if (!e->v[p].uses) continue;
    /* the ABI leaves the bits above a narrow argument undefined */
    int w = width((KitCgType)f->params[p - 1].type);
    if (w == 32) enc_mov_rr(&e->code, 32, arg_regs[p - 1], arg_regs[p - 1]);
    else if (w == 8 || w == 16) enc_movzx(&e->code, arg_regs[p - 1], w, reg_op(arg_regs[p - 1]));
    else if (w == 1) enc_alu_ri(&e->code, ALU_AND, 32, reg_op(arg_regs[p - 1]), 1);
    if (p == 1 && e->home == RBX) enc_mov_rr(&e->code, 64, RBX, RDI);
    bind_reg(e, p, p == 1 && e->home >= 0 ? e->home : arg_regs[p - 1]);
    if (e->v[p].global) {
      enc_store(&e->code, 64, slot_op(e, &e->v[p]), arg_regs[p - 1]);
      e->v[p].in_slot = true;
    }
  }
}

/* condbr: a jump to the side that is not emitted next (both when neither is) */
static void emit_condbr(Emitter *e, const KitCgInst *in, uint32_t bi, int32_t next) {
  uint32_t tb = branch_target(e, in->blks[0]), fb = branch_target(e, in->blks[1]);
  Val *c = &e->v[e->canon[in->args[0]]];
  if (c->isconst) {
    uint32_t to = c->imm & 1 ? tb : fb;
    use_done(e, in->args[0]);
    if ((int32_t)to != next) branch_to(e, to, -1);
  } else {
    int cc = condition_code(e, in->args[0]);
    if ((int32_t)tb == next) branch_to(e, fb, cc ^ 1);
    else {
      branch_to(e, tb, cc);
      if ((int32_t)fb != next) branch_to(e, fb, -1);
    }
  }
  if (e->cont_of[bi] >= 0) { /* the registers its cold path starts from */
    RegSnapshot *sn = &e->snap[bi];
    memcpy(sn->regval, e->regval, sizeof sn->regval);
    memcpy(sn->kconst, e->kconst, sizeof sn->kconst);
    sn->kvalid = e->kvalid;
  }
}

/* instruction i of block bi, next the block emitted after it (-1: none);
 * returns how many instructions it took (a tail call takes its ret) */
static uint32_t emit_inst(Emitter *e, uint32_t bi, uint32_t i, int32_t next) {
  const KitCgInst *in = &e->f->blocks[bi].insts[i];
  KitCgType t = (KitCgType)in->type;
  switch (in->op) {
  case KIT_CG_OP_ADD: case KIT_CG_OP_SUB: case KIT_CG_OP_MUL: case KIT_CG_OP_AND: case KIT_CG_OP_OR:
  case KIT_CG_OP_XOR: sel_binary(e, in, t); break;
  case KIT_CG_OP_PTRADD: sel_binary(e, in, KIT_CG_I64); break;
  case KIT_CG_OP_SHL: case KIT_CG_OP_LSHR: case KIT_CG_OP_ASHR: sel_shift(e, in, t); break;
  case KIT_CG_OP_UDIV: case KIT_CG_OP_UREM: case KIT_CG_OP_SDIV: case KIT_CG_OP_SREM: sel_divide(e, in, t); break;
  case KIT_CG_OP_SMIN: case KIT_CG_OP_SMAX: case KIT_CG_OP_UMIN: case KIT_CG_OP_UMAX: sel_minmax(e, in, t); break;
  case KIT_CG_OP_NEG: case KIT_CG_OP_NOT: sel_unary(e, in, t); break;
  case KIT_CG_OP_ICMP: sel_icmp(e, in, bi, i); break;
  case KIT_CG_OP_SELECT: sel_select(e, in, t); break;
  case KIT_CG_OP_TRUNC: case KIT_CG_OP_ZEXT: case KIT_CG_OP_SEXT: case KIT_CG_OP_PTRTOINT:
  case KIT_CG_OP_INTTOPTR: sel_convert(e, in); break;
  case KIT_CG_OP_LOAD: sel_load(e, in); break;
  case KIT_CG_OP_STORE: sel_store(e, in); break;
  case KIT_CG_OP_FENCE: enc_mfence(&e->code); break;
  case KIT_CG_OP_CALL:
  case KIT_CG_OP_CALLI:
    sel_call(e, in);
    if (in->flags & KIT_CG_F_TAIL) return 2; /* its ret */
    break;
  case KIT_CG_OP_RET: sel_ret(e, in); break;
  case KIT_CG_OP_BR:
    if ((int32_t)branch_target(e, in->blks[0]) != next) branch_to(e, branch_target(e, in->blks[0]), -1);
    break;
  case KIT_CG_OP_CONDBR: emit_condbr(e, in, bi, next); break;
  case KIT_CG_OP_UNREACHABLE:
  case KIT_CG_OP_TRAP: enc_ud2(&e->code); break;
  default: e->why = kit_cg_op_info[in->op].name; break;
  }
  return 1;
}

/* the k-th block of the layout */
static void emit_block(Emitter *e, uint32_t k) {
  uint32_t bi = (uint32_t)e->order[k];
  int32_t next = k + 1 < e->norder ? e->order[k + 1] : -1;
  const KitCgBlock *bl = &e->f->blocks[bi];
  e->blkoff[bi] = (uint32_t)e->code.n;
  if (e->cold_of[bi] >= 0) {
    cold_start(e, bi);
  } else if (!k || e->fused[e->order[k - 1]] != (int32_t)bi) { /* registers start empty */
    forget_regs(e);
    e->flags_val = 0;
    if (e->home >= 0 && e->v[1].uses) bind_reg(e, 1, e->home);
  }
  if (bi == 0) bind_params(e);
  for (uint32_t i = 0; i < bl->ninsts && !e->why;) {
    const KitCgInst *in = &bl->insts[i];
    e->cur_blk = bi;
    e->cur_inst = i;
    e->pinned = 0;
    if (silent(e, in) || in == e->skip[0] || in == e->skip[1] ||
        (in->id && !e->v[in->id].uses && pure(in))) { /* folded, or dead by now */
      i++;
      continue;
    }
    i += emit_inst(e, bi, i, next);
  }
  if (e->cold_of[bi] >= 0 && e->cold_last[e->cold_of[bi]] == (int32_t)bi) cold_return(e, (uint32_t)e->cold_of[bi]);
}

/* the rare sides of likely selects, after the function: the move, then back */
static void emit_out_of_line(Emitter *e) {
  for (uint32_t i = 0; i < e->nrare && !e->code.oom; i++) {
    const OutOfLineMove *k = &e->rare[i];
    enc_patch_rel32(&e->code, k->at, (uint32_t)e->code.n);
    if (k->src < 0) enc_mov_ri(&e->code, k->dst, k->imm);
    else enc_mov_rr(&e->code, 64, k->dst, k->src);
    enc_patch_rel32(&e->code, enc_jmp(&e->code), k->back);
  }
}

void emit_function(Emitter *e) {
  if (e->home == RBX) enc_push(&e->code, RBX);
  if (e->frame) frame_adjust(e, ALU_SUB);
  for (uint32_t k = 0; k < e->norder && !e->why && !e->code.oom; k++) emit_block(e, k);
  emit_out_of_line(e);
  for (uint32_t i = 0; i < e->nfix; i++) enc_patch_rel32(&e->code, e->fix[i].at, e->blkoff[e->fix[i].blk]);
  uint32_t fs = 8 * e->nslots; /* rsp 16-byte aligned at calls: the return address and rbx are pushed */
  if (fs % 16 != (e->home == RBX ? 0u : 8u)) fs += 8;
  for (uint32_t i = 0; i < e->nframefix; i++) memcpy(e->code.bytes + e->framefix[i], &fs, 4);
}
