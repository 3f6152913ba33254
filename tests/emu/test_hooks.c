/* tests/emu/test_hooks.c — runs a guest under a test tool and checks that each
 * hook fires exactly as often as it should, in tier 0, tier 1 and step mode:
 * block entries' instruction counts = instruction retires, the same count in
 * every mode, branch kinds, syscall entry/exit pairs, map events, a memory
 * DENY that becomes a guest SIGSEGV, and a shadow plane that tracks mappings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kit/emu.h"

static const char *guest;

typedef struct Counts {
  uint64_t blocks, block_insns, retires, branches, calls, rets, conds, sys_in, sys_out, maps, loads, stores;
  uint64_t denied, multi_insn_blocks, shadow_ok, shadow_missing;
  KitEmuStats stats;
  KitEmuShadowPlane *plane;
} Counts;

static void on_block(void *u, KitEmu *e, uint64_t pc, uint32_t n) {
  Counts *c = u;
  (void)pc;
  c->blocks++;
  c->block_insns += n;
  if (n > 1) c->multi_insn_blocks++;
  assert_true(kit_emu_get_pc(e) != 0);
}
static void on_retire(void *u, KitEmu *e, uint64_t pc, const KitDecodedInsn *in) {
  Counts *c = u;
  (void)e;
  assert_int_equal(pc, in->pc);
  c->retires++;
}
static void on_branch(void *u, KitEmu *e, uint64_t from, uint64_t to, KitEmuEdgeKind k) {
  Counts *c = u;
  (void)e, (void)from, (void)to;
  c->branches++;
  c->calls += k == KIT_EMU_EDGE_CALL;
  c->rets += k == KIT_EMU_EDGE_RET;
  c->conds += k == KIT_EMU_EDGE_COND;
}
static KitEmuToolVerdict on_mem(void *u, KitEmu *e, uint64_t addr, uint32_t size, bool w, void *host, uint64_t pc) {
  Counts *c = u;
  (void)e, (void)pc;
  if (w) c->stores++;
  else c->loads++;
  if (w && addr == 0x1000000008 && c->denied == 0) {
    c->denied++;
    return KIT_EMU_TOOL_DENY;
  }
  if (host && c->plane) {
    uint8_t *s = kit_emu_shadow_for(c->plane, addr, size);
    if (s) {
      if (w) *s = 1;
      c->shadow_ok++;
    } else {
      c->shadow_missing++;
    }
  }
  return KIT_EMU_TOOL_ALLOW;
}
static void on_sys_in(void *u, KitEmu *e, const KitEmuSyscallRequest *r) {
  (void)e, (void)r;
  ((Counts *)u)->sys_in++;
}
static void on_sys_out(void *u, KitEmu *e, const KitEmuSyscallRequest *r, const KitEmuSyscallResult *res) {
  (void)e, (void)r, (void)res;
  ((Counts *)u)->sys_out++;
}
static void on_map(void *u, KitEmu *e, uint64_t va, uint64_t len, uint8_t perms) {
  Counts *c = u;
  (void)e, (void)perms;
  c->maps++;
  if (c->plane) {
    uint8_t *s = kit_emu_shadow_for(c->plane, va, len);
    assert_non_null(s);
    assert_int_equal(s[0], 0);
    assert_int_equal(s[len - 1], 0);
  }
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

static bool requires_dispatch; /* the tool asks for every block through the dispatcher */
static bool chain;             /* KitEmuOptions.chain */

static Counts run(KitEmuTier tier, bool step, bool retire, bool mem) {
  Counts c;
  memset(&c, 0, sizeof c);
  KitEmuOptions opt = {.tier = tier, .single_step = step, .chain = chain};
  char *argv[] = {(char *)guest, NULL};
  char *envp[] = {"A=1", NULL};
  KitEmu *emu = kit_emu_new(&opt, 1, argv, envp, stderr);
  assert_non_null(emu);
  KitEmuToolHooks h = {.on_block_entry = on_block, .on_branch = on_branch, .on_syscall_entry = on_sys_in,
                       .on_syscall_exit = on_sys_out, .on_map = on_map, .user = &c,
                       .on_insn_retire = retire ? on_retire : NULL, .want_insn_retire = retire,
                       .on_mem_access = mem ? on_mem : NULL, .tool_requires_dispatch = requires_dispatch};
  if (mem) c.plane = kit_emu_shadow_register(emu, "test", 8);
  pass_calls = 0;
  assert_int_equal(kit_emu_add_pass(emu, count_pass, NULL), 0);
  kit_emu_set_tool_hooks(emu, &h);
  assert_int_equal(kit_emu_run(emu), 0);
  kit_emu_get_stats(emu, &c.stats);
  /* every lift for the interpreter and every LLVM re-lift went through the
   * pipeline; under auto, the baseline compiler's lifts too */
  if (tier == KIT_EMU_TIER_AUTO) /* a batch may be dropped by an invalidation and re-lifted */
    assert_true(pass_calls >= c.stats.tier0_lifts + c.stats.blocks_jitted + c.stats.blocks_baseline);
  else
    assert_int_equal(pass_calls, c.stats.tier0_lifts + c.stats.blocks_jitted);
  /* the interpreter lifts only the blocks it runs: none when LLVM compiles each first */
  if (tier == KIT_EMU_TIER_JIT) assert_int_equal(c.stats.tier0_lifts, 0);
  if (tier == KIT_EMU_TIER_INTERP) assert_int_equal(c.stats.tier0_lifts, c.stats.blocks_translated);
  kit_emu_free(emu);
  return c;
}

static void check_common(const Counts *c) {
  assert_true(c->blocks > 1000);
  assert_true(c->branches <= c->blocks);
  assert_true(c->calls >= 5000); /* step() is called once per collatz step */
  assert_true(c->rets >= 5000);
  assert_true(c->conds > 0);
  assert_int_equal(c->sys_in, c->sys_out);
  assert_true(c->sys_in >= 5);
  assert_true(c->maps >= 2); /* heap growth and the fixed mmap */
}

static uint64_t reference_insns;

static void test_tier0(void **st) {
  (void)st;
  Counts c = run(KIT_EMU_TIER_INTERP, false, true, false);
  check_common(&c);
  assert_int_equal(c.retires, c.block_insns);
  assert_true(c.multi_insn_blocks > 0);
  assert_int_equal(c.stats.blocks_jitted, 0);
  assert_int_equal(c.stats.blocks_executed, c.blocks);
  reference_insns = c.block_insns;
}

static void test_tier1(void **st) {
  (void)st;
  Counts c = run(KIT_EMU_TIER_JIT, false, true, false);
  check_common(&c);
  assert_int_equal(c.retires, c.block_insns);
  assert_int_equal(c.block_insns, reference_insns);
  /* every block ran as LLVM code */
  assert_true(c.stats.blocks_jitted > 0);
  assert_int_equal(c.stats.blocks_jitted, c.stats.blocks_translated);
  assert_int_equal(c.stats.jit_failures, 0);
}

static void test_auto_without_retire(void **st) {
  (void)st;
  Counts c = run(KIT_EMU_TIER_AUTO, false, false, false);
  check_common(&c);
  assert_int_equal(c.retires, 0);
  assert_int_equal(c.block_insns, reference_insns);
}

static void test_step(void **st) {
  (void)st;
  Counts c = run(KIT_EMU_TIER_INTERP, true, true, false);
  check_common(&c);
  assert_int_equal(c.multi_insn_blocks, 0);
  assert_int_equal(c.blocks, c.block_insns);
  assert_int_equal(c.retires, c.block_insns);
  assert_int_equal(c.block_insns, reference_insns);
}

static void test_memory_tool(void **st) {
  (void)st;
  Counts c = run(KIT_EMU_TIER_INTERP, false, false, true);
  check_common(&c);
  assert_int_equal(c.denied, 1);
  assert_true(c.loads > 10000 && c.stores > 1000);
  assert_true(c.shadow_ok > 10000);
  assert_int_equal(c.shadow_missing, 0);
  /* the denied store re-runs the handler path: a few more instructions */
  assert_true(c.block_insns >= reference_insns);
  /* the same accesses, one by one, when the checked path is LLVM code */
  Counts j = run(KIT_EMU_TIER_JIT, false, false, true);
  assert_int_equal(j.denied, 1);
  assert_int_equal(j.loads, c.loads);
  assert_int_equal(j.stores, c.stores);
  assert_int_equal(j.block_insns, c.block_insns);
  assert_int_equal(j.shadow_missing, 0);
}

/* chained LLVM code: the same hooks fire as often; with
 * tool_requires_dispatch every block goes through the dispatcher */
static void test_chaining(void **st) {
  (void)st;
  chain = true;
  Counts c = run(KIT_EMU_TIER_JIT, false, false, false);
  check_common(&c);
  assert_int_equal(c.block_insns, reference_insns);
  assert_int_equal(c.stats.tier0_runs, 0);
  assert_true(c.stats.jit_entries * 4 < c.blocks); /* most exits chained */
  requires_dispatch = true;
  Counts d = run(KIT_EMU_TIER_JIT, false, false, false);
  requires_dispatch = false;
  chain = false;
  assert_int_equal(d.block_insns, reference_insns);
  assert_int_equal(d.blocks, c.blocks);
  assert_int_equal(d.branches, c.branches);
  assert_int_equal(d.stats.jit_entries, d.blocks);
  assert_int_equal(d.stats.blocks_executed, d.blocks);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_emu_hooks GUEST\n");
    return 2;
  }
  guest = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tier0), cmocka_unit_test(test_tier1), cmocka_unit_test(test_auto_without_retire),
      cmocka_unit_test(test_step), cmocka_unit_test(test_memory_tool), cmocka_unit_test(test_chaining),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
