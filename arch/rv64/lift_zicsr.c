/* arch/rv64/lift_zicsr.c — lifting Zicsr for the user-level CSRs (fflags,
 * frm, fcsr, cycle, time, instret) as calls to kit_rv64_csr; any other CSR,
 * or a write to a read-only one, is an illegal instruction. */
#include "lift.h"

#include <stddef.h>

int rv_lift_zicsr(RvLift *L) {
  const KitDecodedInsn *in = L->in;
  bool imm = in->op >= RV_CSRRWI;
  unsigned kind = (unsigned)(in->op - (imm ? RV_CSRRWI : RV_CSRRW)); /* 0 rw, 1 rs, 2 rc */
  /* csrrs/csrrc with x0 (or uimm 0) only read; csrrw always writes */
  bool write = kind == 0 || in->rs1 != 0;
  bool known = in->csr == RV_CSR_FFLAGS || in->csr == RV_CSR_FRM || in->csr == RV_CSR_FCSR;
  bool ro = in->csr == RV_CSR_CYCLE || in->csr == RV_CSR_TIME || in->csr == RV_CSR_INSTRET;
  if (!(known || (ro && !write))) {
    rv_emu_exit(L, "illegal");
    return 0;
  }
  if (in->csr == RV_CSR_CYCLE || in->csr == RV_CSR_INSTRET) {
    /* cpu->instret stays at its block-entry value until the block ends (so
     * that a fault midway knows what retired): add this block's share */
    KitCgVal n = rv_ld_state(L, KIT_CG_I64, offsetof(KitRv64Cpu, instret));
    rv_setx(L, in->rd, kit_cg_binop(L->b, KIT_CG_OP_ADD, n, rv_c64(L, L->idx - L->instret_synced)));
    return 0;
  }
  KitCgVal val = imm ? rv_c64(L, in->rs1) : rv_x(L, in->rs1);
  KitCgType pt[5] = {KIT_CG_PTR, KIT_CG_I32, KIT_CG_I32, KIT_CG_I64, KIT_CG_I32};
  KitCgVal args[5] = {L->cpu, rv_c32(L, in->csr), rv_c32(L, kind), val, rv_c32(L, write)};
  KitCgVal old = rv_call(L, "kit_rv64_csr", KIT_CG_I64, pt, args, 5);
  rv_setx(L, in->rd, old);
  return 0;
}
