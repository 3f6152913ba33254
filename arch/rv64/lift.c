/* arch/rv64/lift.c — the riscv64 lifter's driver: walks a decoded block,
 * hands each instruction to its extension's file, and ends the block by
 * storing the next pc. CPU state is read and written through INTERNAL
 * loads/stores at fixed offsets of KitRv64Cpu; guest memory only through
 * the KitLiftEnv callbacks. */
#include "lift.h"

#include <stddef.h>

KitCgVal rv_c64(RvLift *L, uint64_t v) { return kit_cg_iconst(L->b, KIT_CG_I64, v); }
KitCgVal rv_c32(RvLift *L, uint32_t v) { return kit_cg_iconst(L->b, KIT_CG_I32, v); }

KitCgVal rv_field(RvLift *L, uint32_t offset) {
  if (!offset) return L->cpu;
  return kit_cg_ptradd(L->b, L->cpu, rv_c64(L, offset));
}

KitCgVal rv_ld_state(RvLift *L, KitCgType t, uint32_t offset) {
  return kit_cg_load(L->b, t, rv_field(L, offset), kit_cg_type_size(t), KIT_CG_INTERNAL);
}

void rv_st_state(RvLift *L, KitCgVal v, uint32_t offset) {
  kit_cg_store(L->b, v, rv_field(L, offset), kit_cg_type_size(kit_cg_val_type(L->b->f, v)), KIT_CG_INTERNAL);
}

KitCgVal rv_x(RvLift *L, unsigned r) {
  if (!r) return rv_c64(L, 0);
  if (!L->xv[r]) L->xv[r] = rv_ld_state(L, KIT_CG_I64, KIT_RV64_OFF_X(r));
  return L->xv[r];
}

void rv_setx(RvLift *L, unsigned r, KitCgVal v) {
  if (!r) return;
  L->xv[r] = v;
  L->xdirty |= 1u << r;
  L->xknown &= ~(1u << r);
}

void rv_setx_const(RvLift *L, unsigned r, uint64_t v) {
  if (!r) return;
  rv_setx(L, r, rv_c64(L, v));
  L->xknown |= 1u << r;
  L->xconst[r] = v;
}

bool rv_x_known(RvLift *L, unsigned r, uint64_t *v) {
  if (!r) return *v = 0, true;
  if (!(L->xknown & (1u << r))) return false;
  *v = L->xconst[r];
  return true;
}

KitCgVal rv_f(RvLift *L, unsigned r) {
  if (!L->fv[r]) L->fv[r] = rv_ld_state(L, KIT_CG_I64, KIT_RV64_OFF_F(r));
  return L->fv[r];
}

void rv_setf(RvLift *L, unsigned r, KitCgVal v) {
  L->fv[r] = v;
  L->fdirty |= 1u << r;
}

void rv_flush(RvLift *L) {
  for (unsigned r = 1; r < 32; r++)
    if (L->xdirty & (1u << r)) rv_st_state(L, L->xv[r], KIT_RV64_OFF_X(r));
  for (unsigned r = 0; r < 32; r++)
    if (L->fdirty & (1u << r)) rv_st_state(L, L->fv[r], KIT_RV64_OFF_F(r));
  L->xdirty = L->fdirty = 0;
}

KitCgVal rv_load(RvLift *L, KitCgType t, KitCgVal addr) {
  rv_flush(L);
  return L->env->load(L->env, L->b, t, addr, L->in->pc);
}

void rv_store(RvLift *L, KitCgType t, KitCgVal v, KitCgVal addr) {
  rv_flush(L);
  L->env->store(L->env, L->b, t, v, addr, L->in->pc);
}

KitCgVal rv_host_addr(RvLift *L, KitCgVal addr, uint32_t size, bool is_write) {
  rv_flush(L);
  return L->env->host_addr(L->env, L->b, addr, size, is_write, L->in->pc);
}

KitCgVal rv_sext32(RvLift *L, KitCgVal v) { return kit_cg_conv(L->b, KIT_CG_OP_SEXT, KIT_CG_I64, v); }
KitCgVal rv_trunc32(RvLift *L, KitCgVal v) { return kit_cg_conv(L->b, KIT_CG_OP_TRUNC, KIT_CG_I32, v); }

KitCgVal rv_addr(RvLift *L) {
  uint64_t k;
  if (rv_x_known(L, L->in->rs1, &k)) return rv_c64(L, k + (uint64_t)L->in->imm);
  KitCgVal base = rv_x(L, L->in->rs1);
  if (!L->in->imm) return base;
  return kit_cg_binop(L->b, KIT_CG_OP_ADD, base, rv_c64(L, (uint64_t)L->in->imm));
}

KitCgVal rv_call(RvLift *L, const char *name, KitCgType ret, const KitCgType *params, const KitCgVal *args,
                 uint32_t n) {
  KitCgFunc *fn = kit_cg_func_declare(L->b->m, name, ret, params, n, false);
  return kit_cg_call(L->b, fn->sym, ret, args, n);
}

void rv_sync_instret(RvLift *L) {
  if (L->idx == L->instret_synced) return;
  KitCgVal v = rv_ld_state(L, KIT_CG_I64, offsetof(KitRv64Cpu, instret));
  v = kit_cg_binop(L->b, KIT_CG_OP_ADD, v, rv_c64(L, L->idx - L->instret_synced));
  rv_st_state(L, v, offsetof(KitRv64Cpu, instret));
  L->instret_synced = L->idx;
}

void rv_side_exit(RvLift *L, KitCgVal cond, uint64_t target) {
  KitCgBuilder *b = L->b;
  KitCgBlkId out = kit_cg_block_new(b->m, b->f), on = kit_cg_block_new(b->m, b->f);
  kit_cg_condbr(b, cond, out, on);
  kit_cg_builder_at(b, out);
  /* the state as the block's end would store it, the cache left as it is */
  uint32_t xd = L->xdirty, fd = L->fdirty;
  unsigned synced = L->instret_synced, idx = L->idx;
  L->idx = idx + 1; /* the branch retires */
  rv_sync_instret(L);
  rv_flush(L);
  if (!L->env->exit || !L->env->pc_at_exits) rv_st_state(L, rv_c64(L, target), offsetof(KitRv64Cpu, pc));
  if (L->env->exit) L->env->exit(L->env, b, target);
  else kit_cg_ret(b, rv_c64(L, target));
  L->xdirty = xd, L->fdirty = fd, L->instret_synced = synced, L->idx = idx;
  kit_cg_builder_at(b, on);
}

void rv_emu_exit(RvLift *L, const char *what) {
  char name[64];
  snprintf(name, sizeof name, "kit_emu_%s", what);
  rv_sync_instret(L);
  rv_flush(L);
  KitCgVal pc = rv_c64(L, L->in->pc);
  rv_st_state(L, pc, offsetof(KitRv64Cpu, pc));
  KitCgType pt[3] = {KIT_CG_PTR, KIT_CG_I64, KIT_CG_I64};
  KitCgVal args[3] = {L->cpu, pc, rv_c64(L, L->in->pc + L->in->len)};
  L->next = rv_call(L, name, KIT_CG_I64, pt, args, 3);
}

static int lift_one(RvLift *L) {
  uint16_t op = L->in->op;
  if (op == RV_ILLEGAL || op >= RV_NOPS) {
    rv_emu_exit(L, "illegal");
    return 0;
  }
  if (op >= RV_CSRRW && op <= RV_CSRRCI) return rv_lift_zicsr(L);
  if (op >= RV_MUL && op <= RV_REMUW) return rv_lift_m(L);
  if (op >= RV_LR_W && op <= RV_AMOMAXU_D) return rv_lift_a(L);
  if (op >= RV_SH1ADD) return rv_lift_b(L);
  if (op >= RV_FLW) return rv_lift_fd(L);
  return rv_lift_i(L);
}

int kit_rv64_lift(KitLiftEnv *env, KitCgBuilder *b, KitCgVal cpu, const KitDecodedInsn *insns, unsigned n,
                  KitCgVal *next_pc) {
  RvLift L = {.env = env, .b = b, .cpu = cpu};
  KitCgLoc saved = b->loc;
  if (!n) return -1;
  env->branch = (KitLiftBranch){.kind = KIT_LIFT_END_FALL};
  for (unsigned i = 0; i < n && !L.next; i++) {
    L.in = &insns[i];
    L.idx = i;
    b->loc = (KitCgLoc){.pc = insns[i].pc};
    if (lift_one(&L) < 0) {
      b->loc = saved;
      return -1;
    }
  }
  if (!L.next) L.next = rv_c64(&L, L.in->pc + L.in->len);
  L.idx++;
  rv_sync_instret(&L);
  rv_flush(&L);
  if (!env->pc_at_exits) rv_st_state(&L, L.next, offsetof(KitRv64Cpu, pc));
  *next_pc = L.next;
  b->loc = saved;
  return 0;
}
