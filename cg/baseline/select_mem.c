/* cg/baseline/select_mem.c — instruction selection for memory: addressing
 * modes (folded ptradds, constant addresses near a register's constant),
 * loads, stores, read-modify-write adds and the fault marks' dropped stores. */
#include "baseline_internal.h"

/* a constant address as [register + disp] when a register holds a nearby constant */
static Operand const_addr(Emitter *e, uint64_t a) {
  for (int i = 0; i < NPOOL; i++) {
    int r = alloc_pool[i];
    if ((e->kvalid & 1u << r) && fits32((int64_t)(a - e->kconst[r]))) {
      e->pinned |= 1u << r;
      return mem_op(r, -1, (int32_t)(a - e->kconst[r]));
    }
  }
  return (Operand){.mem = false, .base = -1, .index = -1};
}

/* the memory operand of a load/store address p (ptradds folded) */
Operand mem_operand(Emitter *e, KitCgVal p) {
  KitCgVal c = e->canon[p];
  Val *x = &e->v[c];
  Operand m;
  if (x->deferred) {
    const KitCgInst *pa = x->def;
    KitCgVal base = pa->args[0], off = pa->args[1];
    Val *bx = &e->v[e->canon[base]];
    int64_t imm;
    if (imm_ok(e, off, 64, &imm)) {
      if (bx->isconst && bx->reg < 0 && (m = const_addr(e, bx->imm + (uint64_t)imm)).mem) {
      } else {
        m = mem_op(value_reg(e, base), -1, (int32_t)imm);
      }
    } else if (bx->isconst && bx->imm < 0x80000000u) { /* a base that fits the displacement */
      m = mem_op(value_reg(e, off), -1, (int32_t)bx->imm);
    } else {
      int rb = value_reg(e, base);
      m = mem_op(rb, value_reg(e, off), 0);
    }
    use_done(e, base);
    use_done(e, off);
    x->uses--;
    return m;
  }
  if (!x->isconst || x->reg >= 0 || !(m = const_addr(e, x->imm)).mem) m = mem_op(value_reg(e, p), -1, 0);
  use_done(e, p);
  return m;
}

/* the same memory location: one address value, or two folded ptradds of the
 * same base and constant offset */
static bool same_place(Emitter *e, KitCgVal p, KitCgVal q) {
  p = e->canon[p];
  q = e->canon[q];
  if (p == q) return true;
  Val *x = &e->v[p], *y = &e->v[q];
  if (!x->deferred || !y->deferred || x->def->op != KIT_CG_OP_PTRADD || y->def->op != KIT_CG_OP_PTRADD) return false;
  Val *ox = &e->v[e->canon[x->def->args[1]]], *oy = &e->v[e->canon[y->def->args[1]]];
  return e->canon[x->def->args[0]] == e->canon[y->def->args[0]] && ox->isconst && oy->isconst && ox->imm == oy->imm;
}

/* an address operand that no instruction will read: its uses are done */
static void discard_address(Emitter *e, KitCgVal p) {
  Val *x = &e->v[e->canon[p]];
  if (x->deferred) {
    use_done(e, x->def->args[0]);
    use_done(e, x->def->args[1]);
    x->uses--;
  } else {
    use_done(e, p);
  }
}

/* load, add a constant, store back to the same place: add to memory */
static bool add_to_memory(Emitter *e, const KitCgInst *in) {
  KitCgType t = (KitCgType)in->type;
  if ((t != KIT_CG_I64 && t != KIT_CG_I32) || e->v[in->id].uses != 1) return false;
  const KitCgInst *add = next_real(e, e->cur_blk, e->cur_inst);
  if (!add || add->op != KIT_CG_OP_ADD || e->v[add->id].uses != 1) return false;
  KitCgVal c = e->canon[add->args[0]] == in->id ? add->args[1] : add->args[0];
  int64_t imm;
  if (e->canon[add->args[0]] != in->id && e->canon[add->args[1]] != in->id) return false;
  if (!imm_ok(e, c, width(t), &imm)) return false;
  const KitCgInst *st = next_real(e, e->cur_blk, (uint32_t)(add - e->f->blocks[e->cur_blk].insts));
  if (!st || st->op != KIT_CG_OP_STORE || e->canon[st->args[0]] != add->id || !same_place(e, in->args[0], st->args[1]))
    return false;
  Operand m = mem_operand(e, in->args[0]);
  enc_alu_ri(&e->code, ALU_ADD, width(t), m, imm);
  discard_address(e, st->args[1]);
  use_done(e, in->id);
  use_done(e, c);
  use_done(e, add->id);
  e->skip[0] = add;
  e->skip[1] = st;
  return true;
}

void sel_load(Emitter *e, const KitCgInst *in) {
  if (in->id && add_to_memory(e, in)) return;
  /* a narrow load whose one use is the sext right after it: movsx from memory */
  const KitCgInst *nx = in->id ? next_real(e, e->cur_blk, e->cur_inst) : NULL;
  int w = width((KitCgType)in->type);
  if (nx && nx->op == KIT_CG_OP_SEXT && e->canon[nx->args[0]] == in->id && e->v[in->id].uses == 1 && w >= 8 &&
      w <= 32 && e->v[nx->id].uses) {
    Operand m = mem_operand(e, in->args[0]);
    e->pinned = 0;
    int dst = alloc_reg(e), wt = width((KitCgType)nx->type);
    enc_movsx(&e->code, wt == 64 ? 64 : 32, dst, w, m);
    keep_zext(e, dst, wt);
    e->v[in->id].uses = 0;
    e->skip[0] = nx;
    define_value(e, nx->id, dst);
    return;
  }
  Operand m = mem_operand(e, in->args[0]);
  e->pinned = 0; /* the load reads its address before it writes: any register will do */
  int dst = alloc_reg(e);
  enc_load(&e->code, access_size((KitCgType)in->type), dst, m);
  if (in->id && e->v[in->id].uses) define_value(e, in->id, dst);
}

void sel_store(Emitter *e, const KitCgInst *in) {
  KitCgVal v = in->args[0];
  if ((in->flags & KIT_CG_F_FAULT_PC) && e->v[e->canon[v]].isconst) { /* into the side table */
    if (!room(e, (void **)&e->marks, e->nmarks, &e->marks_cap, sizeof *e->marks)) return;
    e->marks[e->nmarks++] = (FaultMark){(uint32_t)e->code.n, e->v[e->canon[v]].imm};
    discard_address(e, in->args[1]);
    use_done(e, v);
    return;
  }
  int size = access_size(vt(e, v));
  Operand m = mem_operand(e, in->args[1]);
  int64_t imm;
  if (imm_ok(e, v, size == 64 ? 64 : 32, &imm)) enc_mov_mi(&e->code, size, m, imm);
  else enc_store(&e->code, size, m, value_reg(e, v));
  use_done(e, v);
}

