/* emu/blocks.c — guest blocks: decoding at a pc (through the address
 * space), a block's instructions up to a terminator with superblocks along
 * direct jumps, the block record in the translation cache, and what a hot
 * block is compiled as: a trace along its likely path or a region around
 * its loop. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "instrument.h"

#define MAX_BLOCK_INSNS KIT_EMU_MAX_BLOCK_INSNS

/* may the block go on at the target of this direct jump (a superblock)?
 * Not into a pc where blocks must start, nor through a call while tools
 * translate (calls end blocks, so tools see them as block exits), nor back
 * into the block itself (pcs stay unique: kit_emu_fault_retired) */
static bool follow_jump(const KitEmu *emu, const KitDecodedInsn *in, const KitDecodedInsn *out, unsigned n) {
  if (emu->opt.single_step || ((in->flags & KIT_DECODE_CALL) && kit_emu_tools_translate(emu)) ||
      kit_emu_instr_block_start(emu, in->target) || kit_emu_instr_block_start(emu, out[0].pc))
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

unsigned kit_emu_decode_block(KitEmu *emu, uint64_t pc, KitDecodedInsn *out, unsigned limit) {
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

/* ---- traces ------------------------------------------------------------------------ */

/* A hot block is compiled as a trace (a superblock along its likely path):
 * while the block ends in a conditional branch that went one way at least
 * TRACE_BIAS of its tier-0 runs, the block that side leads to is appended
 * and the branch becomes a side exit for the other side (lifted by the
 * arch, which calls KitLiftEnv.exit). pcs stay unique in a trace (the fault
 * path finds the faulting instruction's index by pc), and it stays within
 * MAX_BLOCK_INSNS. A block a tool wants the exit edge of ends the trace. */
#define TRACE_BIAS_NUM 15
#define TRACE_BIAS_DEN 16
#define TRACE_MIN_RUNS 32

KitDecodedInsn *kit_emu_trace(KitEmu *emu, KitEmuBlock *b, unsigned *n_out) {
  KitDecodedInsn *v = malloc(MAX_BLOCK_INSNS * sizeof *v);
  if (!v) return NULL;
  unsigned n = b->ninsns < MAX_BLOCK_INSNS ? b->ninsns : MAX_BLOCK_INSNS;
  memcpy(v, b->insns, n * sizeof *v);
  *n_out = n;
  if (emu->opt.single_step || kit_emu_instr_block_start(emu, b->pc)) return v;
  const KitEmuBlock *cur = b;
  for (;;) {
    KitDecodedInsn *last = &v[n - 1];
    if (cur->instr && cur->instr->edge.n) break;
    uint32_t runs = cur->taken + cur->fall;
    if (!(last->flags & KIT_DECODE_BRANCH) || !last->target || runs < TRACE_MIN_RUNS) break;
    bool taken;
    if ((uint64_t)cur->taken * TRACE_BIAS_DEN >= (uint64_t)runs * TRACE_BIAS_NUM) taken = true;
    else if ((uint64_t)cur->fall * TRACE_BIAS_DEN >= (uint64_t)runs * TRACE_BIAS_NUM) taken = false;
    else break;
    uint64_t to = taken ? last->target : last->pc + last->len;
    const KitEmuBlock *s = kit_tcache_lookup(emu->tc, to);
    if (!s || n + s->ninsns > MAX_BLOCK_INSNS || kit_emu_instr_block_start(emu, to)) break;
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
  if (emu->opt.single_step || !kit_emu_chaining(emu) || kit_emu_instr_block_start(emu, b->pc))
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
      if (t && t->ninsns && !t->dead && !kit_emu_instr_block_start(emu, t->pc) &&
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

KitEmuBlock *kit_emu_block_new(KitEmu *emu, uint64_t pc) {
  KitDecodedInsn buf[MAX_BLOCK_INSNS];
  unsigned n = kit_emu_decode_block(emu, pc, buf, emu->opt.single_step ? 1 : MAX_BLOCK_INSNS);
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
  if (emu->opt.debug & KIT_EMU_DEBUG_IN_ASM) {
    fprintf(emu->log, "IN: 0x%" PRIx64 "\n", pc);
    for (unsigned i = 0; i < n; i++) {
      char text[128] = "?";
      if (emu->arch->disasm) emu->arch->disasm(&buf[i], text, sizeof text);
      fprintf(emu->log, "  0x%" PRIx64 ":  %08x  %s\n", buf[i].pc, buf[i].raw, text);
    }
  }
  for (unsigned i = 0; i < n; i++)
    for (uint64_t p = buf[i].pc & ~(KIT_EMU_PAGE - 1); p < buf[i].pc + buf[i].len; p += KIT_EMU_PAGE)
      kit_aspace_mark_code(&emu->as, p);
  blk->instr = kit_emu_instr_block(emu, blk->insns, n);
  kit_tcache_insert(emu->tc, blk);
  emu->stats.blocks_translated++;
  return blk;
}
