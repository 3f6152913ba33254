/* emu/seam.c — the memory seam (see seam.h): a lifted guest access reaches
 * the window without a branch (out-of-window addresses are clamped into the
 * guard after it and fault on the host); with a memory tool it is checked
 * instead, and failing checks leave the block through one shared fault
 * exit. */
#include <stddef.h>
#include <string.h>

#include "instrument.h"
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

KitCgVal kit_emu_cg_host_ptr(KitCgBuilder *b, const void *p) {
  return kit_cg_conv(b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, kit_cg_iconst(b, KIT_CG_I64, (uint64_t)(uintptr_t)p));
}

KitCgVal kit_emu_call_helper(KitCgBuilder *b, const char *name, KitCgType ret, const KitCgType *pt,
                            const KitCgVal *args, uint32_t n) {
  KitCgFunc *fn = kit_cg_func_declare(b->m, name, ret, pt, n, false);
  return kit_cg_call(b, fn->sym, ret, args, n);
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

/* the tools' memory callbacks of the instruction at pc, NULL if none */
static const KitEmuCbList *mem_cbs(const KitEmuSeam *s, uint64_t pc) {
  for (unsigned i = 0; i < s->ninsns; i++)
    if (s->insns[i].pc == pc) return s->insns[i].instr && s->insns[i].instr->mem.n ? &s->insns[i].instr->mem : NULL;
  return NULL;
}

/* a store's value as the tools see it: an integer of up to 64 bits (0 and
 * no value for wider ones) */
static KitCgVal value_bits(KitCgBuilder *b, KitCgVal v, KitCgType t, bool *has) {
  *has = kit_cg_type_size(t) <= 8;
  if (!*has) return kit_cg_iconst(b, KIT_CG_I64, 0);
  if (t == KIT_CG_F64) return kit_cg_conv(b, KIT_CG_OP_BITCAST, KIT_CG_I64, v);
  if (t == KIT_CG_F32) v = kit_cg_conv(b, KIT_CG_OP_BITCAST, KIT_CG_I32, v), t = KIT_CG_I32;
  return t == KIT_CG_I64 ? v : kit_cg_conv(b, KIT_CG_OP_ZEXT, KIT_CG_I64, v);
}

/* the checked form, for an instruction a tool watches: the call (host
 * pointer or NULL) and a branch to the fault exit on NULL */
static KitCgVal checked_addr(KitEmuSeam *s, KitCgBuilder *b, const KitEmuCbList *l, KitCgVal addr, uint32_t size,
                             bool is_write, KitCgVal value, bool has_value) {
  KitCgType pt[5] = {KIT_CG_PTR, KIT_CG_PTR, KIT_CG_I64, KIT_CG_I32, KIT_CG_I64};
  uint32_t flags = size | (is_write ? 1u << 16 : 0) | (has_value ? 1u << 17 : 0);
  KitCgVal args[5] = {s->cpu, kit_emu_cg_host_ptr(b, l), addr, kit_cg_iconst(b, KIT_CG_I32, flags), value};
  KitCgVal host = kit_emu_call_helper(b, "kit_emu_tool_mem", KIT_CG_PTR, pt, args, 5);
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

static KitCgVal seam_access(KitEmuSeam *s, KitCgBuilder *b, KitCgVal addr, uint32_t size, bool is_write,
                            uint64_t pc, KitCgVal value, bool has_value) {
  KitEmu *emu = s->emu;
  KitCgVal pcv = kit_cg_iconst(b, KIT_CG_I64, pc);
  /* the pc field stays exact at every access, so a host fault knows where it
   * is (the baseline compiler keeps it in a side table instead:
   * kit_baseline_fault_value; not when passes run, whose reports read it) */
  kit_cg_store(b, pcv, s->cpu, 8, KIT_CG_INTERNAL);
  if (!emu->npasses) b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_FAULT_PC;
  /* a tool's memory callbacks see the access; passes see the clamped host
   * address of an out-of-window access, in the guard (ASan's shadow covers
   * the guard) */
  const KitEmuCbList *l = mem_cbs(s, pc);
  if (l) return checked_addr(s, b, l, addr, size, is_write, value, has_value);
  /* no branch: a block stays one basic block, which is what lets LLVM's fast
   * register allocator keep values in registers across accesses */
  KitCgVal in = kit_cg_cmp(b, KIT_CG_ULT, addr, kit_cg_iconst(b, KIT_CG_I64, emu->as.size));
  KitCgVal off = kit_cg_select(b, in, addr, kit_cg_iconst(b, KIT_CG_I64, emu->as.size + SEAM_CLAMP));
  /* the baseline compiler makes it a jump to an out-of-line clamp */
  b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_LIKELY;
  return kit_cg_ptradd(b, kit_emu_cg_host_ptr(b, emu->as.base), off);
}

static KitCgVal seam_addr(KitLiftEnv *env, KitCgBuilder *b, KitCgVal addr, uint32_t size, bool is_write,
                          uint64_t pc) {
  return seam_access(env->user, b, addr, size, is_write, pc, kit_cg_iconst(b, KIT_CG_I64, 0), false);
}

static KitCgVal seam_load(KitLiftEnv *env, KitCgBuilder *b, KitCgType t, KitCgVal addr, uint64_t pc) {
  KitCgVal p = seam_addr(env, b, addr, kit_cg_type_size(t), false, pc);
  return kit_cg_load(b, t, p, 1, KIT_CG_PROGRAM);
}

static void seam_store(KitLiftEnv *env, KitCgBuilder *b, KitCgType t, KitCgVal v, KitCgVal addr, uint64_t pc) {
  KitEmuSeam *s = env->user;
  bool has = false;
  KitCgVal bits = mem_cbs(s, pc) ? value_bits(b, v, t, &has) : kit_cg_iconst(b, KIT_CG_I64, 0);
  KitCgVal p = seam_access(s, b, addr, kit_cg_type_size(t), true, pc, bits, has);
  kit_cg_store(b, v, p, 1, KIT_CG_PROGRAM);
}

void kit_emu_seam_init(KitEmuSeam *s, KitEmu *emu, KitCgVal cpu) {
  memset(s, 0, sizeof *s);
  s->env = (KitLiftEnv){.load = seam_load, .store = seam_store, .host_addr = seam_addr, .user = s};
  s->emu = emu;
  s->cpu = cpu;
}
