/* arch/rv64/lift.h — state and small emitters shared by the per-extension
 * lifter files (lift_i.c, lift_m.c, lift_a.c, lift_fd.c, lift_zicsr.c, lift_b.c). */
#ifndef KIT_ARCH_RV64_LIFT_H
#define KIT_ARCH_RV64_LIFT_H

#include "rv64.h"

typedef struct RvLift {
  KitLiftEnv *env;
  KitCgBuilder *b;
  KitCgVal cpu;
  const KitDecodedInsn *in; /* the instruction being lifted */
  unsigned idx;             /* its index in the block */
  unsigned instret_synced;  /* instructions already added to cpu->instret */
  KitCgVal next;            /* set by a terminator: the next guest pc (i64) */
  /* guest registers cached in SSA values within the block; dirty ones are
   * written back before anything that may leave the block or look at the
   * CPU state (guest memory accesses with their fault paths, emulator
   * exits, the block end) */
  KitCgVal xv[32], fv[32];
  uint32_t xdirty, fdirty;
  /* registers whose value is a known constant (lui/auipc/li chains fold) */
  uint32_t xknown;
  uint64_t xconst[32];
} RvLift;

KitCgVal rv_c64(RvLift *L, uint64_t v);
KitCgVal rv_c32(RvLift *L, uint32_t v);
KitCgVal rv_field(RvLift *L, uint32_t offset); /* ptr into the CPU state */
KitCgVal rv_ld_state(RvLift *L, KitCgType t, uint32_t offset);
void rv_st_state(RvLift *L, KitCgVal v, uint32_t offset);
KitCgVal rv_x(RvLift *L, unsigned r);            /* i64; x0 reads 0 */
void rv_setx(RvLift *L, unsigned r, KitCgVal v); /* writes to x0 vanish */
void rv_setx_const(RvLift *L, unsigned r, uint64_t v);
bool rv_x_known(RvLift *L, unsigned r, uint64_t *v); /* x0 is always known */
KitCgVal rv_f(RvLift *L, unsigned r);            /* raw i64 bits */
void rv_setf(RvLift *L, unsigned r, KitCgVal v);
KitCgVal rv_sext32(RvLift *L, KitCgVal v32);     /* i32 -> i64 */
KitCgVal rv_trunc32(RvLift *L, KitCgVal v64);
KitCgVal rv_addr(RvLift *L);                     /* rs1 + imm */
void rv_flush(RvLift *L);                        /* write dirty cached registers back */
/* guest memory through the emulator's seam (registers flushed first, so a
 * fault path sees the exact state) */
KitCgVal rv_load(RvLift *L, KitCgType t, KitCgVal addr);
void rv_store(RvLift *L, KitCgType t, KitCgVal v, KitCgVal addr);
KitCgVal rv_host_addr(RvLift *L, KitCgVal addr, uint32_t size, bool is_write);
/* call a host helper or emulator entry by name (declared on first use) */
KitCgVal rv_call(RvLift *L, const char *name, KitCgType ret, const KitCgType *params, const KitCgVal *args,
                 uint32_t n);
/* add the instructions retired before the current one to cpu->instret */
void rv_sync_instret(RvLift *L);
/* leave the block for `target` when cond holds (a side exit: the state is
 * stored on that path only) and go on in a new CG block otherwise */
void rv_side_exit(RvLift *L, KitCgVal cond, uint64_t target);
/* end the block through i64 kit_emu_<what>(ptr cpu, i64 pc, i64 next)
 * (include/kit/arch.h lists them) */
void rv_emu_exit(RvLift *L, const char *what);

int rv_lift_i(RvLift *L);
int rv_lift_m(RvLift *L);
int rv_lift_a(RvLift *L);
int rv_lift_fd(RvLift *L);
int rv_lift_zicsr(RvLift *L);
int rv_lift_b(RvLift *L); /* Zba, Zbb, Zbs */

#endif
