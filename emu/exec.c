/* emu/exec.c — translation of guest blocks (decode, the memory seam given to
 * the lifter, tool shims in the block prologue/epilogue) and the dispatcher
 * loop (signals and invalidations at block boundaries), plus the helpers
 * lifted code calls by name and their resolver. */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syscall.h"
#include "seam.h"
#include "tier.h"

#define MAX_BLOCK_INSNS KIT_EMU_MAX_BLOCK_INSNS

KitEmu *kit_emu_current;
void *(*kit_emu_resolve_hook)(const char *name);

/* ---- helpers lifted code calls ------------------------------------------------ */

int64_t kit_emu_breakpoint(void *cpu, int64_t pc, int64_t next) {
  (void)next;
  kit_emu_raise(kit_emu_current, SIGTRAP, 1 /* TRAP_BRKPT */, (uint64_t)pc);
  kit_emu_current->arch->set_pc(cpu, (uint64_t)pc);
  return pc;
}

int64_t kit_emu_illegal(void *cpu, int64_t pc, int64_t next) {
  (void)next;
  kit_emu_raise(kit_emu_current, SIGILL, 1 /* ILL_ILLOPC */, (uint64_t)pc);
  kit_emu_current->arch->set_pc(cpu, (uint64_t)pc);
  return pc;
}

int64_t kit_emu_icache_flush(void *cpu, int64_t pc, int64_t next) {
  (void)pc;
  KitEmu *emu = kit_emu_current;
  kit_tcache_flush(emu->tc);
  emu->arch->set_pc(cpu, (uint64_t)next);
  return next;
}

void kit_emu_tool_block_entry(int64_t pc, int32_t n) {
  KitEmu *emu = kit_emu_current;
  emu->hooks.on_block_entry(emu->hooks.user, emu, (uint64_t)pc, (uint32_t)n);
}

void kit_emu_tool_insn_retire(void *insn) {
  KitEmu *emu = kit_emu_current;
  const KitDecodedInsn *in = insn;
  emu->hooks.on_insn_retire(emu->hooks.user, emu, in->pc, in);
}

void kit_emu_tool_branch(int64_t from, int64_t to, int32_t kind) {
  KitEmu *emu = kit_emu_current;
  emu->hooks.on_branch(emu->hooks.user, emu, (uint64_t)from, (uint64_t)to, (KitEmuEdgeKind)kind);
}

void *kit_emu_resolve(void *user, const char *name) {
  (void)user;
  static const struct {
    const char *name;
    void *fn;
  } tab[] = {
      {"kit_emu_syscall_insn", (void *)kit_emu_syscall_insn},
      {"kit_emu_breakpoint", (void *)kit_emu_breakpoint},
      {"kit_emu_illegal", (void *)kit_emu_illegal},
      {"kit_emu_icache_flush", (void *)kit_emu_icache_flush},
      {"kit_emu_mem_fault", (void *)kit_emu_mem_fault},
      {"kit_emu_mem_check", (void *)kit_emu_mem_check},
      {"kit_emu_tool_block_entry", (void *)kit_emu_tool_block_entry},
      {"kit_emu_tool_insn_retire", (void *)kit_emu_tool_insn_retire},
      {"kit_emu_tool_branch", (void *)kit_emu_tool_branch},
      {"kit_emu_chain_lookup", (void *)kit_emu_chain_lookup},
      {"kit_emu_chain_miss", (void *)kit_emu_chain_miss},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (!strcmp(tab[i].name, name)) return tab[i].fn;
  if (kit_emu_resolve_hook) {
    void *p = kit_emu_resolve_hook(name);
    if (p) return p;
  }
  return dlsym(RTLD_DEFAULT, name);
}

/* ---- translation ------------------------------------------------------------------- */

static KitEmuEdgeKind edge_kind(uint32_t flags) {
  if (flags & KIT_DECODE_CALL) return KIT_EMU_EDGE_CALL;
  if (flags & KIT_DECODE_RET) return KIT_EMU_EDGE_RET;
  if (flags & KIT_DECODE_BRANCH) return KIT_EMU_EDGE_COND;
  if (flags & KIT_DECODE_JUMP) return KIT_EMU_EDGE_JUMP;
  return KIT_EMU_EDGE_OTHER;
}

/* does a tool want on_branch for an edge of this kind? */
static bool wants_edge(const KitEmu *emu, KitEmuEdgeKind k) {
  return emu->hooks.on_branch && (!emu->hooks.branch_kinds || (emu->hooks.branch_kinds & 1u << k));
}

/* must a block start at pc (kit_emu_set_block_starts)? */
static bool block_start(const KitEmu *emu, uint64_t pc) {
  return emu->is_start && emu->is_start(emu->is_start_user, pc);
}

/* may the block go on at the target of this direct jump (a superblock)?
 * Not when a tool sees blocks or edges (entries, branches, coverage), nor
 * back into the block itself (pcs stay unique: kit_emu_fault_retired) */
static bool follow_jump(const KitEmu *emu, const KitDecodedInsn *in, const KitDecodedInsn *out, unsigned n) {
  if (emu->watch_flow || emu->opt.single_step || wants_edge(emu, edge_kind(in->flags)) ||
      block_start(emu, in->target) || block_start(emu, out[0].pc))
    return false;
  if (!(in->flags & KIT_DECODE_JUMP) || (in->flags & (KIT_DECODE_INDIRECT | KIT_DECODE_ILLEGAL)) || !in->target)
    return false;
  for (unsigned i = 0; i < n; i++)
    if (out[i].pc == in->target) return false;
  return true;
}

int kit_emu_decode_at(KitEmu *emu, uint64_t pc, KitDecodedInsn *in) {
  const KitEmuRegion *r = kit_aspace_find(&emu->as, pc);
  if (!r || !(r->prot & KIT_EMU_PROT_EXEC)) return -1;
  uint64_t avail = r->end - pc;
  if (avail < emu->arch->max_insn_len) { /* it may continue into the next executable region */
    const KitEmuRegion *r2 = kit_aspace_find(&emu->as, r->end);
    if (r2 && (r2->prot & KIT_EMU_PROT_EXEC)) avail += r2->end - r2->start;
  }
  if (avail > emu->arch->max_insn_len) avail = emu->arch->max_insn_len;
  memset(in, 0, sizeof *in);
  int len = (int)emu->arch->decode(kit_aspace_host(&emu->as, pc), avail, pc, in);
  in->pc = pc;
  return len;
}

/* decode up to the limit or a terminator, going on at the target of direct
 * jumps (follow_jump); returns the count (>= 1, the last one possibly
 * ILLEGAL) or 0 when pc itself is not executable */
static unsigned decode_block(KitEmu *emu, uint64_t pc, KitDecodedInsn *out, unsigned limit) {
  unsigned n = 0;
  while (n < limit) {
    KitDecodedInsn *in = &out[n];
    int len = kit_emu_decode_at(emu, pc, in);
    if (len < 0) break;
    if (!len) {
      in->flags |= KIT_DECODE_ILLEGAL | KIT_DECODE_TERMINATOR;
      if (!in->len) in->len = 2;
      n++;
      break;
    }
    n++;
    pc += (unsigned)len;
    if (in->flags & KIT_DECODE_TERMINATOR) {
      if (n >= limit || !follow_jump(emu, in, out, n - 1)) break;
      const KitEmuRegion *t = kit_aspace_find(&emu->as, in->target);
      if (!t || !(t->prot & KIT_EMU_PROT_EXEC)) break;
      in->flags |= KIT_DECODE_FOLLOWED;
      pc = in->target;
    }
  }
  /* a followed jump cannot end the block: its lifted form does not jump */
  if (n && (out[n - 1].flags & KIT_DECODE_FOLLOWED)) out[n - 1].flags &= ~KIT_DECODE_FOLLOWED;
  return n;
}

/* ---- faults midway through a block ------------------------------------------------ */

void kit_emu_block_fault(KitEmu *emu, uint32_t retired) {
  if (emu->arch->retire) emu->arch->retire(emu->cpu, retired);
  if (emu->hooks.on_block_fault) emu->hooks.on_block_fault(emu->hooks.user, emu, emu->block_pc, retired);
}

/* a block's pcs are unique, so the count is the faulting pc's index among
 * the instructions the running code was made from: the jitted ones (a trace
 * may hold more than the block), else the block decoded again (faults are
 * rare) */
uint32_t kit_emu_fault_retired(KitEmu *emu) {
  KitDecodedInsn buf[MAX_BLOCK_INSNS];
  uint64_t pc = emu->arch->get_pc(emu->cpu);
  const KitEmuBlock *b = kit_tcache_lookup(emu->tc, emu->block_pc);
  if (b && b->jit && b->jit_insns) /* what the LLVM code was made from: possibly a trace */
    for (unsigned i = 0; i < b->jit_ninsns; i++)
      if (b->jit_insns[i].pc == pc) return i;
  unsigned n = decode_block(emu, emu->block_pc, buf, emu->opt.single_step ? 1 : MAX_BLOCK_INSNS);
  for (unsigned i = 0; i < n; i++)
    if (buf[i].pc == pc) return i;
  return 0;
}

/* ---- chaining ---------------------------------------------------------------------- */

static KitCgVal host_const(KitCgBuilder *b, const void *p) {
  return kit_cg_conv(b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, kit_cg_iconst(b, KIT_CG_I64, (uint64_t)(uintptr_t)p));
}

/* a field of the emulator, relative to the CPU state (kit_emu_new puts the
 * two in one allocation): [cpu + disp] in the code */
static KitCgVal emu_field(KitEmu *emu, KitCgBuilder *b, KitCgVal cpu, const void *p) {
  int64_t d = (const char *)p - (const char *)emu->cpu;
  return kit_cg_ptradd(b, cpu, kit_cg_iconst(b, KIT_CG_I64, (uint64_t)d));
}

static KitCgVal load_at(KitCgBuilder *b, KitCgType t, KitCgVal ptr, uint64_t off) {
  if (off) ptr = kit_cg_ptradd(b, ptr, kit_cg_iconst(b, KIT_CG_I64, off));
  return kit_cg_load(b, t, ptr, kit_cg_type_size(t), KIT_CG_INTERNAL);
}

/* r is the result of the call just emitted: make it a tail call and return it */
static void tail_ret(KitCgBuilder *b, KitCgVal r) {
  b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_TAIL;
  kit_cg_ret(b, r);
}

/* A jitted block's exit (docs/emu.md, "Chaining") jumps through its own
 * slot (KitEmuExit, allocated here, linked by the dispatcher): the slot
 * holds the target block's code, or kit_emu_exit_stub while unlinked, which
 * returns the pc the block stored to the dispatcher. Jitted blocks take the
 * slot they are entered through as a second argument, which only the stub
 * reads: it records the slot in emu->last_exit, so the dispatcher knows
 * what to link, and no other way back to the dispatcher can leave a slot
 * there (indirect exits pass NULL). Each
 * exit has its own indirect jump with a stable target, so the host predicts
 * it (the dispatcher's one call site is shared by every block). A block that
 * may be chained to checks emu->chain_stop on entry (qemu checks its exit
 * request the same way) and returns its own pc when a host signal, a write
 * to translated code, a raised signal or an invalidation wants the
 * dispatcher. Invalidation points the slots that lead to dropped blocks back
 * at the stub; exits through the emulator (system call, breakpoint, illegal, icache flush,
 * a fault) never chain. */
int64_t kit_emu_exit_stub(void *cpu, KitEmuExit *via) {
  kit_emu_current->last_exit = via;
  if (via) return (int64_t)via->pc; /* static exits store no pc */
  return (int64_t)kit_emu_current->arch->get_pc(cpu);
}

/* on to block go unless emu->chain_stop is set; then back to the
 * dispatcher, which goes on at pc */
static void emit_stop_check(KitEmu *emu, KitCgBuilder *b, KitCgVal cpu, uint64_t pc, KitCgBlkId go) {
  KitCgVal stop = kit_cg_load(b, KIT_CG_I32, emu_field(emu, b, cpu, (const void *)&emu->chain_stop), 4, KIT_CG_INTERNAL);
  KitCgBlkId back = kit_cg_block_new(b->m, b->f);
  kit_cg_condbr(b, kit_cg_cmp(b, KIT_CG_EQ, stop, kit_cg_iconst(b, KIT_CG_I32, 0)), go, back);
  b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_LIKELY;
  kit_cg_builder_at(b, back);
  kit_cg_ret(b, kit_cg_iconst(b, KIT_CG_I64, pc));
}

static void emit_entry_check(KitEmu *emu, KitCgBuilder *b, KitCgVal cpu, uint64_t pc) {
  KitCgBlkId go = kit_cg_block_new(b->m, b->f);
  emit_stop_check(emu, b, cpu, pc, go);
  kit_cg_builder_at(b, go);
}

/* jump to the code pointer at `at` + off with (cpu, via); in a block of its
 * own: the fast instruction selector leaves tail calls to SelectionDAG,
 * which then selects the whole LLVM block (the baseline compiler jumps
 * through memory) */
static void emit_tail(KitCgBuilder *b, KitCgVal at, uint64_t off, KitCgVal cpu, KitCgVal via) {
  KitCgBlkId tail = kit_cg_block_new(b->m, b->f);
  kit_cg_br(b, tail);
  kit_cg_builder_at(b, tail);
  KitCgVal args[2] = {cpu, via};
  tail_ret(b, kit_cg_calli(b, load_at(b, KIT_CG_PTR, at, off), KIT_CG_I64, args, 2));
}

static void emit_exit(KitCgBuilder *b, KitCgVal cpu, KitEmuExit *slot) {
  KitCgVal sp = host_const(b, slot);
  emit_tail(b, sp, offsetof(KitEmuExit, code), cpu, sp);
}

/* an indirect jump's target code from the jump cache, the exit stub when
 * that pc has no LLVM code (yet): the chain of an indirect exit, one jump
 * per site (qemu's lookup_and_goto_ptr) */
KitEmuCode kit_emu_chain_lookup(int64_t pc) {
  KitEmuTcache *tc = kit_emu_current->tc;
  KitEmuCodeSlot *cs = kit_tcache_cc(tc, (uint64_t)pc);
  if (cs->pc == (uint64_t)pc && cs->code) return cs->code;
  const KitEmuBlock *b = tc->jc[kit_tcache_jc_slot((uint64_t)pc)];
  if (!b || b->pc != (uint64_t)pc || !b->jit) return kit_emu_exit_stub;
  *cs = (KitEmuCodeSlot){(uint64_t)pc, kit_emu_code(b->jit)};
  return kit_emu_code(b->jit);
}

/* an indirect exit whose inline probe missed jumps here: look up, go on.
 * A jump, not a call, or chaining would grow the host stack: written out
 * for x86-64 so that no compiler setting can make it a call. */
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl kit_emu_chain_miss\n"
        ".type kit_emu_chain_miss, @function\n"
        "kit_emu_chain_miss:\n"
        "  push %rdi\n"      /* the CPU; aligns the stack for the call */
        "  mov %rsi, %rdi\n"
        "  call kit_emu_chain_lookup@PLT\n"
        "  pop %rdi\n"
        "  xor %esi, %esi\n" /* entered through no exit slot */
        "  jmp *%rax\n"
        ".size kit_emu_chain_miss, .-kit_emu_chain_miss\n");
#else
int64_t kit_emu_chain_miss(void *cpu, int64_t pc) { return kit_emu_chain_lookup(pc)(cpu, NULL); }
#endif

/* the code cache probed inline (the entry kit_tcache_cc picks), the call
 * only on a miss: most indirect exits (returns, jump tables) hit */
static void emit_indirect_exit(KitEmu *emu, KitCgBuilder *b, KitCgVal cpu, KitCgVal next) {
  KitCgVal idx = kit_cg_binop(b, KIT_CG_OP_AND, kit_cg_binop(b, KIT_CG_OP_LSHR, next, kit_cg_iconst(b, KIT_CG_I64, 1)),
                              kit_cg_iconst(b, KIT_CG_I64, KIT_EMU_CC_SIZE - 1));
  KitCgVal slot = kit_cg_ptradd(b, host_const(b, emu->tc->cc),
                                kit_cg_binop(b, KIT_CG_OP_MUL, idx, kit_cg_iconst(b, KIT_CG_I64, sizeof(KitEmuCodeSlot))));
  KitCgVal hit = kit_cg_cmp(b, KIT_CG_EQ, load_at(b, KIT_CG_I64, slot, offsetof(KitEmuCodeSlot, pc)), next);
  KitCgBlkId yes = kit_cg_block_new(b->m, b->f), no = kit_cg_block_new(b->m, b->f);
  kit_cg_condbr(b, hit, yes, no);
  b->f->blocks[b->blk].insts[b->f->blocks[b->blk].ninsts - 1].flags |= KIT_CG_F_LIKELY;
  kit_cg_builder_at(b, yes);
  emit_tail(b, slot, offsetof(KitEmuCodeSlot, code), cpu, host_const(b, NULL));
  kit_cg_builder_at(b, no);
  kit_cg_store(b, next, cpu, 8, KIT_CG_INTERNAL); /* the exit stub reads it (the pc is the state's first field) */
  KitCgType pt[2] = {KIT_CG_PTR, KIT_CG_I64};
  KitCgVal args[2] = {cpu, next};
  tail_ret(b, kit_emu_call_helper(b, "kit_emu_chain_miss", KIT_CG_I64, pt, args, 2));
}

#define REGION_MAX_MEMBERS 8
#define REGION_MAX_INSNS (4 * MAX_BLOCK_INSNS)

typedef struct Xlate {
  KitEmuSeam seam; /* first: the seam's callbacks take env->user as theirs */
  int mode;
  /* loops: an exit to the block's own pc branches back to `head` (its
   * entry check) instead of leaving the function */
  bool loops;
  KitCgBlkId head;
  uint64_t head_pc;
  /* a region (kit_emu_region): its blocks after the first, where they start
   * in the function, and the one being lifted */
  unsigned nmembers, cur;
  uint64_t member_pc[REGION_MAX_MEMBERS];
  KitCgBlkId member[REGION_MAX_MEMBERS];
  KitEmu *emu;
} Xlate;

/* an exit to pc: back to the head when it is the block's own start, to the
 * block of the region that starts there (through a signal check when the
 * branch goes back: every cycle passes one) */
static bool loop_back(Xlate *x, KitCgBuilder *b, uint64_t pc) {
  if (!x->loops) return false;
  if (pc == x->head_pc) {
    kit_cg_br(b, x->head);
    return true;
  }
  for (unsigned j = 0; j < x->nmembers; j++) {
    if (x->member_pc[j] != pc) continue;
    if (j + 1 > x->cur) kit_cg_br(b, x->member[j]); /* forward (member j is block j + 1 of the region) */
    else emit_stop_check(x->emu, b, x->seam.cpu, pc, x->member[j]);
    return true;
  }
  return false;
}

static void side_exit(KitLiftEnv *env, KitCgBuilder *b, uint64_t next);

/* the block's end when it may chain: one slot per static target (the
 * taken and the fall-through side of a branch); indirect jumps look up */
static bool static_exit(KitEmu *emu, Xlate *x, KitCgBuilder *b, KitCgVal cpu, uint64_t to) {
  if (loop_back(x, b, to)) return true;
  KitEmuExit *s = kit_tcache_exit_new(emu->tc, to);
  if (!s) return false;
  emit_exit(b, cpu, s);
  return true;
}

/* the condition the lifter reported for the branch that ends the block,
 * compared again here so that the compare feeds the branch directly (the
 * block's stores came between); else next == target */
static KitCgVal taken_cond(KitCgBuilder *b, const KitLiftBranch *br, KitCgVal next, const KitDecodedInsn *last) {
  if (br->kind == KIT_LIFT_END_COND && br->target == last->target) return kit_cg_cmp(b, br->pred, br->lhs, br->rhs);
  return kit_cg_cmp(b, KIT_CG_EQ, next, kit_cg_iconst(b, KIT_CG_I64, last->target));
}

static bool emit_chain_exits(KitEmu *emu, Xlate *x, KitCgBuilder *b, KitCgVal cpu, KitCgVal next,
                             const KitDecodedInsn *last) {
  if (last->flags & KIT_DECODE_INDIRECT) {
    emit_indirect_exit(emu, b, cpu, next);
    return true;
  }
  if (!(last->flags & KIT_DECODE_BRANCH) || !last->target) {
    /* a direct jump's target, or the fall-through of what ends the block */
    uint64_t to = last->target && (last->flags & KIT_DECODE_JUMP)  ? last->target
                  : !(last->flags & KIT_DECODE_TERMINATOR) ? last->pc + last->len
                                                            : 0;
    if (!to) { /* no static target: the dispatcher goes on at the pc returned */
      kit_cg_ret(b, next);
      return true;
    }
    return static_exit(emu, x, b, cpu, to);
  }
  KitCgBlkId taken = kit_cg_block_new(b->m, b->f), fall = kit_cg_block_new(b->m, b->f);
  kit_cg_condbr(b, taken_cond(b, &x->seam.env.branch, next, last), taken, fall);
  kit_cg_builder_at(b, taken);
  if (!static_exit(emu, x, b, cpu, last->target)) return false;
  kit_cg_builder_at(b, fall);
  return static_exit(emu, x, b, cpu, last->pc + last->len);
}

/* ---- traces ------------------------------------------------------------------------ */

/* A hot block is compiled as a trace (a superblock along its likely path):
 * while the block ends in a conditional branch that went one way at least
 * TRACE_BIAS of its tier-0 runs, the block that side leads to is appended
 * and the branch becomes a side exit for the other side (lifted by the
 * arch, which calls KitLiftEnv.exit). pcs stay unique in a trace (the fault
 * path finds the faulting instruction's index by pc), and it stays within
 * MAX_BLOCK_INSNS. Not under tools: blocks and edges are what they watch. */
#define TRACE_BIAS_NUM 15
#define TRACE_BIAS_DEN 16
#define TRACE_MIN_RUNS 32

KitDecodedInsn *kit_emu_trace(KitEmu *emu, KitEmuBlock *b, unsigned *n_out) {
  KitDecodedInsn *v = malloc(MAX_BLOCK_INSNS * sizeof *v);
  if (!v) return NULL;
  unsigned n = b->ninsns < MAX_BLOCK_INSNS ? b->ninsns : MAX_BLOCK_INSNS;
  memcpy(v, b->insns, n * sizeof *v);
  *n_out = n;
  if (emu->watch_flow || emu->opt.single_step || block_start(emu, b->pc)) return v;
  const KitEmuBlock *cur = b;
  for (;;) {
    KitDecodedInsn *last = &v[n - 1];
    uint32_t runs = cur->taken + cur->fall;
    if (!(last->flags & KIT_DECODE_BRANCH) || !last->target || runs < TRACE_MIN_RUNS) break;
    bool taken;
    if ((uint64_t)cur->taken * TRACE_BIAS_DEN >= (uint64_t)runs * TRACE_BIAS_NUM) taken = true;
    else if ((uint64_t)cur->fall * TRACE_BIAS_DEN >= (uint64_t)runs * TRACE_BIAS_NUM) taken = false;
    else break;
    uint64_t to = taken ? last->target : last->pc + last->len;
    const KitEmuBlock *s = kit_tcache_lookup(emu->tc, to);
    if (!s || n + s->ninsns > MAX_BLOCK_INSNS || block_start(emu, to)) break;
    bool repeat = false;
    for (unsigned i = 0; i < s->ninsns && !repeat; i++)
      for (unsigned j = 0; j < n && !repeat; j++) repeat = v[j].pc == s->insns[i].pc;
    if (repeat) break;
    last->flags |= KIT_DECODE_FOLLOWED | (taken ? KIT_DECODE_FOLLOW_TAKEN : 0);
    memcpy(v + n, s->insns, s->ninsns * sizeof *v);
    n += s->ninsns;
    cur = s;
  }
  *n_out = n;
  return v;
}

/* A hot block is compiled at tier 2 as a region when it heads a loop: the
 * blocks its static exits reach (breadth first, REGION_EXPLORE at most)
 * that lead back to it, each lifted on its own and joined by branches, so
 * the loop runs inside one function (docs/emu.md, "Regions"). Not under
 * tools (they watch blocks), and not through blocks that need the
 * dispatcher (system calls, breakpoints, icache flushes, illegal ones). Without a loop it is the
 * trace of kit_emu_trace. */
#define REGION_EXPLORE 16

static unsigned successors(const KitDecodedInsn *last, uint64_t succ[2]) {
  if (last->flags & (KIT_DECODE_INDIRECT | KIT_DECODE_SYSCALL | KIT_DECODE_TRAP | KIT_DECODE_ILLEGAL |
                     KIT_DECODE_FENCE_I))
    return 0;
  if ((last->flags & KIT_DECODE_BRANCH) && last->target) {
    succ[0] = last->target;
    succ[1] = last->pc + last->len;
    return 2;
  }
  if (last->flags & KIT_DECODE_CALL) return 0;
  if ((last->flags & KIT_DECODE_JUMP) && last->target) {
    succ[0] = last->target;
    return 1;
  }
  if (!(last->flags & KIT_DECODE_TERMINATOR)) {
    succ[0] = last->pc + last->len;
    return 1;
  }
  return 0;
}

KitDecodedInsn *kit_emu_region(KitEmu *emu, KitEmuBlock *b, unsigned *n_out) {
  if (emu->watch_flow || emu->opt.single_step || !kit_emu_chaining(emu) || block_start(emu, b->pc))
    return kit_emu_trace(emu, b, n_out);
  const KitEmuBlock *blk[REGION_EXPLORE];
  unsigned nb = 0;
  blk[nb++] = b;
  uint64_t succ[2];
  for (unsigned i = 0; i < nb; i++) {
    unsigned ns = successors(&blk[i]->insns[blk[i]->ninsns - 1], succ);
    for (unsigned k = 0; k < ns && nb < REGION_EXPLORE; k++) {
      bool seen = false;
      for (unsigned j = 0; j < nb; j++) seen |= blk[j]->pc == succ[k];
      const KitEmuBlock *t = seen ? NULL : kit_tcache_lookup(emu->tc, succ[k]);
      if (t && t->ninsns && !t->dead && !block_start(emu, t->pc) &&
          successors(&t->insns[t->ninsns - 1], (uint64_t[2]){0}))
        blk[nb++] = t;
    }
  }
  /* keep the blocks that lead back to b */
  bool loop[REGION_EXPLORE] = {true};
  for (bool grew = true; grew;) {
    grew = false;
    for (unsigned i = 1; i < nb; i++) {
      if (loop[i]) continue;
      unsigned ns = successors(&blk[i]->insns[blk[i]->ninsns - 1], succ);
      for (unsigned k = 0; k < ns && !loop[i]; k++)
        for (unsigned j = 0; j < nb; j++)
          if (loop[j] && blk[j]->pc == succ[k]) loop[i] = grew = true;
    }
  }
  unsigned total = 0, members = 0;
  for (unsigned i = 0; i < nb; i++)
    if (loop[i] && members < REGION_MAX_MEMBERS && total + blk[i]->ninsns <= REGION_MAX_INSNS) {
      total += blk[i]->ninsns;
      members++;
    } else {
      loop[i] = false;
    }
  if (members < 2) return kit_emu_trace(emu, b, n_out);
  KitDecodedInsn *v = malloc(total * sizeof *v);
  if (!v) return NULL;
  unsigned n = 0;
  for (unsigned i = 0; i < nb; i++) {
    if (!loop[i]) continue;
    memcpy(v + n, blk[i]->insns, blk[i]->ninsns * sizeof *v);
    for (unsigned j = n; j < n + blk[i]->ninsns; j++) v[j].flags &= ~(uint32_t)KIT_DECODE_REGION_MEMBER;
    if (n) v[n].flags |= KIT_DECODE_REGION_MEMBER;
    n += blk[i]->ninsns;
  }
  *n_out = n;
  return v;
}

bool kit_emu_chaining(const KitEmu *emu) {
  return emu->opt.chain && !emu->hooks.tool_requires_dispatch && !(emu->opt.debug & KIT_EMU_DEBUG_EXEC);
}

/* what a translation is for: tier 0, or LLVM with chaining off, or LLVM
 * with chaining (entry check; CHAIN_OUT: exits jump on too) */
enum { FOR_TIER0, FOR_JIT, FOR_JIT_CHAIN_IN, FOR_JIT_CHAIN_OUT };

static KitCgFunc *translate_insns(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n,
                                  const char *name, FILE *err, int mode);

KitCgFunc *kit_emu_translate_insns(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n,
                                   FILE *err) {
  char name[48];
  snprintf(name, sizeof name, "emu_block_%" PRIx64, insns[0].pc);
  return translate_insns(emu, m, insns, n, name, err, FOR_TIER0);
}

KitCgFunc *kit_emu_translate_jit(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n, const char *name,
                                  FILE *err) {
  const KitDecodedInsn *last = &insns[n - 1];
  int mode = !kit_emu_chaining(emu) ? FOR_JIT
             : last->flags & (KIT_DECODE_SYSCALL | KIT_DECODE_TRAP | KIT_DECODE_ILLEGAL | KIT_DECODE_FENCE_I)
                 ? FOR_JIT_CHAIN_IN
                 : FOR_JIT_CHAIN_OUT;
  return translate_insns(emu, m, insns, n, name, err, mode);
}

static KitCgFunc *translate_insns(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n,
                                  const char *name, FILE *err, int mode) {
  /* jitted blocks with chaining also take the exit slot they are entered
   * through (for kit_emu_exit_stub) */
  KitCgType pt[2] = {KIT_CG_PTR, KIT_CG_PTR};
  KitCgFunc *f = kit_cg_func_declare(m, name, KIT_CG_I64, pt, mode >= FOR_JIT_CHAIN_IN ? 2 : 1, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_builder_at(&b, kit_cg_block_new(m, f));
  b.loc = (KitCgLoc){.pc = insns[0].pc};
  Xlate x = {.mode = mode};
  kit_emu_seam_init(&x.seam, emu, kit_cg_param(f, 0));
  x.seam.env.exit = side_exit;
  x.seam.env.pc_at_exits = mode == FOR_JIT_CHAIN_OUT;
  KitEmuSeam *sp = &x.seam;
  /* a block that leads back to its own start loops inside its function
   * (through the entry check, so signals still stop it) */
  x.loops = mode == FOR_JIT_CHAIN_OUT && !emu->watch_flow && !emu->opt.single_step;
  if (x.loops) {
    x.head = kit_cg_block_new(m, f);
    x.head_pc = insns[0].pc;
    kit_cg_br(&b, x.head);
    kit_cg_builder_at(&b, x.head);
  }
  /* where a host fault finds the block it stopped, chained LLVM blocks too */
  kit_cg_store(&b, kit_cg_iconst(&b, KIT_CG_I64, insns[0].pc), emu_field(emu, &b, sp->cpu, &emu->block_pc), 8,
               KIT_CG_INTERNAL);
  if (mode >= FOR_JIT_CHAIN_IN) emit_entry_check(emu, &b, sp->cpu, insns[0].pc);
  const KitEmuToolHooks *h = &emu->hooks;
  if (h->on_block_entry) {
    KitCgType bt[2] = {KIT_CG_I64, KIT_CG_I32};
    KitCgVal ba[2] = {kit_cg_iconst(&b, KIT_CG_I64, insns[0].pc), kit_cg_iconst(&b, KIT_CG_I32, n)};
    kit_emu_call_helper(&b, "kit_emu_tool_block_entry", KIT_CG_VOID, bt, ba, 2);
  }
  /* a region's blocks (kit_emu_region) are lifted one after the other,
   * each from its own CG block, with branches between them */
  unsigned starts[REGION_MAX_MEMBERS + 2], k = 1;
  starts[0] = 0;
  x.emu = emu;
  for (unsigned i = 1; x.loops && i < n && k <= REGION_MAX_MEMBERS; i++)
    if (insns[i].flags & KIT_DECODE_REGION_MEMBER) {
      x.member_pc[k - 1] = insns[i].pc;
      x.member[k - 1] = kit_cg_block_new(m, f);
      starts[k++] = i;
    }
  starts[k] = n;
  x.nmembers = k - 1;
  for (unsigned j = 0; j < k; j++) {
    const KitDecodedInsn *seq = insns + starts[j];
    unsigned sn = starts[j + 1] - starts[j];
    x.cur = j;
    if (j) { /* where a fault finds the block it stopped */
      kit_cg_builder_at(&b, x.member[j - 1]);
      b.loc = (KitCgLoc){.pc = seq[0].pc};
      kit_cg_store(&b, kit_cg_iconst(&b, KIT_CG_I64, seq[0].pc), emu_field(emu, &b, sp->cpu, &emu->block_pc), 8,
                   KIT_CG_INTERNAL);
    }
    KitCgVal next = 0;
    if (h->on_insn_retire && h->want_insn_retire) {
      for (unsigned i = 0; i < sn; i++) {
        if (emu->arch->lift(&sp->env, &b, sp->cpu, &seq[i], 1, &next) < 0) goto fail;
        KitCgType rt[1] = {KIT_CG_PTR};
        KitCgVal ra[1] = {kit_cg_conv(&b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR,
                                      kit_cg_iconst(&b, KIT_CG_I64, (uint64_t)(uintptr_t)&seq[i]))};
        kit_emu_call_helper(&b, "kit_emu_tool_insn_retire", KIT_CG_VOID, rt, ra, 1);
      }
    } else if (emu->arch->lift(&sp->env, &b, sp->cpu, seq, sn, &next) < 0) {
      goto fail;
    }
    const KitDecodedInsn *last = &seq[sn - 1];
    if ((last->flags & (KIT_DECODE_BRANCH | KIT_DECODE_JUMP | KIT_DECODE_CALL | KIT_DECODE_RET)) &&
        wants_edge(emu, edge_kind(last->flags))) {
      KitCgType bt[3] = {KIT_CG_I64, KIT_CG_I64, KIT_CG_I32};
      KitCgVal ba[3] = {kit_cg_iconst(&b, KIT_CG_I64, last->pc), next,
                        kit_cg_iconst(&b, KIT_CG_I32, (uint64_t)edge_kind(last->flags))};
      kit_emu_call_helper(&b, "kit_emu_tool_branch", KIT_CG_VOID, bt, ba, 3);
    }
    if (mode == FOR_JIT_CHAIN_OUT) {
      if (!emit_chain_exits(emu, &x, &b, sp->cpu, next, last)) {
        fprintf(err, "kit-emu: out of memory for exit slots\n");
        return NULL;
      }
    } else {
      kit_cg_ret(&b, next);
    }
  }
  kit_emu_seam_finish(sp, &b);
  for (unsigned i = 0; i < emu->npasses; i++)
    if (emu->passes[i].fn(emu->passes[i].user, m, f) != 0) {
      fprintf(err, "kit-emu: a pass refused the block at 0x%" PRIx64 "\n", insns[0].pc);
      return NULL;
    }
  /* the verifier checks the lifter, not the guest: only under -d (it was
   * ~5% of a tier-0 start-up) */
  if ((emu->opt.debug & ~(KIT_EMU_DEBUG_STATS | KIT_EMU_DEBUG_PERFMAP)) && kit_cg_verify(m, err) != 0) {
    fprintf(err, "kit-emu: internal error: lifted block at 0x%" PRIx64 " does not verify\n", insns[0].pc);
    return NULL;
  }
  return f;
fail:
  fprintf(err, "kit-emu: cannot lift the block at 0x%" PRIx64 "\n", insns[0].pc);
  return NULL;
}

/* a side exit of a trace (KitLiftEnv.exit): back into the loop when it has
 * one there, through its own slot when the block chains, else back to the
 * dispatcher */
static void side_exit(KitLiftEnv *env, KitCgBuilder *b, uint64_t next) {
  Xlate *x = env->user;
  if (loop_back(x, b, next)) return;
  KitEmuExit *slot = x->mode == FOR_JIT_CHAIN_OUT ? kit_tcache_exit_new(x->seam.emu->tc, next) : NULL;
  if (slot) emit_exit(b, x->seam.cpu, slot);
  else kit_cg_ret(b, kit_cg_iconst(b, KIT_CG_I64, next));
}

bool kit_emu_block_lift(KitEmu *emu, KitEmuBlock *blk) {
  if (blk->f) return true;
  char mname[48];
  snprintf(mname, sizeof mname, "block_%" PRIx64, blk->pc);
  blk->m = kit_cg_module_new(mname);
  blk->f = kit_emu_translate_insns(emu, blk->m, blk->insns, blk->ninsns, emu->log);
  if (blk->f) {
    emu->stats.tier0_lifts++;
    return true;
  }
  kit_cg_module_free(blk->m);
  blk->m = NULL;
  return false;
}

static KitEmuBlock *translate(KitEmu *emu, uint64_t pc) {
  KitDecodedInsn buf[MAX_BLOCK_INSNS];
  unsigned n = decode_block(emu, pc, buf, emu->opt.single_step ? 1 : MAX_BLOCK_INSNS);
  if (!n) return NULL;
  KitEmuBlock *blk = calloc(1, sizeof *blk);
  blk->pc = pc;
  blk->ninsns = n;
  blk->insns = malloc(n * sizeof *blk->insns);
  memcpy(blk->insns, buf, n * sizeof *buf);
  blk->lo = pc;
  blk->end = 0;
  for (unsigned i = 0; i < n; i++) { /* a superblock's extent */
    if (buf[i].pc < blk->lo) blk->lo = buf[i].pc;
    if (buf[i].pc + buf[i].len > blk->end) blk->end = buf[i].pc + buf[i].len;
  }
  /* the CG for tier 0 is lifted when the block is first interpreted (most
   * are compiled on their first run); -d cg shows it at once */
  if ((emu->opt.debug & KIT_EMU_DEBUG_CG) && !kit_emu_block_lift(emu, blk)) {
    free(blk->insns);
    free(blk);
    return NULL;
  }
  if (emu->opt.debug & KIT_EMU_DEBUG_IN_ASM) {
    fprintf(emu->log, "IN: 0x%" PRIx64 "\n", pc);
    for (unsigned i = 0; i < n; i++) {
      char text[128] = "?";
      if (emu->arch->disasm) emu->arch->disasm(&buf[i], text, sizeof text);
      fprintf(emu->log, "  0x%" PRIx64 ":  %08x  %s\n", buf[i].pc, buf[i].raw, text);
    }
  }
  if (emu->opt.debug & KIT_EMU_DEBUG_CG) kit_cg_print_func(blk->m, blk->f, emu->log);
  for (unsigned i = 0; i < n; i++)
    for (uint64_t p = buf[i].pc & ~(KIT_EMU_PAGE - 1); p < buf[i].pc + buf[i].len; p += KIT_EMU_PAGE)
      kit_aspace_mark_code(&emu->as, p);
  kit_tcache_insert(emu->tc, blk);
  emu->stats.blocks_translated++;
  return blk;
}

/* ---- the dispatcher ------------------------------------------------------------------ */

static void boundary(KitEmu *emu) {
  emu->chain_stop = 0; /* first: whatever sets it after this is seen below or by the next entry check */
  if (emu->smc_n || emu->smc_overflow) {
    if (emu->smc_overflow) kit_tcache_flush(emu->tc);
    for (int i = 0; i < emu->smc_n; i++) kit_tcache_invalidate(emu->tc, emu->smc_pages[i], KIT_EMU_PAGE);
    emu->smc_n = 0;
    emu->smc_overflow = 0;
  }
  kit_tcache_reap(emu->tc);
  kit_tier_poll(emu);
  if (emu->sync_pending || atomic_load(&emu->async_pending)) kit_emu_deliver_signals(emu);
}

/* The hot path: LLVM code going from block to block through the jump cache
 * while nothing needs the dispatcher (no signal, exit, invalidation). Tool
 * observation is in the blocks themselves, so it does not miss anything. */
static void run_jitted(KitEmu *emu, KitEmuBlock *blk) {
  KitEmuTcache *tc = emu->tc;
  emu->in_guest = 1;
  for (;;) {
    emu->last_exit = NULL;
    uint64_t next = (uint64_t)kit_emu_code(blk->jit)(emu->cpu, NULL);
    emu->arch->set_pc(emu->cpu, next); /* chained exits store none */
    emu->stats.blocks_executed++;
    emu->stats.jit_entries++;
    if (emu->exited || emu->chain_stop || emu->sync_pending ||
        atomic_load_explicit(&emu->async_pending, memory_order_relaxed) ||
        emu->smc_n || emu->smc_overflow || tc->graveyard)
      break;
    KitEmuBlock *nb = tc->jc[kit_tcache_jc_slot(next)];
    if (!nb || nb->pc != next || !nb->jit) break;
    if (emu->last_exit) kit_tcache_link(tc, emu->last_exit, nb);
    blk = nb;
  }
  emu->in_guest = 0;
}

int kit_emu_exec_loop(KitEmu *emu) {
  kit_emu_current = emu;
  emu->guest_thread = pthread_self();
  static KitEmuBlock *volatile running;
  if (sigsetjmp(emu->fault_jmp, 0)) {
    /* a host fault inside the guest window: the signal is pending already */
    if (running) kit_tier_discard_interp(running);
    running = NULL;
    kit_emu_block_fault(emu, kit_emu_fault_retired(emu));
  }
  while (!emu->exited) {
    boundary(emu);
    if (emu->exited) break;
    uint64_t pc = emu->arch->get_pc(emu->cpu);
    KitEmuBlock *blk = kit_tcache_lookup(emu->tc, pc);
    if (!blk) blk = translate(emu, pc);
    if (!blk) {
      const KitEmuRegion *r = kit_aspace_find(&emu->as, pc);
      if (r && (r->prot & KIT_EMU_PROT_EXEC)) { /* executable but cannot be lifted */
        kit_emu_raise(emu, SIGILL, 1, pc);
      } else {
        kit_emu_raise(emu, SIGSEGV, r ? 2 : 1, pc);
      }
      continue;
    }
    if (emu->opt.debug & KIT_EMU_DEBUG_EXEC) fprintf(emu->log, "exec 0x%" PRIx64 "\n", pc);
    else if (blk->jit) {
      run_jitted(emu, blk);
      continue;
    }
    running = blk;
    bool compiled = false;
    emu->in_guest = 1;
    uint64_t next = kit_tier_run(emu, blk, &compiled);
    emu->arch->set_pc(emu->cpu, next);
    emu->in_guest = 0;
    running = NULL;
    const KitDecodedInsn *last = &blk->insns[blk->ninsns - 1];
    if (!compiled && (last->flags & KIT_DECODE_BRANCH)) { /* for traces */
      if (next == last->target) blk->taken++;
      else blk->fall++;
    }
    emu->stats.blocks_executed++;
    if (compiled) emu->stats.jit_entries++;
    else emu->stats.tier0_runs++;
  }
  return emu->exit_status;
}

static int by_code(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)(*(KitEmuBlock *const *)a)->jit, y = (uintptr_t)(*(KitEmuBlock *const *)b)->jit;
  return x < y ? -1 : x > y;
}

/* -d perfmap: perf's map of JIT code, one line per jitted block (its size
 * up to the next block's code, at most 4 KiB) */
void kit_emu_write_perfmap(KitEmu *emu) {
  KitEmuTcache *tc = emu->tc;
  KitEmuBlock **v = malloc((tc->nblocks + 1) * sizeof *v);
  unsigned n = 0;
  if (!v) return;
  for (uint32_t i = 0; i < tc->nbuckets; i++)
    for (KitEmuBlock *b = tc->buckets[i]; b; b = b->next)
      if (b->jit && n < tc->nblocks) v[n++] = b;
  qsort(v, n, sizeof *v, by_code);
  char path[64];
  snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
  FILE *f = fopen(path, "w");
  for (unsigned i = 0; f && i < n; i++) {
    uintptr_t at = (uintptr_t)v[i]->jit, size = 4096;
    if (i + 1 < n && (uintptr_t)v[i + 1]->jit - at < size) size = (uintptr_t)v[i + 1]->jit - at;
    const char *tier = v[i]->tier2 ? "_t2" : v[i]->baseline ? "_b" : "";
    fprintf(f, "%lx %lx emu_block_%" PRIx64 "%s\n", (unsigned long)at, (unsigned long)size, v[i]->pc, tier);
    if (getenv("KIT_EMU_PERFMAP_CODE")) { /* the bytes too, for objdump -b binary */
      char cp[96];
      snprintf(cp, sizeof cp, "%s/emu_block_%" PRIx64 "%s@%lx.bin", getenv("KIT_EMU_PERFMAP_CODE"), v[i]->pc, tier,
               (unsigned long)at);
      FILE *c = fopen(cp, "wb");
      if (c) {
        fwrite((const void *)at, 1, size, c);
        fclose(c);
      }
    }
  }
  if (f) fclose(f);
  else kit_emu_warn(emu, "cannot write %s", path);
  free(v);
}

void kit_emu_print_stats(KitEmu *emu) {
  KitEmuStats s;
  kit_emu_get_stats(emu, &s);
  fprintf(emu->log,
          "kit-emu stats: %llu blocks translated, %llu jitted in %llu batches (%llu failed), %llu at tier 2, %llu "
          "invalidations\n"
          "kit-emu stats: %llu blocks compiled by the baseline compiler (%llu left to LLVM) in %.3f s CPU\n"
          "kit-emu stats: %llu tier-0 block runs (of %llu blocks lifted for it), %llu dispatcher entries into compiled "
          "code (chaining %s)\n"
          "kit-emu stats: %.3f s CPU lifting and compiling for LLVM\n",
          (unsigned long long)s.blocks_translated, (unsigned long long)s.blocks_jitted,
          (unsigned long long)s.jit_batches, (unsigned long long)s.jit_failures, (unsigned long long)s.blocks_tier2,
          (unsigned long long)s.invalidations, (unsigned long long)s.blocks_baseline,
          (unsigned long long)s.baseline_declined, (double)s.baseline_ns / 1e9, (unsigned long long)s.tier0_runs,
          (unsigned long long)s.tier0_lifts, (unsigned long long)s.jit_entries, kit_emu_chaining(emu) ? "on" : "off",
          (double)s.jit_compile_ns / 1e9);
}
