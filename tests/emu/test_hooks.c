/* tests/emu/test_hooks.c — runs a guest under test tools on the tool API
 * (include/kit/emu_tool.h) and checks that every callback fires exactly as
 * often as it should, in tier 0, the baseline tier, LLVM (tier 1), tier 2,
 * chained, unchained and single-step mode: instruction callbacks = inline
 * instruction counts (less the faulting store), block callbacks = inline
 * block counts, the same instruction count in every mode, exit edges by
 * kind, a conditional callback exactly once, register writes with the
 * values the registers hold, system call entry/exit pairs and a call a tool
 * answers itself, map events, a memory DENY that becomes a guest SIGSEGV
 * with the value the store would write, two tools at once, a tool that
 * detaches itself midway and one that attaches then; records pushed into
 * per-thread and shared buffers by the generated code (KIT_EMU_INLINE_PUSH)
 * = the block callbacks' pcs; code events per tier = the tiers' counts;
 * an edge callback filtered by its target's range (the compare in the
 * generated code) = the unfiltered one's edges that leave the range. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kit/emu_tool.h"

static const char *guest;

typedef struct Counts {
  uint64_t blocks, block_insns, insn_cbs, calls, rets, conds, jumps, sys_in, sys_out, maps, loads, stores;
  uint64_t denied, denied_value, regw, regw_bad, cond_fires, multi_insn_blocks, shadow_ok, shadow_missing;
  uint64_t inl_insns, inl_blocks, other_insns, late_blocks, detach_at, answered;
  uint64_t edges_far, outside_calls, outside_bad; /* edges more than OUTSIDE bytes from their block's start */
  uint64_t pc_sum, pushed_sum, pushed_n, pushed_bad, shared_sum, shared_n, drains, code[4], code_insns;
  KitEmuStats stats;
  KitEmuShadowPlane *plane;
  KitEmuTool *late;
} Counts;

static Counts c;
static KitEmuScoreboard *board;

/* PUSH: a per-thread buffer (the fill level after it, so a zeroed entry
 * starts at buf[0]) and a shared one (the level before it: a shared u64's
 * offset counts from the u64) */
enum { PUSH_WORDS = 64, PUSH_MAGIC = 0x6b6974 };
typedef struct PushBuf {
  uint64_t buf[PUSH_WORDS];
  uint64_t used;
} PushBuf;
static KitEmuScoreboard *pushes;
static struct {
  uint64_t used;
  uint64_t buf[16];
} shared_push;

static void drain(PushBuf *p) {
  for (uint64_t i = 0; i + 1 < p->used / 8; i += 2) {
    c.pushed_bad += p->buf[i] != PUSH_MAGIC;
    c.pushed_sum += p->buf[i + 1];
    c.pushed_n++;
  }
  p->used = 0;
  c.drains++;
}
static void on_push_full(KitEmu *e, unsigned vcpu, void *u) {
  (void)e, (void)u;
  drain(kit_emu_scoreboard_entry(pushes, vcpu));
}
static void on_shared_full(KitEmu *e, unsigned vcpu, void *u) {
  (void)e, (void)vcpu, (void)u;
  for (uint64_t i = 0; i < (shared_push.used - 8) / 8; i++) c.shared_sum += shared_push.buf[i], c.shared_n++;
  shared_push.used = 8;
}
static void on_code(KitEmu *e, unsigned vcpu, uint64_t pc, unsigned tier, size_t n, void *u) {
  (void)e, (void)vcpu, (void)u;
  assert_true(pc != 0 && n >= 1);
  c.code[tier < 4 ? tier : 0]++;
  c.code_insns += n;
}

static void on_block(KitEmu *e, unsigned vcpu, void *u) {
  uintptr_t n = (uintptr_t)u;
  assert_int_equal(vcpu, 0);
  c.blocks++;
  c.block_insns += n;
  if (n > 1) c.multi_insn_blocks++;
  assert_true(kit_emu_get_pc(e) != 0);
  c.pc_sum += kit_emu_get_pc(e);
}
static void on_insn(KitEmu *e, unsigned vcpu, void *u) {
  (void)vcpu;
  assert_int_equal(kit_emu_get_pc(e), (uint64_t)(uintptr_t)u); /* the pc is the instruction's */
  c.insn_cbs++;
}
enum { OUTSIDE = 64 };
static void on_edge(KitEmu *e, unsigned vcpu, uint64_t from, uint64_t to, KitEmuEdge k, void *u) {
  (void)e, (void)vcpu, (void)from;
  c.edges_far += to - (uintptr_t)u >= OUTSIDE; /* u: the block's pc */
  c.calls += k == KIT_EMU_EDGE_CALL;
  c.rets += k == KIT_EMU_EDGE_RET;
  c.conds += k == KIT_EMU_EDGE_COND;
  c.jumps += k == KIT_EMU_EDGE_JUMP;
}
static void on_regw(KitEmu *e, unsigned vcpu, uint64_t pc, unsigned reg, uint64_t v, void *u) {
  (void)vcpu, (void)pc, (void)u;
  c.regw++;
  size_t n;
  const KitArchReg *regs = kit_emu_regs(e, &n);
  for (size_t i = 0; i < n; i++)
    if (regs[i].num == reg && kit_emu_reg_read(e, &regs[i]) != v) c.regw_bad++;
}
static void on_cond(KitEmu *e, unsigned vcpu, void *u) {
  (void)e, (void)vcpu, (void)u;
  c.cond_fires++;
}
static KitEmuVerdict on_mem(KitEmu *e, unsigned vcpu, const KitEmuMemAccess *a, void *u) {
  (void)e, (void)vcpu, (void)u;
  if (a->is_store) c.stores++;
  else c.loads++;
  if (a->is_store && a->addr == 0x1000000008 && c.denied == 0) {
    c.denied++;
    c.denied_value = a->value;
    return KIT_EMU_DENY;
  }
  if (a->addr < (1ull << 38) && c.plane) {
    uint8_t *s = kit_emu_shadow_for(c.plane, a->addr, a->size);
    if (s) {
      if (a->is_store) *s = 1;
      c.shadow_ok++;
    } else {
      c.shadow_missing++;
    }
  }
  return KIT_EMU_ALLOW;
}
static bool on_sys_in(KitEmu *e, unsigned vcpu, KitEmuSyscall *sc, int64_t *ret, void *u) {
  (void)e, (void)vcpu, (void)u;
  c.sys_in++;
  if (sc->nr == 172 /* getpid */) { /* answered here: the guest checks it sees 4242 */
    *ret = 4242;
    c.answered++;
    return true;
  }
  return false;
}
static void on_sys_out(KitEmu *e, unsigned vcpu, const KitEmuSyscall *sc, int64_t ret, void *u) {
  (void)e, (void)vcpu, (void)u;
  if (sc->nr == 172) assert_int_equal(ret, 4242);
  c.sys_out++;
}
static void on_map(KitEmu *e, const KitEmuMapping *m, void *u) {
  (void)e, (void)u;
  c.maps++;
  if (c.plane) {
    uint8_t *s = kit_emu_shadow_for(c.plane, m->va, m->len);
    assert_non_null(s);
  }
}

typedef struct Want {
  bool insn_cbs, mem, regw;
  bool outside; /* the edge callback only for targets OUTSIDE bytes or more from the block's start */
} Want;
static Want want;

static void on_edge_outside(KitEmu *e, unsigned vcpu, uint64_t from, uint64_t to, KitEmuEdge k, void *u) {
  (void)e, (void)vcpu, (void)from, (void)k;
  c.outside_calls++;
  c.outside_bad += to - (uintptr_t)u < OUTSIDE;
}

static void on_tb(KitEmuTool *t, KitEmuTb *tb, void *u) {
  (void)t, (void)u;
  size_t n = kit_emu_tb_n_insns(tb);
  kit_emu_tb_exec_cb(tb, on_block, (void *)(uintptr_t)n);
  kit_emu_tb_inline(tb, KIT_EMU_INLINE_ADD, kit_emu_u64_per_thread(board, 8), 1);
  kit_emu_tb_cond_cb(tb, on_cond, KIT_EMU_COND_EQ, kit_emu_u64_per_thread(board, 8), 1000, NULL);
  KitEmuU64 used = kit_emu_u64_per_thread(pushes, offsetof(PushBuf, used));
  kit_emu_tb_inline(tb, KIT_EMU_INLINE_PUSH, used, PUSH_MAGIC);
  kit_emu_tb_inline(tb, KIT_EMU_INLINE_PUSH, used, kit_emu_tb_pc(tb));
  kit_emu_tb_cond_cb(tb, on_push_full, KIT_EMU_COND_GE, used, 8 * PUSH_WORDS, NULL);
  kit_emu_tb_inline(tb, KIT_EMU_INLINE_PUSH, kit_emu_u64_shared(&shared_push.used), kit_emu_tb_pc(tb));
  kit_emu_tb_cond_cb(tb, on_shared_full, KIT_EMU_COND_GE, kit_emu_u64_shared(&shared_push.used), sizeof shared_push,
                     NULL);
  if (want.outside)
    kit_emu_tb_edge_cb_outside(tb, on_edge_outside, kit_emu_tb_pc(tb), OUTSIDE, (void *)(uintptr_t)kit_emu_tb_pc(tb));
  else
    kit_emu_tb_edge_cb(tb, on_edge, (void *)(uintptr_t)kit_emu_tb_pc(tb));
  for (size_t i = 0; i < n; i++) {
    KitEmuInsn *in = kit_emu_tb_insn(tb, i);
    assert_non_null(kit_emu_insn_disas(in));
    kit_emu_insn_inline(in, KIT_EMU_INLINE_ADD, kit_emu_u64_per_thread(board, 0), 1);
    if (want.insn_cbs) kit_emu_insn_exec_cb(in, on_insn, (void *)(uintptr_t)kit_emu_insn_pc(in));
    if (want.mem) kit_emu_insn_mem_cb(in, on_mem, KIT_EMU_MEM_RW, NULL);
    if (want.regw) kit_emu_insn_regw_cb(in, on_regw, NULL);
  }
}

/* a second tool: instructions counted by its own inline adds; beside the
 * first tool's, a filtered edge callback (two tools' callbacks: the helper
 * compares) */
static uint64_t other;
static void on_tb_other(KitEmuTool *t, KitEmuTb *tb, void *u) {
  (void)t, (void)u;
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++)
    kit_emu_insn_inline(kit_emu_tb_insn(tb, i), KIT_EMU_INLINE_ADD, kit_emu_u64_shared(&other), 1);
  if (!want.outside)
    kit_emu_tb_edge_cb_outside(tb, on_edge_outside, kit_emu_tb_pc(tb), OUTSIDE, (void *)(uintptr_t)kit_emu_tb_pc(tb));
}

/* a fourth tool that attaches while the guest runs: it counts the
 * instructions from then on (the blocks translated before are translated
 * again for it) */
static uint64_t attached_insns;
static void on_tb_attached(KitEmuTool *t, KitEmuTb *tb, void *u) {
  (void)t, (void)u;
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++)
    kit_emu_insn_inline(kit_emu_tb_insn(tb, i), KIT_EMU_INLINE_ADD, kit_emu_u64_shared(&attached_insns), 1);
}

/* a third tool that leaves after 500 blocks, from its own callback, and
 * attaches the fourth */
static void late_block(KitEmu *e, unsigned vcpu, void *u) {
  (void)vcpu, (void)u;
  if (++c.late_blocks == c.detach_at) {
    kit_emu_tool_detach(c.late);
    KitEmuTool *t = kit_emu_tool_register(e, "attached", KIT_EMU_TOOL_API_VERSION, stderr);
    assert_non_null(t);
    kit_emu_on_tb_trans(t, on_tb_attached, NULL);
  }
}
static void on_tb_late(KitEmuTool *t, KitEmuTb *tb, void *u) {
  (void)t, (void)u;
  kit_emu_tb_exec_cb(tb, late_block, NULL);
}

/* a pass that counts blocks and checks it sees the block function's shape */
static _Atomic uint64_t pass_calls;
static int count_pass(void *user, KitCgModule *m, KitCgFunc *f) {
  (void)user;
  assert_true(f->nparams == 1 || f->nparams == 2); /* cpu [, exit slot when chained] */
  assert_true(f->nblocks >= 1);
  assert_int_equal(strncmp(kit_cg_func_name(m, f), "emu_block_", 10), 0);
  pass_calls++;
  return 0;
}

typedef struct Mode {
  KitEmuTier tier;
  bool step, chain, no_baseline, detach;
  uint32_t jit_threshold;
  const char *repeat; /* REPEAT for the guest's hot loop */
} Mode;

static Counts run(Mode m) {
  memset(&c, 0, sizeof c);
  other = 0;
  KitEmuOptions opt = {.tier = m.tier, .single_step = m.step, .chain = m.chain, .no_baseline = m.no_baseline,
                       .jit_threshold = m.jit_threshold};
  char *argv[] = {(char *)guest, NULL};
  char rep[32];
  snprintf(rep, sizeof rep, "REPEAT=%s", m.repeat ? m.repeat : "1");
  char *envp[] = {"A=1", rep, NULL};
  KitEmu *emu = kit_emu_new(&opt, 1, argv, envp, stderr);
  assert_non_null(emu);
  KitEmuTool *t = kit_emu_tool_register(emu, "test", KIT_EMU_TOOL_API_VERSION, stderr);
  assert_non_null(t);
  board = kit_emu_scoreboard_new(t, 16);
  assert_non_null(board);
  pushes = kit_emu_scoreboard_new(t, sizeof(PushBuf));
  assert_non_null(pushes);
  shared_push.used = 8;
  kit_emu_on_code(t, on_code, NULL);
  kit_emu_on_tb_trans(t, on_tb, NULL);
  kit_emu_on_syscall(t, on_sys_in, NULL);
  kit_emu_on_syscall_ret(t, on_sys_out, NULL);
  kit_emu_on_map(t, on_map, NULL);
  KitEmuTool *o = kit_emu_tool_register(emu, "other", KIT_EMU_TOOL_API_VERSION, stderr);
  kit_emu_on_tb_trans(o, on_tb_other, NULL);
  if (m.detach) {
    c.late = kit_emu_tool_register(emu, "late", KIT_EMU_TOOL_API_VERSION, stderr);
    c.detach_at = 500;
    kit_emu_on_tb_trans(c.late, on_tb_late, NULL);
  }
  if (want.mem) c.plane = kit_emu_shadow_register(emu, "test", 8);
  pass_calls = 0;
  assert_int_equal(kit_emu_add_pass(emu, count_pass, NULL), 0);
  assert_int_equal(kit_emu_run(emu), 0); /* the guest saw getpid() == 4242 */
  kit_emu_get_stats(emu, &c.stats);
  c.inl_insns = kit_emu_u64_sum(kit_emu_u64_per_thread(board, 0));
  c.inl_blocks = kit_emu_u64_sum(kit_emu_u64_per_thread(board, 8));
  c.other_insns = other;
  drain(kit_emu_scoreboard_entry(pushes, 0));
  on_shared_full(emu, 0, NULL);
  if (m.tier == KIT_EMU_TIER_AUTO) /* a batch may be dropped by an invalidation and re-lifted */
    assert_true(pass_calls >= c.stats.tier0_lifts + c.stats.blocks_jitted + c.stats.blocks_baseline);
  else
    assert_int_equal(pass_calls, c.stats.tier0_lifts + c.stats.blocks_jitted);
  if (m.tier == KIT_EMU_TIER_JIT) assert_int_equal(c.stats.tier0_lifts, 0);
  kit_emu_free(emu);
  return c;
}

static uint64_t reference_insns;

/* what holds in every mode */
static void check_common(const Counts *k) {
  assert_true(k->blocks > 1000);
  assert_int_equal(k->inl_blocks, k->blocks);         /* inline block adds = block callbacks */
  assert_int_equal(k->cond_fires, 1);                 /* the block count passes 1000 once */
  assert_int_equal(k->other_insns, k->inl_insns);     /* two tools, the same count */
  assert_int_equal(k->outside_calls, k->edges_far);   /* the other's filtered edge callback */
  assert_int_equal(k->outside_bad, 0);
  assert_true(k->calls >= 5000); /* step() is called once per collatz step */
  assert_true(k->rets >= 5000);
  assert_true(k->conds > 0);
  assert_int_equal(k->sys_in, k->sys_out);
  assert_true(k->sys_in >= 5);
  assert_int_equal(k->answered, 1);
  assert_true(k->maps >= 4); /* the initial ones, heap growth, the fixed mmap */
  /* what the generated code pushed is what the block callbacks saw */
  assert_int_equal(k->pushed_bad, 0);
  assert_int_equal(k->pushed_n, k->blocks);
  assert_int_equal(k->pushed_sum, k->pc_sum);
  assert_true(k->drains > k->blocks / (PUSH_WORDS / 2)); /* the buffer filled and was drained */
  assert_int_equal(k->shared_n, k->blocks);
  assert_int_equal(k->shared_sum, k->pc_sum);
  /* code events: one per block compiled, by tier */
  assert_int_equal(k->code[KIT_EMU_CODE_BASELINE], k->stats.blocks_baseline);
  assert_int_equal(k->code[KIT_EMU_CODE_LLVM], k->stats.blocks_jitted);
  assert_int_equal(k->code[KIT_EMU_CODE_TIER2], k->stats.blocks_tier2);
}

static void check_reference(const Counts *k) {
  check_common(k);
  if (reference_insns) assert_int_equal(k->inl_insns, reference_insns);
}

static void test_tier0(void **st) {
  (void)st;
  want = (Want){.insn_cbs = true, .regw = true};
  Counts k = run((Mode){.tier = KIT_EMU_TIER_INTERP});
  check_reference(&k);
  assert_int_equal(k.insn_cbs, k.inl_insns);
  assert_int_equal(k.block_insns, k.inl_insns);
  assert_true(k.multi_insn_blocks > 0);
  assert_int_equal(k.stats.blocks_jitted, 0);
  assert_int_equal(k.stats.blocks_executed, k.blocks);
  assert_true(k.regw > k.inl_insns / 2);
  assert_int_equal(k.regw_bad, 0);
  reference_insns = k.inl_insns;
}

static void test_tier1(void **st) {
  (void)st;
  want = (Want){.insn_cbs = true, .regw = true};
  Counts k = run((Mode){.tier = KIT_EMU_TIER_JIT});
  check_reference(&k);
  assert_int_equal(k.insn_cbs, k.inl_insns);
  assert_int_equal(k.regw_bad, 0);
  assert_true(k.stats.blocks_jitted > 0);
  assert_int_equal(k.stats.blocks_jitted, k.stats.blocks_translated);
  assert_int_equal(k.stats.jit_failures, 0);
}

/* auto: the baseline compiler; without it, LLVM and tier 2 (traces and
 * regions keep each block's instrumentation), on a longer run: the counts
 * of tier 0 */
static void test_auto_tiers(void **st) {
  (void)st;
  want = (Want){.insn_cbs = true};
  Counts k = run((Mode){.tier = KIT_EMU_TIER_AUTO, .chain = true});
  check_reference(&k);
  assert_true(k.stats.blocks_baseline > 0);
  assert_int_equal(k.insn_cbs, k.inl_insns);
  want = (Want){0};
  Counts r = run((Mode){.tier = KIT_EMU_TIER_INTERP, .repeat = "40"});
  check_common(&r);
  Counts t = run((Mode){.tier = KIT_EMU_TIER_AUTO, .chain = true, .no_baseline = true, .jit_threshold = 20, .repeat = "40"});
  check_common(&t);
  assert_true(t.stats.blocks_jitted > 0);
  assert_true(t.stats.blocks_tier2 > 0);
  assert_int_equal(t.inl_insns, r.inl_insns);
  assert_int_equal(t.blocks, r.blocks);
  assert_int_equal(t.calls, r.calls);
  assert_int_equal(t.conds, r.conds);
}

/* kit_emu_tb_edge_cb_outside: the generated code's compare (one tool's
 * callback) calls it for exactly the edges an unfiltered callback sees
 * leave the range, in tier 0 and LLVM's */
static void test_edge_outside(void **st) {
  (void)st;
  KitEmuTier tiers[] = {KIT_EMU_TIER_INTERP, KIT_EMU_TIER_JIT};
  for (unsigned i = 0; i < 2; i++) {
    want = (Want){0};
    Counts all = run((Mode){.tier = tiers[i], .chain = true});
    want = (Want){.outside = true};
    Counts far = run((Mode){.tier = tiers[i], .chain = true});
    uint64_t edges = all.calls + all.rets + all.conds + all.jumps;
    assert_true(all.edges_far > 0 && all.edges_far < edges); /* some stay near, some leave */
    assert_int_equal(all.outside_calls, all.edges_far); /* the other tool's, through the helper */
    assert_int_equal(far.outside_calls, all.edges_far);
    assert_int_equal(far.outside_bad, 0);
  }
  want = (Want){0};
}

static void test_step(void **st) {
  (void)st;
  want = (Want){.insn_cbs = true, .regw = true};
  Counts k = run((Mode){.tier = KIT_EMU_TIER_INTERP, .step = true});
  check_reference(&k);
  assert_int_equal(k.multi_insn_blocks, 0);
  assert_int_equal(k.blocks, k.inl_insns);
  assert_int_equal(k.insn_cbs, k.inl_insns);
  assert_int_equal(k.regw_bad, 0);
}

static void test_memory_tool(void **st) {
  (void)st;
  want = (Want){.insn_cbs = true, .mem = true};
  Counts k = run((Mode){.tier = KIT_EMU_TIER_INTERP});
  assert_int_equal(k.denied, 1);
  assert_int_equal(k.denied_value, 5); /* watch[1] = 5 */
  assert_true(k.loads > 1000 && k.stores > 1000); /* libc's start-up and printf; the hot loop keeps to registers */
  assert_true(k.shadow_ok > 2000);
  assert_int_equal(k.shadow_missing, 0);
  /* the denied store's callback ran, the store did not retire */
  assert_int_equal(k.insn_cbs, k.inl_insns + 1);
  /* the denied store re-runs the handler path: a few more instructions */
  assert_true(k.inl_insns >= reference_insns);
  /* the same accesses, one by one, when the checked path is LLVM code */
  Counts j = run((Mode){.tier = KIT_EMU_TIER_JIT});
  assert_int_equal(j.denied, 1);
  assert_int_equal(j.loads, k.loads);
  assert_int_equal(j.stores, k.stores);
  assert_int_equal(j.inl_insns, k.inl_insns);
  assert_int_equal(j.insn_cbs, j.inl_insns + 1);
  assert_int_equal(j.shadow_missing, 0);
  /* and in the baseline tier */
  Counts b = run((Mode){.tier = KIT_EMU_TIER_AUTO, .jit_threshold = 1000000});
  assert_int_equal(b.denied, 1);
  assert_int_equal(b.stores, k.stores);
  assert_int_equal(b.inl_insns, k.inl_insns);
}

/* chained and unchained LLVM code: the same callbacks fire as often */
static void test_chaining(void **st) {
  (void)st;
  want = (Want){0};
  Counts k = run((Mode){.tier = KIT_EMU_TIER_JIT, .chain = true});
  check_reference(&k);
  assert_int_equal(k.stats.tier0_runs, 0);
  assert_true(k.stats.jit_entries * 4 < k.blocks); /* most exits chained */
  Counts d = run((Mode){.tier = KIT_EMU_TIER_JIT, .chain = false});
  check_reference(&d);
  assert_int_equal(d.blocks, k.blocks);
  assert_int_equal(d.calls, k.calls);
  assert_int_equal(d.stats.jit_entries, d.blocks);
}

/* a tool that detaches itself: its callback stops at once, only its blocks
 * go, the others count on; a tool attached then counts from there */
static void test_detach(void **st) {
  (void)st;
  want = (Want){0};
  attached_insns = 0;
  Counts k = run((Mode){.tier = KIT_EMU_TIER_AUTO, .chain = true, .detach = true});
  check_reference(&k);
  assert_int_equal(k.late_blocks, 500);
  /* the tool attached after 500 blocks saw all but the first ones */
  assert_true(attached_insns > k.inl_insns / 2 && attached_insns < k.inl_insns);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_emu_hooks GUEST\n");
    return 2;
  }
  guest = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tier0), cmocka_unit_test(test_tier1),        cmocka_unit_test(test_auto_tiers),
      cmocka_unit_test(test_step),  cmocka_unit_test(test_memory_tool), cmocka_unit_test(test_chaining),
      cmocka_unit_test(test_detach), cmocka_unit_test(test_edge_outside),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
