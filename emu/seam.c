/* emu/seam.c — the memory seam (see seam.h): a lifted guest access reaches
 * the window without a branch (out-of-window addresses are clamped into the
 * guard after it and fault on the host); with a memory tool it is checked
 * instead, and failing checks leave the block through one shared fault
 * exit. */
#include <stddef.h>
#include <string.h>

#include "seam.h"

/* Out-of-window addresses become this window offset, past the window end in
 * the guard. Not the end itself: LLVM's instcombine (whenever an IR pipeline
 * runs) turns `addr < size ? addr : size` into llvm.umin, which the fast
 * instruction selector leaves to a SelectionDAG of its own (per access);
 * with another constant the select stays a cmp and a cmov. */
#define SEAM_CLAMP 64
/* the widest guest access (8 bytes; 16 for room) stays in the guard */
_Static_assert(SEAM_CLAMP + 16 <= KIT_EMU_GUARD, "the guard holds a clamped access");

const KitCgInst *kit_emu_def_here(KitCgBuilder *b, KitCgVal v) {
  const KitCgBlock *bl = &b->f->blocks[b->blk];
  for (uint32_t i = bl->ninsts; i--;)
    if (bl->insts[i].id == v) return &bl->insts[i];
  return NULL;
}

KitCgVal kit_emu_call_helper(KitCgBuilder *b, const char *name, KitCgType ret, const KitCgType *pt,
                            const KitCgVal *args, uint32_t n) {
  KitCgFunc *fn = kit_cg_func_declare(b->m, name, ret, pt, n, false);
  return kit_cg_call(b, fn->sym, ret, args, n);
}

/* the checked path taken while a memory tool is active: host pointer or NULL */
void *kit_emu_mem_check(void *cpu, int64_t addr, int32_t size, int32_t is_write, int64_t pc) {
  (void)cpu;
  KitEmu *emu = kit_emu_current;
  void *host = (uint64_t)addr < emu->as.size ? kit_aspace_host(&emu->as, (uint64_t)addr) : NULL;
  KitEmuToolVerdict v = emu->hooks.on_mem_access(emu->hooks.user, emu, (uint64_t)addr, (uint32_t)size,
                                                 is_write != 0, host, (uint64_t)pc);
  return v == KIT_EMU_TOOL_ALLOW ? host : NULL;
}

/* ---- the memory seam ------------------------------------------------------------- */

static void emit_fault_exit(KitEmuSeam *s, KitCgBuilder *b, KitCgBlkId at, const KitCgVal *addr, const KitCgBlkId *from,
                            unsigned n) {
  kit_cg_builder_at(b, at);
  KitCgInst *phi = kit_cg_phi(b, KIT_CG_I64);
  phi->args = kit_cg_alloc(b->m, n * sizeof *addr);
  phi->blks = kit_cg_alloc(b->m, n * sizeof *from);
  memcpy(phi->args, addr, n * sizeof *addr);
  memcpy(phi->blks, from, n * sizeof *from);
  phi->nargs = phi->nblks = n;
  KitCgType pt[2] = {KIT_CG_PTR, KIT_CG_I64};
  KitCgVal args[2] = {s->cpu, phi->id};
  kit_cg_ret(b, kit_emu_call_helper(b, "kit_emu_mem_fault", KIT_CG_I64, pt, args, 2));
}

void kit_emu_seam_finish(KitEmuSeam *s, KitCgBuilder *b) {
  if (s->nfault) emit_fault_exit(s, b, s->fault, s->fault_addr, s->fault_from, s->nfault);
}

/* the checked form, for a memory tool: its call (host pointer or NULL) and a
 * branch to the fault exit on NULL */
static KitCgVal checked_addr(KitEmuSeam *s, KitCgBuilder *b, KitCgVal addr, uint32_t size, bool is_write,
                             KitCgVal pcv) {
  KitCgType pt[5] = {KIT_CG_PTR, KIT_CG_I64, KIT_CG_I32, KIT_CG_I32, KIT_CG_I64};
  KitCgVal args[5] = {s->cpu, addr, kit_cg_iconst(b, KIT_CG_I32, size), kit_cg_iconst(b, KIT_CG_I32, is_write), pcv};
  KitCgVal host = kit_emu_call_helper(b, "kit_emu_mem_check", KIT_CG_PTR, pt, args, 5);
  KitCgVal ok = kit_cg_cmp(b, KIT_CG_NE, kit_cg_conv(b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, host),
                           kit_cg_iconst(b, KIT_CG_I64, 0));
  bool shared = s->nfault < KIT_EMU_SEAM_MAX_FAULTS;
  if (shared && !s->fault) s->fault = kit_cg_block_new(b->m, b->f);
  KitCgBlkId good = kit_cg_block_new(b->m, b->f), bad = shared ? s->fault : kit_cg_block_new(b->m, b->f);
  KitCgBlkId from = b->blk;
  kit_cg_condbr(b, ok, good, bad);
  b->f->blocks[from].insts[b->f->blocks[from].ninsts - 1].flags |= KIT_CG_F_LIKELY;
  if (shared) {
    s->fault_addr[s->nfault] = addr;
    s->fault_from[s->nfault++] = from;
  } else {
    emit_fault_exit(s, b, bad, &addr, &from, 1);
  }
  kit_cg_builder_at(b, good);
  return host;
}

static KitCgVal seam_addr(KitLiftEnv *env, KitCgBuilder *b, KitCgVal addr, uint32_t size, bool is_write,
                          uint64_t pc) {
  KitEmuSeam *s = env->user;
  KitEmu *emu = s->emu;
  KitCgVal pcv = kit_cg_iconst(b, KIT_CG_I64, pc);
  /* the pc field stays exact at every access, so a host fault knows where it
   * is (the baseline compiler keeps it in a side table instead:
   * kit_baseline_fault_value; not when passes run, whose reports read it) */
  kit_cg_store(b, pcv, s->cpu, 8, KIT_CG_INTERNAL);
  if (!emu->npasses) b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_FAULT_PC;
  /* a memory tool sees every access; passes see the clamped host address of
   * an out-of-window access, in the guard (ASan's shadow covers the guard) */
  if (emu->hooks.on_mem_access) return checked_addr(s, b, addr, size, is_write, pcv);
  /* no branch: a block stays one basic block, which is what lets LLVM's fast
   * register allocator keep values in registers across accesses */
  KitCgVal in = kit_cg_cmp(b, KIT_CG_ULT, addr, kit_cg_iconst(b, KIT_CG_I64, emu->as.size));
  KitCgVal off = kit_cg_select(b, in, addr, kit_cg_iconst(b, KIT_CG_I64, emu->as.size + SEAM_CLAMP));
  /* the baseline compiler makes it a jump to an out-of-line clamp */
  b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_LIKELY;
  KitCgVal base = kit_cg_conv(b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR,
                              kit_cg_iconst(b, KIT_CG_I64, (uint64_t)(uintptr_t)emu->as.base));
  return kit_cg_ptradd(b, base, off);
}

static KitCgVal seam_load(KitLiftEnv *env, KitCgBuilder *b, KitCgType t, KitCgVal addr, uint64_t pc) {
  KitCgVal p = seam_addr(env, b, addr, kit_cg_type_size(t), false, pc);
  return kit_cg_load(b, t, p, 1, KIT_CG_PROGRAM);
}

static void seam_store(KitLiftEnv *env, KitCgBuilder *b, KitCgType t, KitCgVal v, KitCgVal addr, uint64_t pc) {
  KitCgVal p = seam_addr(env, b, addr, kit_cg_type_size(t), true, pc);
  kit_cg_store(b, v, p, 1, KIT_CG_PROGRAM);
}

void kit_emu_seam_init(KitEmuSeam *s, KitEmu *emu, KitCgVal cpu) {
  memset(s, 0, sizeof *s);
  s->env = (KitLiftEnv){.load = seam_load, .store = seam_store, .host_addr = seam_addr, .user = s};
  s->emu = emu;
  s->cpu = cpu;
}
