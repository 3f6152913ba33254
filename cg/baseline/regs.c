/* cg/baseline/regs.c — register assignment: which register or spill slot
 * holds each value while the blocks are emitted, the furthest-next-use
 * choice when the registers run out, and the constants registers remember. */
#include "baseline_internal.h"

const int alloc_pool[NPOOL] = {RAX, RCX, RDX, RSI, RDI, R8, R9, R10};
const int arg_regs[6] = {RDI, RSI, RDX, RCX, R8, R9};

static int32_t slot_disp(Emitter *e, uint32_t s) { return e->frame ? (int32_t)(8 * s) : -(int32_t)(8 * (s + 1)); }
Operand slot_op(Emitter *e, Val *v) {
  if (v->slot < 0) {
    v->slot = (int32_t)e->nslots++;
    if (!e->frame && e->nslots > RED_SLOTS && !e->why) { /* the only failure a frame mends */
      e->red_full = true;
      e->why = "red zone full";
    }
  }
  return mem_op(RSP, -1, slot_disp(e, (uint32_t)v->slot));
}

/* does operand a use v (directly, or through the deferred values it is made of)? */
static bool mentions(Emitter *e, KitCgVal a, KitCgVal v, int depth) {
  a = e->canon[a];
  if (a == v) return true;
  if (depth < 2 && e->v[a].deferred && e->v[a].def)
    for (uint32_t j = 0; j < e->v[a].def->nargs; j++)
      if (mentions(e, e->v[a].def->args[j], v, depth + 1)) return true;
  return false;
}

/* how many instructions ahead value v (canonical) is next used, through the
 * blocks fused after the current one; 1000: not soon */
static unsigned next_use(Emitter *e, KitCgVal v) {
  uint32_t blk = e->cur_blk, i = e->cur_inst, d = 0;
  while (d < 64) {
    const KitCgBlock *bl = &e->f->blocks[blk];
    for (; i < bl->ninsts && d < 64; i++, d++) {
      const KitCgInst *in = &bl->insts[i];
      for (uint32_t k = 0; k < in->nargs; k++)
        if (mentions(e, in->args[k], v, 0)) return d;
    }
    if (e->fused[blk] < 0) break;
    blk = (uint32_t)e->fused[blk];
    i = 0;
  }
  return 1000;
}

/* make register r free: its value moves to its slot (constants are dropped) */
void spill_reg(Emitter *e, int r) {
  KitCgVal v = e->regval[r];
  if (!v) return;
  Val *x = &e->v[v];
  if (!x->isconst && x->uses && !x->in_slot) {
    enc_store(&e->code, 64, slot_op(e, x), r);
    x->in_slot = true;
  }
  x->reg = -1;
  e->regval[r] = 0;
}

int alloc_reg(Emitter *e) {
  int best = -1;
  unsigned far = 0;
  for (int pass = 0; pass < 2; pass++) /* free ones, those without a constant first */
    for (int i = 0; i < NPOOL; i++) {
      int r = alloc_pool[i];
      if (!((e->pinned | e->reserved) & 1u << r) && !e->regval[r] && (pass || !(e->kvalid & 1u << r))) {
        e->kvalid &= ~(1u << r);
        return r;
      }
    }
  for (int i = 0; i < NPOOL; i++) {
    int r = alloc_pool[i];
    if ((e->pinned | e->reserved) & 1u << r) continue;
    KitCgVal v = e->regval[r];
    unsigned d = next_use(e, v) * 2 + (e->v[v].isconst || e->v[v].in_slot); /* cheap to drop first */
    if (best < 0 || d > far) {
      best = r;
      far = d;
    }
  }
  if (best < 0) { /* cannot happen: an instruction pins at most 4 */
    e->why = "out of registers";
    return RAX;
  }
  spill_reg(e, best);
  e->kvalid &= ~(1u << best);
  return best;
}

void bind_reg(Emitter *e, KitCgVal v, int r) {
  e->regval[r] = v;
  e->v[v].reg = (int8_t)r;
  if (e->v[v].isconst) {
    e->kconst[r] = e->v[v].imm;
    e->kvalid |= 1u << r;
  } else {
    e->kvalid &= ~(1u << r);
  }
}

/* every pool register free, no constant known in any */
void forget_regs(Emitter *e) {
  for (int i = 0; i < NPOOL; i++) {
    if (e->regval[alloc_pool[i]]) e->v[e->regval[alloc_pool[i]]].reg = -1;
    e->regval[alloc_pool[i]] = 0;
  }
  e->kvalid = 0;
}

/* registers an instruction writes as temporaries: their constants are gone */
void clobber(Emitter *e, int r) { e->kvalid &= ~(1u << r); }

void load_into(Emitter *e, int r, KitCgVal v) { /* v's value into r, from wherever it is */
  Val *x = &e->v[e->canon[v]];
  if (x->reg >= 0) enc_mov_rr(&e->code, 64, r, x->reg);
  else if (x->isconst) enc_mov_ri(&e->code, r, x->imm);
  else if (x->in_slot) enc_load(&e->code, 64, r, slot_op(e, x));
  else e->why = "value used before it is defined";
}

/* v in a register (pinned for the current instruction) */
int value_reg(Emitter *e, KitCgVal v) {
  v = e->canon[v];
  Val *x = &e->v[v];
  if (x->reg >= 0) {
    e->pinned |= 1u << x->reg;
    return x->reg;
  }
  if (x->isconst)
    for (int i = 0; i < NPOOL; i++) {
      int r = alloc_pool[i];
      if (!e->regval[r] && (e->kvalid & 1u << r) && e->kconst[r] == x->imm && !(e->reserved & 1u << r)) {
        bind_reg(e, v, r);
        e->pinned |= 1u << r;
        return r;
      }
    }
  int r = alloc_reg(e);
  load_into(e, r, v);
  bind_reg(e, v, r);
  e->pinned |= 1u << r;
  return r;
}

/* one use of v done; its register is free once nothing else needs it */
void use_done(Emitter *e, KitCgVal v) {
  v = e->canon[v];
  Val *x = &e->v[v];
  if (x->uses) x->uses--;
  if (!x->uses && x->reg >= 0) {
    e->regval[x->reg] = 0;
    x->reg = -1;
  }
}

/* will this be the last use of v (the instruction being emitted holds one)? */
bool last_use(Emitter *e, KitCgVal v) {
  Val *x = &e->v[e->canon[v]];
  return !x->isconst && x->uses == 1 && !(x->global && !x->in_slot);
}

/* the result register of an instruction: operand a's (in ra) when a dies
 * there (the two-operand form then needs no copy; the caller still counts
 * the use), else a fresh one */
int result_reg(Emitter *e, KitCgVal a, int ra) {
  /* not the reserved rdi: blocks emitted earlier but run later still read
   * the first parameter there (uses are counted in emission order) */
  if (last_use(e, a) && !e->v[e->canon[a]].global && !(e->reserved & 1u << ra)) {
    e->regval[ra] = 0;
    e->v[e->canon[a]].reg = -1;
    return ra;
  }
  int r = alloc_reg(e);
  e->pinned |= 1u << r;
  return r;
}

/* after computing value id into r: bind it; a global one goes to its slot */
void define_value(Emitter *e, KitCgVal id, int r) {
  Val *x = &e->v[id];
  if (!x->uses) return; /* dead */
  bind_reg(e, id, r);
  if (x->global) {
    enc_store(&e->code, 64, slot_op(e, x), r);
    x->in_slot = true;
  }
}

/* keep value in r zero-extended from width w */
void keep_zext(Emitter *e, int r, int w) {
  if (w == 8 || w == 16) enc_movzx(&e->code, r, w, reg_op(r));
  else if (w == 1) enc_alu_ri(&e->code, ALU_AND, 32, reg_op(r), 1);
}

