/* unit_passes.c — cmocka tests of passes/: the -fsanitize= parser, and the ASan
 * pass over CG text in both configurations. The emulator-style config (its own
 * shadow base and address transform, recover mode) is run in the CG
 * interpreter over a private arena and shadow, so the inline checks are
 * executed, not just printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kit/cg_exec.h"
#include "kit/passes.h"

/* ---- the parser ---------------------------------------------------------- */

static void test_parse_lists(void **state) {
  (void)state;
  KitPassOptions o;
  char err[128];
  kit_pass_options_init(&o);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize=address,undefined", err, sizeof err), 1);
  assert_true(o.sanitize & KIT_SAN_ADDRESS);
  assert_true(o.sanitize & KIT_SAN_SIGNED_INTEGER_OVERFLOW);
  assert_true(o.sanitize & KIT_SAN_SHIFT_EXPONENT);
  assert_false(o.sanitize & KIT_SAN_UNSIGNED_INTEGER_OVERFLOW); /* not in "undefined" */
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fno-sanitize=shift", err, sizeof err), 1);
  assert_false(o.sanitize & KIT_SAN_SHIFT_BASE);
  assert_true(o.sanitize & KIT_SAN_NULL);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fno-sanitize=all", err, sizeof err), 1);
  assert_int_equal(o.sanitize, 0);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize=integer", err, sizeof err), 1);
  assert_true(o.sanitize & KIT_SAN_UNSIGNED_INTEGER_OVERFLOW);
  assert_true(o.sanitize & KIT_SAN_IMPLICIT_INTEGER_SIGN_CHANGE);
}

static void test_parse_errors(void **state) {
  (void)state;
  KitPassOptions o;
  char err[128];
  kit_pass_options_init(&o);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize=adress", err, sizeof err), -1);
  assert_string_equal(err, "unsupported argument 'adress' to option '-fsanitize='");
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize=address,", err, sizeof err), -1);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize=all", err, sizeof err), -1);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize", err, sizeof err), -1);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize-recover=unreachable", err, sizeof err), -1);
  assert_string_equal(err, "unsupported argument 'unreachable' to option '-fsanitize-recover='");
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize-coverage=trace-pcs", err, sizeof err), -1);
  /* not ours: left to the driver */
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize-address-use-after-scope", err, sizeof err), 0);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fstack-protector", err, sizeof err), 0);
  assert_int_equal(o.sanitize, 0);
}

static void test_parse_recover_trap_coverage(void **state) {
  (void)state;
  KitPassOptions o;
  char err[128];
  kit_pass_options_init(&o);
  assert_true(o.recover & KIT_SAN_SIGNED_INTEGER_OVERFLOW); /* clang's default */
  assert_false(o.recover & (KIT_SAN_ADDRESS | KIT_SAN_UNREACHABLE | KIT_SAN_RETURN));
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize-recover=address", err, sizeof err), 1);
  assert_true(o.recover & KIT_SAN_ADDRESS);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fno-sanitize-recover=all", err, sizeof err), 1);
  assert_int_equal(o.recover, 0);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize-recover", err, sizeof err), 1);
  assert_true(o.recover & KIT_SAN_ADDRESS);
  assert_false(o.recover & KIT_SAN_UNREACHABLE);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize-trap=undefined", err, sizeof err), 1);
  assert_true(o.trap & KIT_SAN_ALIGNMENT);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fno-sanitize-trap=alignment", err, sizeof err), 1);
  assert_false(o.trap & KIT_SAN_ALIGNMENT);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize-trap", err, sizeof err), 1);
  assert_false(o.trap & KIT_SAN_ADDRESS);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fsanitize-coverage=trace-pc-guard,pc-table", err, sizeof err), 1);
  assert_int_equal(o.coverage, KIT_COV_TRACE_PC_GUARD | KIT_COV_PC_TABLE);
  assert_int_equal(kit_sanitize_parse_arg(&o, "-fno-sanitize-coverage=pc-table", err, sizeof err), 1);
  assert_int_equal(o.coverage, KIT_COV_TRACE_PC_GUARD);
  /* which UBSan checks have a pass changes as they are written; ASan has one */
  o.sanitize = KIT_SAN_ADDRESS | KIT_SAN_UB_ALL;
  uint64_t u = kit_passes_unimplemented(&o);
  assert_int_equal(u & ~o.sanitize, 0);
  assert_false(u & KIT_SAN_ADDRESS);
  assert_string_equal(kit_sanitize_name(KIT_SAN_SIGNED_INTEGER_OVERFLOW), "signed-integer-overflow");
}

/* ---- the pass over CG text ------------------------------------------------- */

static const char prog[] =
    "module \"t\"\n"
    "global @g size 12 align 4\n"
    "func @f(ptr, ptr) -> i32 {\n"
    "  stack $0 size 8 align 4 \"loc\" noescape\n"
    "b0:\n"
    "  %3 = load i32 %1\n"                   /* checked */
    "  %4 = load i32 %2 internal\n"          /* INTERNAL: never */
    "  store i32 %3, %1 !noinstr\n"          /* emitted by a pass: never */
    "  %5 = stackaddr $0\n"
    "  store i32 %3, %5\n"                   /* constant in-bounds, not escaping: skipped */
    "  %6 = symaddr @g, 8\n"
    "  %7 = load i32 %6\n"                   /* constant in-bounds global: skipped */
    "  %8 = symaddr @g, 10\n"
    "  %9 = load i32 %8\n"                   /* crosses the end: checked */
    "  %10 = const i64 6\n"
    "  %11 = ptradd %1, %10\n"
    "  %12 = load i64 %11\n"                 /* checked (8 bytes) */
    "  %13 = const i64 3\n"
    "  memcpy %1, %2, %13\n"
    "  %14 = add i32 %3, %4\n"
    "  ret %14\n"
    "}\n";

static unsigned count_calls(const KitCgModule *m, const char *prefix) {
  unsigned n = 0;
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    const KitCgFunc *f = m->funcs[fi];
    for (uint32_t b = 0; b < f->nblocks; b++)
      for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
        const KitCgInst *in = &f->blocks[b].insts[i];
        if (in->op == KIT_CG_OP_CALL && !strncmp(kit_cg_sym_name(m, in->aux), prefix, strlen(prefix))) n++;
      }
  }
  return n;
}

static KitCgModule *parse(void) {
  KitCgModule *m = kit_cg_parse(prog, strlen(prog), "t", stderr);
  assert_non_null(m);
  return m;
}

static void test_pass_compiled(void **state) {
  (void)state;
  KitCgModule *m = parse();
  KitPassOptions o;
  kit_pass_options_init(&o);
  o.sanitize = KIT_SAN_ADDRESS;
  assert_int_equal(kit_passes_run(m, &o), 0);
  assert_int_equal(kit_cg_verify(m, stderr), 0);
  assert_int_equal(count_calls(m, "__asan_report_load4"), 2);
  assert_int_equal(count_calls(m, "__asan_report_load8"), 1);
  assert_int_equal(count_calls(m, "__asan_report_store"), 0);
  assert_int_equal(count_calls(m, "__asan_report_load4_noabort"), 0);
  assert_int_equal(count_calls(m, "__asan_memcpy"), 1);
  assert_int_equal(count_calls(m, "__asan_register_globals"), 1);
  assert_int_equal(m->nctors, 1);
  assert_int_equal(m->ctors[0].priority, 1);
  KitCgGlobal *g = kit_cg_global_of(m, kit_cg_sym_find(m, "g"));
  assert_int_equal(g->size, 12 + 52); /* right redzone up to a multiple of 32, at least 32 */
  assert_int_equal(g->align, 32);
  kit_cg_module_free(m);
}

/* the emulator's way: shadow base and guest addresses supplied by callbacks */
static uint8_t arena[4096] __attribute__((aligned(16)));
static uint8_t shadow[4096 / 8];
static uint64_t reports[8];
static unsigned nreports;

static KitCgVal emu_shadow_base(void *user, KitCgBuilder *b) {
  (void)user;
  return kit_cg_iconst(b, KIT_CG_I64, (uint64_t)(uintptr_t)shadow);
}
static KitCgVal emu_guest_addr(void *user, KitCgBuilder *b, KitCgVal ptr) {
  (void)user;
  KitCgVal host = kit_cg_emit(b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, &ptr, 1)->id;
  KitCgVal args[2] = {host, kit_cg_iconst(b, KIT_CG_I64, (uint64_t)(uintptr_t)arena)};
  return kit_cg_emit(b, KIT_CG_OP_SUB, KIT_CG_I64, args, 2)->id;
}
static void record(uint64_t addr) {
  if (nreports < 8) reports[nreports] = addr;
  nreports++;
}
static void ignore_range(uint64_t addr, uint64_t size);
static void *resolve(void *user, const char *name) {
  (void)user;
  if (!strncmp(name, "__asan_report_", 14)) return (void *)record;
  if (!strcmp(name, "__asan_loadN_noabort") || !strcmp(name, "__asan_storeN_noabort")) return (void *)ignore_range;
  return NULL;
}

static const char emu_prog[] =
    "func @f(ptr, ptr) -> i32 {\n"
    "b0:\n"
    "  %3 = load i32 %1\n"
    "  %4 = load i32 %2 internal\n"
    "  %10 = const i64 6\n"
    "  %11 = ptradd %1, %10\n"
    "  %12 = load i64 %11\n"
    "  %13 = const i64 3\n"
    "  memcpy %1, %2, %13\n"
    "  %14 = add i32 %3, %4\n"
    "  ret %14\n"
    "}\n";

static void ignore_range(uint64_t addr, uint64_t size) {
  (void)addr;
  (void)size;
}

static int run_f(KitInterp *ip, KitCgModule *m, uint64_t off) {
  KitCgScalar args[2] = {{.i = (uint64_t)(uintptr_t)(arena + off)}, {.i = (uint64_t)(uintptr_t)(arena + 1024)}};
  KitCgScalar ret[2];
  nreports = 0;
  return kit_interp_call(ip, kit_cg_func_of(m, kit_cg_sym_find(m, "f")), args, 2, ret);
}

static void test_pass_emulator_config(void **state) {
  (void)state;
  KitCgModule *m = kit_cg_parse(emu_prog, strlen(emu_prog), "emu", stderr);
  assert_non_null(m);
  KitAsanConfig c = {.shadow_base = emu_shadow_base, .check_addr = emu_guest_addr, .recover = true,
                     .skip_safe = true};
  KitPassOptions o;
  kit_pass_options_init(&o);
  o.sanitize = KIT_SAN_ADDRESS;
  o.asan = &c;
  assert_int_equal(kit_passes_run(m, &o), 0);
  assert_int_equal(kit_cg_verify(m, stderr), 0);
  assert_int_equal(m->nctors, 0); /* no globals registration */
  assert_int_equal(count_calls(m, "__asan_report_load4_noabort"), 1);
  assert_int_equal(count_calls(m, "__asan_report_load8_noabort"), 1);
  assert_int_equal(count_calls(m, "__asan_memcpy"), 0);
  assert_int_equal(count_calls(m, "__asan_storeN_noabort"), 1);
  assert_int_equal(count_calls(m, "__asan_loadN_noabort"), 1);
  KitInterp *ip = kit_interp_new(m, resolve, NULL, stderr);
  assert_non_null(ip);
  memset(shadow, 0, sizeof shadow);
  assert_int_equal(run_f(ip, m, 64), 0);
  assert_int_equal(nreports, 0);
  shadow[64 / 8] = 0xfa; /* [64, 72) poisoned */
  assert_int_equal(run_f(ip, m, 64), 0);
  assert_int_equal(nreports, 2);
  assert_int_equal(reports[0], 64);
  assert_int_equal(reports[1], 70);
  memset(shadow, 0, sizeof shadow);
  shadow[128 / 8] = 2; /* only [128, 130) addressable: (128 & 7) + 3 >= 2 */
  assert_int_equal(run_f(ip, m, 128), 0);
  assert_int_equal(nreports, 2);
  assert_int_equal(reports[0], 128);
  assert_int_equal(reports[1], 134);
  shadow[128 / 8] = 4; /* [128, 132): the i32 passes, the i64 at 134 does not */
  assert_int_equal(run_f(ip, m, 128), 0);
  assert_int_equal(nreports, 1);
  assert_int_equal(reports[0], 134);
  kit_interp_free(ip);
  kit_cg_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_lists),
      cmocka_unit_test(test_parse_errors),
      cmocka_unit_test(test_parse_recover_trap_coverage),
      cmocka_unit_test(test_pass_compiled),
      cmocka_unit_test(test_pass_emulator_config),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
