/* cg/baseline/select_call.c — instruction selection for calls and returns:
 * SysV argument moves (a parallel move), values saved across a call, tail
 * calls that jump, and the frame's prologue and epilogue adjustments. */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "baseline_internal.h"

/* add/sub rsp, F: F is patched in at the end, when the slots are counted */
void frame_adjust(Emitter *e, int alu) {
  uint32_t at = enc_alu_ri32(&e->code, alu, RSP);
  if (!room(e, (void **)&e->framefix, e->nframefix, &e->framefixcap, sizeof *e->framefix)) return;
  e->framefix[e->nframefix++] = at;
}

/* the frame and the saved rbx go (a return or a tail call follows) */
static void emit_epilogue(Emitter *e) {
  if (e->frame) frame_adjust(e, ALU_ADD);
  if (e->home == RBX) enc_pop(&e->code, RBX);
}

/* values needed after the call go to their slots (every pool register is
 * caller-saved); this call's own uses do not count */
static void save_live_values(Emitter *e, const KitCgInst *in) {
  for (int i = 0; i < NPOOL; i++) {
    KitCgVal v = e->regval[alloc_pool[i]];
    if (!v || e->v[v].isconst || e->v[v].in_slot) continue;
    uint32_t here = 0;
    for (uint32_t k = 0; k < in->nargs; k++) here += e->canon[in->args[k]] == v;
    if (e->v[v].uses > here) {
      enc_store(&e->code, 64, slot_op(e, &e->v[v]), alloc_pool[i]);
      e->v[v].in_slot = true;
    }
  }
}

/* the arguments into rdi, rsi, ...: register to register moves first (a
 * parallel move: cycles swap), then slots and constants */
static void move_args(Emitter *e, const KitCgInst *in, uint32_t first, uint32_t n) {
  int dst[6], src[6];
  unsigned np = 0;
  for (uint32_t i = 0; i < n; i++) {
    Val *x = &e->v[e->canon[in->args[first + i]]];
    if (x->reg >= 0 && x->reg != arg_regs[i]) {
      dst[np] = arg_regs[i];
      src[np] = x->reg;
      np++;
    }
  }
  while (np) {
    unsigned k;
    for (k = 0; k < np; k++) {
      bool busy = false;
      for (unsigned j = 0; j < np; j++) busy |= j != k && src[j] == dst[k];
      if (!busy) break;
    }
    if (k < np) {
      enc_mov_rr(&e->code, 64, dst[k], src[k]);
    } else { /* a cycle */
      k = 0;
      enc_xchg_rr(&e->code, dst[k], src[k]);
      for (unsigned j = 1; j < np; j++) {
        if (src[j] == dst[k]) src[j] = src[k];
        else if (src[j] == src[k]) src[j] = dst[k];
      }
    }
    dst[k] = dst[np - 1];
    src[k] = src[np - 1];
    np--;
  }
  for (uint32_t i = 0; i < n; i++) {
    Val *x = &e->v[e->canon[in->args[first + i]]];
    if (x->reg < 0) load_into(e, arg_regs[i], in->args[first + i]);
  }
}

/* a direct call's target: the resolver's answer, else the dynamic linker's */
static void *resolve_callee(Emitter *e, const KitCgInst *in) {
  const char *name = kit_cg_sym_name(e->m, in->aux);
  void *target = e->x->resolve ? e->x->resolve(e->x->user, name) : NULL;
  if (!target) target = dlsym(RTLD_DEFAULT, name);
  if (!target) e->why = "an external that does not resolve";
  return target;
}

void sel_call(Emitter *e, const KitCgInst *in) {
  bool tail = in->flags & KIT_CG_F_TAIL, indirect = in->op == KIT_CG_OP_CALLI;
  void *target = NULL;
  if (!indirect && !(target = resolve_callee(e, in))) return;
  uint32_t first = indirect ? 1 : 0, n = in->nargs - first;
  if (!tail) save_live_values(e, in);
  /* a tail call through a pointer loaded right before it jumps through
   * memory: the address goes to the scratch register (a constant one may
   * be in an argument register after the moves) */
  Val *cx = indirect ? &e->v[e->canon[in->args[0]]] : NULL;
  const KitCgInst *ld = cx && cx->deferred && cx->def->op == KIT_CG_OP_LOAD ? cx->def : NULL;
  Val *ax = ld ? &e->v[e->canon[ld->args[0]]] : NULL;
  if (ld && ax->isconst) use_done(e, ld->args[0]);
  else if (ld) enc_lea(&e->code, 64, SCRATCH, mem_operand(e, ld->args[0]));
  else if (indirect) load_into(e, SCRATCH, in->args[0]);
  else enc_mov_ri(&e->code, SCRATCH, (uint64_t)(uintptr_t)target);
  move_args(e, in, first, n);
  for (uint32_t k = 0; k < in->nargs; k++) use_done(e, in->args[k]);
  forget_regs(e);
  if (tail) {
    emit_epilogue(e);
    if (!ld) {
      enc_jmp_reg(&e->code, SCRATCH);
      return;
    }
    int base = SCRATCH;
    if (ax->isconst) {
      base = -1;
      for (uint32_t i = 0; i < n && base < 0; i++) {
        Val *x = &e->v[e->canon[in->args[first + i]]];
        if (x->isconst && x->imm == ax->imm) base = arg_regs[i];
      }
      if (base < 0) enc_mov_ri(&e->code, base = SCRATCH, ax->imm);
    }
    enc_jmp_mem(&e->code, mem_op(base, -1, 0));
    return;
  }
  enc_call_reg(&e->code, SCRATCH);
  if (in->id && e->v[in->id].uses) { /* the ABI leaves the bits above a narrow result undefined */
    int w = width((KitCgType)in->type);
    if (w == 32) enc_mov_rr(&e->code, 32, RAX, RAX);
    else if (w < 32) enc_movzx(&e->code, RAX, w == 16 ? 16 : 8, reg_op(RAX));
    if (w == 1) enc_alu_ri(&e->code, ALU_AND, 32, reg_op(RAX), 1);
    define_value(e, in->id, RAX);
  }
}

void sel_ret(Emitter *e, const KitCgInst *in) {
  if (in->nargs) load_into(e, RAX, in->args[0]);
  if (in->nargs) use_done(e, in->args[0]);
  emit_epilogue(e);
  enc_ret(&e->code);
}
